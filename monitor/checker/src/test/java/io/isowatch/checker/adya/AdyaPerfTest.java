package io.isowatch.checker.adya;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * List-append histories of 10^5 and 10^6 transactions checked at serializable: prints time and peak
 * heap. Run with {@code mvn -o -pl monitor/checker test -Dtest='io/isowatch/checker/adya/AdyaPerf*'
 * -Dsurefire.excludedGroups= -DargLine=-Xmx4g}.
 *
 * <p>Histories: 50 sessions, 4 operations per transaction (append or read, even odds) over a pool of
 * 64 live keys; a key retires after 32 appends and a fresh one takes its place, so reads stay short
 * as in Jepsen's list-append workload. Transactions run one after another, so the history is
 * serializable; with {@code stale} &gt; 0 that share of reads return a shorter prefix, which makes
 * G-single and G2-item cycles. The incremental form updates only the keys each transaction touches
 * and searches only the components that changed; it is timed on a stream with such cycles.
 */
@Tag("perf")
class AdyaPerfTest {
  @Test
  void serialHistories() {
    for (int n : new int[] {100_000, 1_000_000}) {
      run(n, 0.0, Verdict.CONSISTENT);
    }
  }

  @Test
  void historiesWithStaleReads() {
    for (int n : new int[] {100_000, 1_000_000}) {
      run(n, 0.01, Verdict.VIOLATED);
    }
  }

  @Test
  void incrementalStreamsAHistoryWithCycles() {
    int n = 10_000;
    History h = generate(n, 0.01, new Random(n));
    IncrementalAdya inc = new IncrementalAdya(h, Level.SERIALIZABLE, true);
    long start = System.nanoTime();
    int found = 0;
    for (int t = 0; t < n; t++) {
      found += inc.accept(t).size();
    }
    found += inc.finish().size();
    long ms = (System.nanoTime() - start) / 1_000_000;
    System.out.printf("incremental adya serializable: %d txns streamed, %d violations, %d ms%n", n, found, ms);
    assertThat(found).isPositive();
  }

  private static void run(int n, double stale, Verdict expected) {
    History h = generate(n, stale, new Random(n));
    System.gc();
    resetPeaks();
    long start = System.nanoTime();
    CheckResult r = new AdyaChecker(Level.SERIALIZABLE).check(h);
    long ms = (System.nanoTime() - start) / 1_000_000;
    System.out.printf("adya serializable: %d txns, %d ops, stale %.2f: %s, %d violations, %d ms, peak heap %d MiB%n",
        n, h.opCount(), stale, r.verdict(), r.violations().size(), ms, peakHeap() >> 20);
    assertThat(r.verdict()).isEqualTo(expected);
  }

  static History generate(int n, double stale, Random rnd) {
    History h = new History();
    int live = 64;
    int[] keys = new int[live];
    int[] count = new int[live];
    long[][] lists = new long[live][32];
    int nextKey = 0;
    for (int i = 0; i < live; i++) {
      keys[i] = h.key("k" + nextKey++);
    }
    for (int s = 0; s < 50; s++) {
      h.session("s" + s);
    }
    for (int t = 0; t < n; t++) {
      h.beginTxn(t % 50, t);
      for (int o = 0; o < 4; o++) {
        int i = rnd.nextInt(live);
        if (rnd.nextBoolean()) {
          if (count[i] == 32) {
            keys[i] = h.key("k" + nextKey++);
            count[i] = 0;
          }
          long e = count[i] + 1L;
          lists[i][count[i]++] = e;
          h.append(keys[i], e);
        } else {
          int len = count[i] > 0 && rnd.nextDouble() < stale ? rnd.nextInt(count[i]) : count[i];
          h.readList(keys[i], lists[i], 0, len);
        }
      }
      h.end(TxnStatus.COMMITTED);
    }
    return h;
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      p.resetPeakUsage();
    }
  }

  private static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        sum += p.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
