package io.isowatch.bench.measure;

import io.isowatch.checker.level.Level;
import io.isowatch.bench.family.Family;

/**
 * One benchmark point: a history of one family and size checked at one level in a fresh JVM.
 *
 * @param family the family
 * @param size the family's size parameter (transactions for {@code register}, target operations
 *     otherwise)
 * @param level the level checked
 * @param transactions transactions in the generated history
 * @param ops operations in the generated history
 * @param sessions sessions in the generated history
 * @param generateMs wall time to generate the history, milliseconds
 * @param checkMs median wall time of one check over the repetitions, milliseconds
 * @param checkCpuMs median CPU time of the checking thread over the repetitions, milliseconds (less
 *     disturbed than wall time by other processes on a shared machine; excludes GC threads)
 * @param historyMiB heap in use after generation and a full GC (the history itself), MiB
 * @param peakHeapMiB largest sum over the heap memory pools of their peak use during a check (an
 *     upper bound of the peak heap: pools peak at different moments, garbage included), MiB
 * @param verdict the check's verdict ({@code CONSISTENT}, {@code VIOLATED}, {@code UNKNOWN})
 * @param violations number of violations found
 * @param failure why the point has no figures ({@code OutOfMemoryError}, a timeout, an exit code),
 *     or {@code null} when it succeeded
 */
public record Measurement(
    Family family,
    long size,
    Level level,
    int transactions,
    int ops,
    int sessions,
    double generateMs,
    double checkMs,
    double checkCpuMs,
    double historyMiB,
    double peakHeapMiB,
    String verdict,
    int violations,
    String failure) {

  /** Prefix of the line a probe prints on standard output. */
  public static final String LINE_PREFIX = "PROBE";

  /**
   * @return a point without figures, for a probe that did not finish
   */
  public static Measurement failed(Family family, long size, Level level, String failure) {
    return new Measurement(family, size, level, 0, 0, 0, 0, 0, 0, 0, 0, "-", 0, failure);
  }

  /** @return whether the point has figures */
  public boolean succeeded() {
    return failure == null;
  }

  /** @return the point as one tab-separated line starting with {@value #LINE_PREFIX} */
  public String toLine() {
    return String.join("\t", LINE_PREFIX, family.cliName(), Long.toString(size), level.cliName(),
        Integer.toString(transactions), Integer.toString(ops), Integer.toString(sessions),
        Double.toString(generateMs), Double.toString(checkMs), Double.toString(checkCpuMs),
        Double.toString(historyMiB),
        Double.toString(peakHeapMiB), verdict, Integer.toString(violations),
        failure == null ? "-" : failure.replace('\t', ' ').replace('\n', ' '));
  }

  /**
   * Parses a line written by {@link #toLine()}.
   *
   * @param line the line
   * @return the point
   * @throws IllegalArgumentException if the line is not such a line
   */
  public static Measurement parse(String line) {
    String[] f = line.split("\t", -1);
    if (f.length != 15 || !f[0].equals(LINE_PREFIX)) {
      throw new IllegalArgumentException("not a probe line (expected 15 tab-separated fields): " + line);
    }
    try {
      return new Measurement(Family.parse(f[1]), Long.parseLong(f[2]), Level.parse(f[3]),
          Integer.parseInt(f[4]), Integer.parseInt(f[5]), Integer.parseInt(f[6]),
          Double.parseDouble(f[7]), Double.parseDouble(f[8]), Double.parseDouble(f[9]),
          Double.parseDouble(f[10]), Double.parseDouble(f[11]), f[12], Integer.parseInt(f[13]),
          f[14].equals("-") ? null : f[14]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad number in probe line: " + line, e);
    }
  }
}
