package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** {@link TextReport}'s number grouping is the formatter's {@code %,d} in the root locale. */
class TextReportTest {
  @Test
  void groupsOfThreeDigitsAreSeparatedByCommas() {
    assertThat(TextReport.grouped(0)).isEqualTo("0");
    assertThat(TextReport.grouped(999)).isEqualTo("999");
    assertThat(TextReport.grouped(1_000)).isEqualTo("1,000");
    assertThat(TextReport.grouped(800_000)).isEqualTo("800,000");
    assertThat(TextReport.grouped(-1_234_567)).isEqualTo("-1,234,567");
    assertThat(TextReport.grouped(Long.MIN_VALUE)).isEqualTo("-9,223,372,036,854,775,808");
  }

  @Property(tries = 1000)
  void agreesWithTheFormatter(@ForAll long n) {
    assertThat(TextReport.grouped(n)).isEqualTo(String.format(Locale.ROOT, "%,d", n));
  }
}
