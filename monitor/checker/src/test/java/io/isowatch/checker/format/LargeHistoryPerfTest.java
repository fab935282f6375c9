package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 10^6 transactions of 8 operations (50 sessions, 4 writes and 4 reads each) written and read back
 * as JSON lines and Plume text: the readers stream, so this fits the 4 GiB heap of the issue. Run
 * with {@code mvn -pl monitor/checker test -Dtest=LargeHistoryPerfTest -Dsurefire.excludedGroups=
 * -DargLine=-Xmx4g}; it prints the file sizes and load times.
 */
@Tag("perf")
class LargeHistoryPerfTest {
  private static final int TXNS = 1_000_000;
  private static final int SESSIONS = 50;
  private static final int KEYS = 10_000;

  @TempDir Path dir;

  @Test
  void millionTransactionsRoundTrip() throws Exception {
    History h = generate();
    String expected = "txns=1000000 ops=8000000 sessions=50 keys=10000 committed=1000000 "
        + "aborted=0 unknown=0";
    assertThat(HistoryText.summary(h)).isEqualTo(expected);
    for (HistoryFormat format : new HistoryFormat[] {HistoryFormat.JSONL, HistoryFormat.PLUME}) {
      Path file = dir.resolve("large." + format.cliName());
      HistoryFiles.write(h, format, file);
      long start = System.nanoTime();
      History back = HistoryFiles.read(file, format, null);
      long ms = (System.nanoTime() - start) / 1_000_000;
      System.out.printf("%s: %d MiB read in %d ms%n", format.cliName(),
          Files.size(file) >> 20, ms);
      assertThat(HistoryText.summary(back)).isEqualTo(expected);
      Files.delete(file);
    }
  }

  /** Session s runs transactions s, s+50, ...; each writes 4 fresh values and reads 4 earlier. */
  private static History generate() {
    History h = new History();
    for (int k = 0; k < KEYS; k++) {
      h.key("k" + k);
    }
    for (int s = 0; s < SESSIONS; s++) {
      h.session("s" + s);
    }
    long[] last = new long[KEYS];
    for (int t = 0; t < TXNS; t++) {
      h.beginTxn(t % SESSIONS, t + 1);
      for (int i = 0; i < 4; i++) {
        int k = (int) ((t * 7L + i * 2503L) % KEYS);
        h.read(k, last[k] == 0 ? History.NIL : last[k]);
        int w = (int) ((t * 13L + i * 4001L + 1) % KEYS);
        last[w] = 4L * t + i + 1;
        h.write(w, last[w]);
      }
      h.end(TxnStatus.COMMITTED);
    }
    return h;
  }
}
