package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How input is quoted in messages: {@link HistoryFormatException#excerpt}. */
class HistoryFormatExceptionTest {
  @Test
  void escapesControlCharactersAndKeepsShortInput() {
    assertThat(HistoryFormatException.excerpt("a\u0001\r\n\tb\u007f\u0085é"))
        .isEqualTo("a\\u0001\\r\\n\\tb\\u007f\\u0085é");
  }

  @Test
  void cutsAtEightyCharactersWithoutSplittingASurrogatePair() {
    assertThat(HistoryFormatException.excerpt("x".repeat(80))).isEqualTo("x".repeat(80));
    assertThat(HistoryFormatException.excerpt("x".repeat(81))).isEqualTo("x".repeat(80) + "...");
    assertThat(HistoryFormatException.excerpt("x".repeat(79) + "\uD83D\uDE00" + "y"))
        .isEqualTo("x".repeat(79) + "...");
  }
}
