package io.isowatch.bench.measure;

import io.isowatch.bench.family.Family;
import io.isowatch.checker.Checker;
import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.CheckResult;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;

/**
 * Measures one point in the current JVM (meant to be a fresh one, see {@link ChildRunner}): warms
 * the checker up on a small history of the same family, generates the history (timed), then checks
 * it {@code repetitions} times, timing each check with {@link System#nanoTime()} (wall) and {@link
 * ThreadMXBean#getCurrentThreadCpuTime()} (CPU of the checking thread), and reading the
 * heap pools' peak use ({@link MemoryPoolMXBean#getPeakUsage()}, reset before each check).
 */
public final class Probe {
  /** Warm-up size: transactions for the families sized in transactions, operations for the others. */
  static final long WARMUP_TRANSACTIONS = 10_000;

  static final long WARMUP_OPS = 100_000;

  private static final double MIB = 1024.0 * 1024.0;

  private Probe() {}

  /**
   * Runs the probe. An {@link OutOfMemoryError} during generation or checking is caught and turned
   * into a failed point.
   *
   * @param family the family
   * @param size the family's size parameter
   * @param level the level to check
   * @param repetitions checks to time, at least 1
   * @param seed generation seed
   * @return the point
   */
  public static Measurement run(Family family, long size, Level level, int repetitions, long seed) {
    try {
      return measure(family, size, level, repetitions, seed);
    } catch (OutOfMemoryError e) {
      return Measurement.failed(family, size, level, "OutOfMemoryError: " + e.getMessage());
    }
  }

  private static Measurement measure(Family family, long size, Level level, int repetitions, long seed) {
    Checker checker = Checkers.forLevel(level);
    long warmup = Math.min(size, family.sizedInTransactions() ? WARMUP_TRANSACTIONS : WARMUP_OPS);
    History small = family.generate(warmup, seed + 1);
    for (int i = 0; i < 3; i++) {
      checker.check(small);
    }
    small = null;

    long t0 = System.nanoTime();
    History h = family.generate(size, seed);
    double generateMs = (System.nanoTime() - t0) / 1e6;
    double historyMiB = usedHeapAfterGc() / MIB;

    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] times = new double[repetitions];
    double[] cpuTimes = new double[repetitions];
    double peak = 0;
    CheckResult result = null;
    List<MemoryPoolMXBean> pools = heapPools();
    for (int r = 0; r < repetitions; r++) {
      result = null;
      usedHeapAfterGc();
      pools.forEach(MemoryPoolMXBean::resetPeakUsage);
      long cpu0 = threads.getCurrentThreadCpuTime();
      long c0 = System.nanoTime();
      result = checker.check(h);
      times[r] = (System.nanoTime() - c0) / 1e6;
      cpuTimes[r] = (threads.getCurrentThreadCpuTime() - cpu0) / 1e6;
      long sum = 0;
      for (MemoryPoolMXBean p : pools) {
        sum += p.getPeakUsage().getUsed();
      }
      peak = Math.max(peak, sum / MIB);
    }
    return new Measurement(family, size, level, h.txnCount(), h.opCount(), h.sessionCount(),
        generateMs, median(times), median(cpuTimes), historyMiB, peak, result.verdict().name(),
        result.violations().size(), null);
  }

  private static List<MemoryPoolMXBean> heapPools() {
    return ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP && p.isValid())
        .toList();
  }

  private static long usedHeapAfterGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /**
   * @param xs values, at least one; reordered
   * @return the median (the mean of the two middle values for an even count)
   */
  static double median(double[] xs) {
    Arrays.sort(xs);
    int m = xs.length / 2;
    return xs.length % 2 == 1 ? xs[m] : (xs[m - 1] + xs[m]) / 2;
  }
}
