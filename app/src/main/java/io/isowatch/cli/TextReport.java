package io.isowatch.cli;

import io.isowatch.checker.LevelVerdicts;
import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.finding.Findings;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.WitnessRenderer;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The human output of {@code isowatch check}:
 *
 * <pre>
 * read-committed: VIOLATED (1 violation)
 * read-atomic: VIOLATED (2 violations)
 * causal: VIOLATED (2 violations)
 *
 * [read-committed, read-atomic, causal] violation 1 of 2: thin-air-read (weakest level broken: read-committed)
 *   T4 read x = 7, which no transaction wrote
 *   ...
 *
 * [read-atomic, causal] violation 2 of 2: non-repeatable-read (weakest level broken: read-atomic)
 *   T9 read x twice with different results: x = 1 from T1, then x = 2 from T2
 *   T9 (session s2): r(x)=1 r(x)=2
 *   ...
 *
 * history.jsonl (jsonl): 120 transactions, 961 operations, 5 sessions, 12 keys; ms: load 31, ...
 * (the checks of weaker levels run only for their violations last, as {@code read-uncommitted (supporting) 4};
 * an axiomatic check not run because a stronger one found the history consistent, as
 * {@code read-committed (implied by causal) 0})
 * </pre>
 *
 * First one line per check with its verdict, as {@link LevelVerdicts} decides it (a check that
 * found violations counts them; one that found none on a violated level cites the violation that
 * decides it: {@code serializable: VIOLATED because causal is: cycle ...}), then each
 * distinct violation once with the levels that found it and its witness in words ({@link
 * Finding#lines}), at most a limit per level ({@link #shown}) with a line per level telling
 * how many were left out, then one line of statistics.
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
    WitnessRenderer renderer = new WitnessRenderer(report.history());
    for (LevelVerdicts.Line line : report.verdicts().lines()) {
      out.println(verdictLine(line, renderer));
    }
    if (report.ladder()) {
      out.println(report.ladderLine());
    }
    Shown shown = shown(report, limit);
    for (int i = 0; i < shown.blocks().size(); i++) {
      Block b = shown.blocks().get(i);
      out.println();
      out.println(violationHeader(b, i, shown.distinct()));
      for (String line : Findings.of(report.history(), b.violation(), renderer).lines()) {
        out.println("  " + line);
      }
    }
    if (!shown.notShown().isEmpty()) {
      out.println();
      shown.notShown().forEach(out::println);
    }
    out.println();
    out.println(statsLine());
  }

  /**
   * One violation as the report prints it, once however many checked levels found it.
   *
   * @param violation the violation (the first level's copy; the others are equal)
   * @param levels the labels of the checked levels that found it, in the order checked
   */
  public record Block(Violation violation, List<String> levels) {
    /** Copies the list. */
    public Block {
      levels = List.copyOf(levels);
    }
  }

  /**
   * What the report shows of the violations.
   *
   * @param blocks the violations printed, each once, in the order their first level found them
   * @param distinct how many distinct violations all the levels found together
   * @param notShown one {@link #notShownLine} per level some of whose violations are not printed
   */
  public record Shown(List<Block> blocks, int distinct, List<String> notShown) {}

  /**
   * Groups the violations of every level: violations of several levels with the same anomaly and
   * the same witness (the same transactions, operations and edges) are one, printed once with the
   * levels that found it. A violation is printed when it is among the first {@code limit} of some
   * level; a level's violations not printed under any level are counted in a line of their own.
   *
   * @param report the check's outcome
   * @param limit the most violations printed per level ({@link Integer#MAX_VALUE} for all)
   */
  public static Shown shown(CheckReport report, int limit) {
    Map<List<Object>, Violation> first = new LinkedHashMap<>();
    Map<List<Object>, List<String>> levels = new LinkedHashMap<>();
    for (CheckReport.LevelOutcome o : report.levels()) {
      for (Violation v : o.result().violations()) {
        List<Object> key = List.of(v.anomaly(), v.witness());
        first.putIfAbsent(key, v);
        List<String> found = levels.computeIfAbsent(key, k -> new ArrayList<>());
        if (!found.contains(o.label())) {
          found.add(o.label());
        }
      }
    }
    Set<List<Object>> printed = new LinkedHashSet<>();
    for (CheckReport.LevelOutcome o : report.levels()) {
      List<Violation> vs = o.result().violations();
      for (int i = 0; i < Math.min(limit, vs.size()); i++) {
        printed.add(List.of(vs.get(i).anomaly(), vs.get(i).witness()));
      }
    }
    List<String> notShown = new ArrayList<>();
    for (CheckReport.LevelOutcome o : report.levels()) {
      long more = o.result().violations().stream()
          .filter(v -> !printed.contains(List.of(v.anomaly(), v.witness()))).count();
      if (more > 0) {
        notShown.add(notShownLine((int) more, o.label()));
      }
    }
    List<Block> blocks = printed.stream().map(k -> new Block(first.get(k), levels.get(k))).toList();
    return new Shown(blocks, first.size(), notShown);
  }

  /**
   * @param index the block's place among the printed ones, from 0
   * @param distinct how many distinct violations there are
   * @return e.g. {@code [read-committed, read-atomic, causal] violation 1 of 3: thin-air-read
   *     (weakest level broken: read-committed)}
   */
  static String violationHeader(Block b, int index, int distinct) {
    Violation v = b.violation();
    return "[" + String.join(", ", b.levels()) + "] violation " + (index + 1) + " of " + distinct + ": "
        + v.anomaly().id() + " (weakest level broken: " + v.weakestLevelBroken().cliName() + ")";
  }

  /**
   * @return e.g. {@code ... 3 more violations at causal not shown; --all shows them}
   */
  static String notShownLine(int more, String level) {
    return "... " + more + " more " + plural(more, "violation") + " at " + level + " not shown; --all shows them";
  }

  /**
   * One check's line, as {@link LevelVerdicts} decides it: its own violations when it found some,
   * else the violation of another check that decides it, else its own verdict with the reason.
   *
   * @return e.g. {@code read-committed: CONSISTENT}, {@code causal: VIOLATED (3 violations)}, {@code
   *     serializable: VIOLATED because causal is: cycle T1 -> T2 -> T1 (2 edges, 1 inferred commit
   *     order)}, {@code read-committed: VIOLATED because read-committed (Adya PL-2) finds: T3 read x
   *     = [1, 2] from T2, which aborted} or {@code serializable: UNKNOWN (the version order of ...)}
   */
  static String verdictLine(LevelVerdicts.Line line, WitnessRenderer renderer) {
    String text = line.check().label() + ": " + line.verdict();
    LevelVerdicts.Cause cause = line.cause();
    if (cause != null) {
      Level weakest = cause.violation().weakestLevelBroken();
      text += weakest == line.check().level()
          ? " because " + cause.check().label() + " finds: "
          : " because " + weakest.cliName() + " is: ";
      text += renderer.summary(cause.violation());
    } else if (line.verdict() == Verdict.VIOLATED) {
      int n = line.result().violations().size();
      text += " (" + n + " " + plural(n, "violation") + ")";
    } else if (line.reason() != null) {
      text += " (" + line.reason() + ")";
    }
    return text;
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
      sb.append(", ").append(o.label()).append(implied(o)).append(' ').append(o.millis());
    }
    for (CheckReport.LevelOutcome o : report.supporting()) {
      sb.append(", ").append(o.label()).append(" (supporting)").append(implied(o)).append(' ').append(o.millis());
    }
    return sb.toString();
  }

  /** @return {@code " (implied by causal)"} for a check not run, else empty */
  private static String implied(CheckReport.LevelOutcome o) {
    return o.impliedBy() == null ? "" : " (implied by " + o.impliedBy().label() + ")";
  }

  private static String count(int n, String noun) {
    return grouped(n) + " " + plural(n, noun);
  }

  /**
   * @param n any number
   * @return its decimal digits with a comma between groups of three, {@code -1,234,567}: what
   *     {@code String.format(Locale.ROOT, "%,d", n)} gives, without the formatter's 12 ms of
   *     start-up (locale data), 4 % of a one-line check's whole run (docs/PERFORMANCE.md, "issue
   *     20, fifth part")
   */
  static String grouped(long n) {
    String s = Long.toString(n);
    int start = n < 0 ? 1 : 0;
    int digits = s.length() - start;
    if (digits <= 3) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length() + digits / 3);
    int first = start + (digits % 3 == 0 ? 3 : digits % 3);
    sb.append(s, 0, first);
    for (int i = first; i < s.length(); i += 3) {
      sb.append(',').append(s, i, i + 3);
    }
    return sb.toString();
  }

  private static String plural(int n, String noun) {
    return n == 1 ? noun : noun + "s";
  }
}
