package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The EDN writer is the inverse of the EDN reader. */
class EdnWriterTest {
  @TempDir Path dir;

  private History again(History h) throws Exception {
    Path out = dir.resolve("out.edn");
    HistoryFiles.write(h, HistoryFormat.EDN, out);
    return HistoryFiles.read(out, HistoryFormat.EDN, null);
  }

  @Test
  void writesOneCompletionPerLine() throws Exception {
    History h = TestHistories.parse("s1 T3: a x 1, r y []\ns2 T4: a k 5, r k [5] | aborted\ns1 T5: r x [1], r k []");
    Path out = dir.resolve("h.edn");
    HistoryFiles.write(h, HistoryFormat.EDN, out);
    assertThat(Files.readString(out)).isEqualTo(""
        + "{:type :ok, :process \"s1\", :index 3, :value [[:append \"x\" 1] [:r \"y\" []]]}\n"
        + "{:type :fail, :process \"s2\", :index 4, :value [[:append \"k\" 5] [:r \"k\" [5]]]}\n"
        + "{:type :ok, :process \"s1\", :index 5, :value [[:r \"x\" [1]] [:r \"k\" []]]}\n");
  }

  @Test
  void listAppendFromAnElleFileSurvivesTheRoundTrip() throws Exception {
    History h = HistoryFiles.read(Resources.path("list-append.edn"), null, null);
    assertThat(HistoryText.render(again(h))).isEqualTo(HistoryText.render(h));
  }

  @Test
  void registersSurviveTheRoundTrip() throws Exception {
    History h = TestHistories.parse("s1 T1: w x 1, r y _\ns2 T2: r x 1, w y 2\ns1 T7: w x 3 | aborted");
    assertThat(HistoryText.render(again(h))).isEqualTo(HistoryText.render(h));
  }

  @Test
  void refusesWhatEdnCannotSay() {
    assertThatThrownBy(() -> again(TestHistories.parse("s1 T1: w x 1, a y 1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("EDN cannot represent transaction T1, which mixes register and list operations in one"
            + " history; write JSON lines (jsonl) instead");
    assertThatThrownBy(() -> again(TestHistories.parse("s1 T1: r x _ | aborted")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("EDN cannot represent transaction T1, which did not commit and read the initial value,"
            + " which EDN cannot tell from unknown; write JSON lines (jsonl) instead");
    assertThatThrownBy(() -> again(TestHistories.parse("s1 T1: w x 1\ns2 T1: w x 2")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("EDN cannot represent transaction T1, which has a negative or repeated label (EDN's"
            + " :index must be distinct); write JSON lines (jsonl) instead");
  }
}
