package io.isowatch.bench.measure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders benchmark points as Markdown: one table row per point, then per (family, level) the
 * scaling exponent of the check time in the number of operations ({@link ScalingFit}): of the wall
 * time and of the checking thread's CPU time over all sizes, and of the CPU time over the two largest
 * sizes only (the local slope, less blurred by fixed costs).
 */
public final class Report {
  private Report() {}

  /**
   * @param points the points, in the order they were measured
   * @return the table of points, a header row first
   */
  public static String table(List<Measurement> points) {
    StringBuilder sb = new StringBuilder();
    sb.append("| family | transactions | ops | sessions | level | generate ms | check ms | check CPU ms | history MiB | peak heap MiB | verdict |\n");
    sb.append("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---|\n");
    for (Measurement m : points) {
      if (m.succeeded()) {
        sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %s | %.0f | %.1f | %.1f | %.0f | %.0f | %s |\n",
            m.family().cliName(), m.transactions(), m.ops(), m.sessions(), m.level().cliName(),
            m.generateMs(), m.checkMs(), m.checkCpuMs(), m.historyMiB(), m.peakHeapMiB(), verdict(m)));
      } else {
        sb.append(String.format(Locale.ROOT, "| %s | size %d | - | - | %s | - | - | - | - | - | failed: %s |\n",
            m.family().cliName(), m.size(), m.level().cliName(), m.failure()));
      }
    }
    return sb.toString();
  }

  private static String verdict(Measurement m) {
    return m.violations() == 0 ? m.verdict().toLowerCase(Locale.ROOT)
        : m.verdict().toLowerCase(Locale.ROOT) + " (" + m.violations() + ")";
  }

  /**
   * @param points the points; failed ones are left out of the fits
   * @return a table with one row per (family, level) that has at least two successful sizes
   */
  public static String exponents(List<Measurement> points) {
    Map<String, List<Measurement>> groups = new LinkedHashMap<>();
    for (Measurement m : points) {
      if (m.succeeded()) {
        groups.computeIfAbsent(m.family().cliName() + " | " + m.level().cliName(), k -> new ArrayList<>()).add(m);
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append("| family | level | ops range | exponent, wall (all sizes) | exponent, CPU (all sizes) | exponent, CPU (two largest) |\n");
    sb.append("|---|---|---|---:|---:|---:|\n");
    for (Map.Entry<String, List<Measurement>> e : groups.entrySet()) {
      List<Measurement> g = e.getValue();
      g.sort((a, b) -> Integer.compare(a.ops(), b.ops()));
      if (g.size() < 2 || g.get(0).ops() == g.get(g.size() - 1).ops()) {
        continue;
      }
      double wall = fit(g, false);
      double cpu = fit(g, true);
      double last = fit(g.subList(g.size() - 2, g.size()), true);
      sb.append(String.format(Locale.ROOT, "| %s | %d .. %d | %.2f | %.2f | %.2f |\n",
          e.getKey(), g.get(0).ops(), g.get(g.size() - 1).ops(), wall, cpu, last));
    }
    return sb.toString();
  }

  private static double fit(List<Measurement> g, boolean cpu) {
    double[] n = new double[g.size()];
    double[] t = new double[g.size()];
    for (int i = 0; i < g.size(); i++) {
      n[i] = g.get(i).ops();
      t[i] = Math.max(cpu ? g.get(i).checkCpuMs() : g.get(i).checkMs(), 0.001);
    }
    return ScalingFit.exponent(n, t);
  }

  /** @return a one-line description of a point for progress output */
  public static String progress(Measurement m) {
    if (!m.succeeded()) {
      return String.format(Locale.ROOT, "%s size %d %s: failed: %s", m.family(), m.size(), m.level(), m.failure());
    }
    return String.format(Locale.ROOT, "%s %d txns %d ops %s: check %.1f ms (CPU %.1f ms), peak %.0f MiB, %s",
        m.family(), m.transactions(), m.ops(), m.level(), m.checkMs(), m.checkCpuMs(), m.peakHeapMiB(), verdict(m));
  }
}
