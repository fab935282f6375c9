package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.format.EdnParser.Keyword;
import io.isowatch.checker.format.EdnParser.Symbol;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The EDN subset Jepsen writes, parsed into plain Java values. */
class EdnParserTest {
  private static final Path FILE = Path.of("h.edn");

  private static Object parse(String text) throws HistoryFormatException {
    return EdnParser.parseLine(text, FILE, 1);
  }

  @Test
  void readsScalars() throws Exception {
    assertThat(Arrays.asList(parse("nil"), parse("true"), parse("-12"), parse("12N"),
            parse("99999999999999999999"), parse("1.5"), parse("\"a\\\"b\\n\""), parse(":ok"),
            parse("jepsen/txn"), parse("\\c"), parse("\\newline")))
        .containsExactly(null, true, -12L, 12L, new BigInteger("99999999999999999999"), 1.5,
            "a\"b\n", new Keyword("ok"), new Symbol("jepsen/txn"), 'c', '\n');
  }

  @Test
  void readsCollectionsTagsDiscardsAndComments() throws Exception {
    Object v = parse("{:value [[:r 1 nil] (2 3)], :s #{4}, :t #inst \"2024-01-01\", "
        + "#_ :gone #_ 5 :n 6} ; trailing comment");
    assertThat(v).isEqualTo(Map.of(
        new Keyword("value"), List.of(Arrays.asList(new Keyword("r"), 1L, null), List.of(2L, 3L)),
        new Keyword("s"), Set.of(4L),
        new Keyword("t"), "2024-01-01",
        new Keyword("n"), 6L));
    assertThat(parse("  ; only a comment")).isSameAs(EdnParser.NOTHING);
  }

  @Test
  void rendersValuesBackForMessages() throws Exception {
    assertThat(EdnParser.render(parse("[:append :x 1 \"s\" nil [2 3]]")))
        .isEqualTo("[:append :x 1 \"s\" nil [2 3]]");
  }
}
