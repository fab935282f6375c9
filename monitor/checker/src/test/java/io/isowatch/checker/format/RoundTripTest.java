package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Read, write, read again: the writers are the inverses of the readers. */
class RoundTripTest {
  @TempDir Path dir;

  private History again(History h, HistoryFormat format) throws Exception {
    Path out = dir.resolve("out." + format.cliName());
    HistoryFiles.write(h, format, out);
    return HistoryFiles.read(out, format, null);
  }

  @Test
  void jsonLinesKeepsEveryOperationKindStatusAndLabel() throws Exception {
    History h = HistoryFiles.read(Resources.path("sample.jsonl"), null, null);
    assertThat(HistoryText.render(again(h, HistoryFormat.JSONL))).isEqualTo(HistoryText.render(h));
  }

  @Test
  void jsonLinesKeepsListAppendFromEdn() throws Exception {
    History h = HistoryFiles.read(Resources.path("list-append.edn"), null, null);
    assertThat(HistoryText.render(again(h, HistoryFormat.JSONL))).isEqualTo(HistoryText.render(h));
  }

  @Test
  void jsonLinesWritesOneTransactionPerLine() throws Exception {
    History h = TestHistories.parse("s1 T3: w x 1, r y _\ns2 T4: a k 5, r k [5] | aborted");
    Path out = dir.resolve("h.jsonl");
    HistoryFiles.write(h, HistoryFormat.JSONL, out);
    assertThat(Files.readString(out)).isEqualTo(""
        + "{\"session\":\"s1\",\"txn\":3,\"status\":\"committed\",\"ops\":["
        + "{\"f\":\"w\",\"key\":\"x\",\"value\":1},{\"f\":\"r\",\"key\":\"y\",\"value\":null}]}\n"
        + "{\"session\":\"s2\",\"txn\":4,\"status\":\"aborted\",\"ops\":["
        + "{\"f\":\"append\",\"key\":\"k\",\"value\":5},"
        + "{\"f\":\"r\",\"key\":\"k\",\"value\":[5]}]}\n");
  }

  @Test
  void plumeKeepsTheHistoryOfAPlumeFile() throws Exception {
    History h = HistoryFiles.read(Resources.path("sample.plume.txt"), null, null);
    Path out = dir.resolve("out.txt");
    HistoryFiles.write(h, HistoryFormat.PLUME, out);
    assertThat(Files.readString(out)).isEqualTo(""
        + "w(1,5,1,10)\nr(1,5,1,10)\n"
        + "r(2,0,2,20)\nw(1,6,2,20)\n"
        + "w(2,7,1,-1)\nr(1,6,1,-1)\n"
        + "r(2,7,2,21)\n"
        + "w(2,8,1,11)\n"
        + "w(2,9,2,-1)\n");
    // aborted transactions are relabelled by the line of their first operation
    assertThat(HistoryText.render(HistoryFiles.read(out, HistoryFormat.PLUME, null))).isEqualTo(""
        + "1 T10: w 1 5, r 1 5\n"
        + "2 T20: r 2 _, w 1 6\n"
        + "1 T-5: w 2 7, r 1 6 | aborted\n"
        + "2 T21: r 2 7\n"
        + "1 T11: w 2 8\n"
        + "2 T-9: w 2 9 | aborted\n");
  }

  @Test
  void plumeIsStableAfterTheFirstWrite() throws Exception {
    History h = HistoryFiles.read(Resources.path("sample.plume.txt"), null, null);
    History once = again(h, HistoryFormat.PLUME);
    assertThat(HistoryText.render(again(once, HistoryFormat.PLUME)))
        .isEqualTo(HistoryText.render(once));
  }

  @Test
  void plumeNumbersNonNumericKeysSessionsAndLabels() throws Exception {
    History h = TestHistories.parse("alice T-4: w x 1\nbob T-4: r x 1, r y _");
    Path out = dir.resolve("named.txt");
    HistoryFiles.write(h, HistoryFormat.PLUME, out);
    assertThat(Files.readString(out)).isEqualTo("w(0,1,0,0)\nr(0,1,1,1)\nr(1,0,1,1)\n");
  }

  @Test
  void plumeRefusesWhatItCannotExpress() {
    History list = TestHistories.parse("s1 T1: a k 5");
    History unknown = TestHistories.parse("s1 T2: w x 1 | unknown");
    assertThatThrownBy(() -> HistoryFiles.write(list, HistoryFormat.PLUME, dir.resolve("a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Plume text cannot represent transaction T1, which has a list-append "
            + "operation; write JSON lines (jsonl) instead");
    assertThatThrownBy(() -> HistoryFiles.write(unknown, HistoryFormat.PLUME, dir.resolve("b")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Plume text cannot represent transaction T2, which has an unknown outcome; "
            + "write JSON lines (jsonl) instead");
    assertThat(dir.resolve("a")).doesNotExist();
  }

  @Test
  void otherFormatsAreNotWritable() {
    History h = TestHistories.parse("s1: w x 1");
    assertThatThrownBy(() -> HistoryFiles.write(h, HistoryFormat.AWDIT, dir.resolve("h.txt")))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("cannot write awdit histories; writable formats: jsonl, plume, edn");
  }
}
