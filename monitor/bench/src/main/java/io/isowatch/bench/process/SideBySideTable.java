package io.isowatch.bench.process;

import io.isowatch.checker.level.Level;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Renders the whole-process rows as the Markdown table of issue 20: per row the minimum wall time
 * of each tool over its runs with that run's own load/check split, the ratio of the minima, the
 * largest peak RSS over the runs, and the range of the 1-minute load averages seen around them.
 */
public final class SideBySideTable {
  private SideBySideTable() {}

  /**
   * One table row: the runs of both tools on one file at one level.
   *
   * @param workload the file
   * @param level the level
   * @param isowatch isowatch's runs, at least one
   * @param awdit AWDIT's runs, at least one
   */
  public record Row(Workload workload, Level level, List<ProcessRun> isowatch, List<ProcessRun> awdit) {
    /** @return whether every run of both tools exited with code 0 */
    public boolean succeeded() {
      return isowatch.stream().allMatch(ProcessRun::succeeded) && awdit.stream().allMatch(ProcessRun::succeeded);
    }
  }

  /**
   * @param rows the rows, in the order measured
   * @return the table, a header row first
   */
  public static String render(List<Row> rows) {
    StringBuilder sb = new StringBuilder();
    sb.append("| transactions | level | isowatch total (load / check) | AWDIT total (load / check)"
        + " | isowatch ÷ AWDIT | isowatch RSS | AWDIT RSS | load avg |\n");
    sb.append("|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      ProcessRun iso = fastest(r.isowatch());
      ProcessRun aw = fastest(r.awdit());
      sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
          r.workload().label(), abbreviation(r.level()), total(r.isowatch(), iso), total(r.awdit(), aw),
          r.succeeded() ? String.format(Locale.ROOT, "%.2f×", iso.wallMs() / aw.wallMs()) : "-",
          rss(r.isowatch()), rss(r.awdit()), loads(r)));
    }
    return sb.toString();
  }

  private static ProcessRun fastest(List<ProcessRun> runs) {
    return runs.stream().min(Comparator.comparingDouble(ProcessRun::wallMs)).orElseThrow();
  }

  private static String total(List<ProcessRun> runs, ProcessRun fastest) {
    if (!runs.stream().allMatch(ProcessRun::succeeded)) {
      return "failed (exit " + runs.stream().filter(p -> !p.succeeded()).findFirst().orElseThrow().exitCode() + ")";
    }
    return String.format(Locale.ROOT, "%s (%s / %s)", seconds(fastest.wallMs()), seconds(fastest.loadMs()),
        seconds(fastest.checkMs()));
  }

  private static String seconds(double ms) {
    if (ms < 0) {
      return "?";
    }
    return ms < 10_000 ? String.format(Locale.ROOT, "%.2f s", ms / 1000) : String.format(Locale.ROOT, "%.1f s", ms / 1000);
  }

  private static String rss(List<ProcessRun> runs) {
    long kib = runs.stream().mapToLong(ProcessRun::peakRssKiB).max().orElse(-1);
    return kib < 0 ? "?" : kib < 1024 * 1024 ? (kib / 1024) + " MiB" : String.format(Locale.ROOT, "%.2f GiB", kib / 1048576.0);
  }

  private static String loads(Row r) {
    double lo = Double.MAX_VALUE;
    double hi = 0;
    for (List<ProcessRun> runs : List.of(r.isowatch(), r.awdit())) {
      for (ProcessRun p : runs) {
        lo = Math.min(lo, Math.min(p.loadBefore(), p.loadAfter()));
        hi = Math.max(hi, Math.max(p.loadBefore(), p.loadAfter()));
      }
    }
    return String.format(Locale.ROOT, "%.1f–%.1f", lo, hi);
  }

  private static String abbreviation(Level l) {
    switch (l) {
      case READ_COMMITTED:
        return "RC";
      case READ_ATOMIC:
        return "RA";
      case CAUSAL:
        return "CC";
      default:
        return l.cliName();
    }
  }
}
