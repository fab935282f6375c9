package io.isowatch.cli;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.WitnessRenderer;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * The human output of {@code isowatch check}:
 *
 * <pre>
 * read-committed: CONSISTENT
 * read-atomic: VIOLATED (3 violations)
 * causal: VIOLATED (3 violations)
 *
 * read-atomic, violation 1 of 3: non-repeatable-read (weakest level broken: read-atomic)
 *   T9 read x twice with different results: x = 1 from T1, then x = 2 from T2
 *   T9 (session s2): r(x)=1 r(x)=2
 *   ...
 *
 * history.jsonl (jsonl): 120 transactions, 961 operations, 5 sessions, 12 keys; ms: load 31, ...
 * </pre>
 *
 * First one line per level with its verdict, then each violation with its witness in words
 * ({@link WitnessRenderer#lines}), at most a limit per level with a line telling how many were left
 * out, then one line of statistics.
 */
public final class TextReport {
  /** Violations printed per level without {@code --all}. */
  public static final int DEFAULT_LIMIT = 10;

  private final CheckReport report;
  private final int limit;

  /**
   * @param report what to print
   * @param limit the most violations printed per level ({@link Integer#MAX_VALUE} for all)
   */
  public TextReport(CheckReport report, int limit) {
    this.report = report;
    this.limit = limit;
  }

  /** Prints the report. */
  public void write(PrintWriter out) {
    for (CheckReport.LevelOutcome o : report.levels()) {
      out.println(verdictLine(o.label(), o.result()));
    }
    if (report.ladder()) {
      out.println(CheckPlan.Ladder.of(report.levels()).line());
    }
    WitnessRenderer renderer = new WitnessRenderer(report.history());
    for (CheckReport.LevelOutcome o : report.levels()) {
      List<Violation> violations = o.result().violations();
      String level = o.label();
      int shown = Math.min(limit, violations.size());
      for (int i = 0; i < shown; i++) {
        Violation v = violations.get(i);
        out.println();
        out.println(violationHeader(level, i, violations.size(), v));
        for (String line : renderer.lines(v)) {
          out.println("  " + line);
        }
      }
      if (shown < violations.size()) {
        int more = violations.size() - shown;
        out.println();
        out.println(notShownLine(more, level));
      }
    }
    out.println();
    out.println(statsLine());
  }

  /**
   * @return e.g. {@code read-atomic, violation 1 of 3: non-repeatable-read (weakest level broken:
   *     read-atomic)}
   */
  static String violationHeader(String level, int index, int count, Violation v) {
    return level + ", violation " + (index + 1) + " of " + count + ": " + v.anomaly().id()
        + " (weakest level broken: " + v.weakestLevelBroken().cliName() + ")";
  }

  /**
   * @return e.g. {@code ... 3 more violations at causal not shown; --all shows them}
   */
  static String notShownLine(int more, String level) {
    return "... " + more + " more " + plural(more, "violation") + " at " + level + " not shown; --all shows them";
  }

  /** @return e.g. {@code read-committed: CONSISTENT} or {@code causal: VIOLATED (3 violations)} */
  static String verdictLine(String label, CheckResult r) {
    String line = label + ": " + r.verdict();
    if (r.verdict() == Verdict.VIOLATED) {
      int n = r.violations().size();
      line += " (" + n + " " + plural(n, "violation") + ")";
    }
    return line;
  }

  private String statsLine() {
    History h = report.history();
    StringBuilder sb = new StringBuilder()
        .append(report.file()).append(" (").append(report.format().cliName()).append("): ")
        .append(count(h.txnCount(), "transaction")).append(", ")
        .append(count(h.opCount(), "operation")).append(", ")
        .append(count(h.sessionCount(), "session")).append(", ")
        .append(count(h.keyCount(), "key"))
        .append("; ms: load ").append(report.loadMillis());
    for (CheckReport.LevelOutcome o : report.levels()) {
      sb.append(", ").append(o.label()).append(' ').append(o.millis());
    }
    return sb.toString();
  }

  private static String count(int n, String noun) {
    return String.format(Locale.ROOT, "%,d", n) + " " + plural(n, noun);
  }

  private static String plural(int n, String noun) {
    return n == 1 ? noun : noun + "s";
  }
}
