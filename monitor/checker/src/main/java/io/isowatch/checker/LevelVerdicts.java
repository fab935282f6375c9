package io.isowatch.checker;

import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One verdict per level, read off the results of the checks {@link LevelPlan} ran: what the exit
 * code, the report lines, the ladder, {@code --json} and the HTML report of {@code isowatch check}
 * all read.
 *
 * <p>The rules, on the ladder RU ⊂ RC ⊂ RA ⊂ CC ⊂ SI ⊂ SER:
 *
 * <ul>
 *   <li>A level is {@link Verdict#VIOLATED} when some check, of that level or any other, found a
 *       violation whose weakest level broken ({@link Violation#weakestLevelBroken()}) is at most
 *       the level: a witness that breaks read committed breaks every stronger level too. So a
 *       violated level makes every stronger level checked violated.
 *   <li>Otherwise it is {@link Verdict#CONSISTENT} when some check of the level decided it and
 *       found nothing (a check that could not decide, such as Adya's on a register history whose
 *       reads leave the version order open, does not keep the polygraph's decision from counting),
 *       or when its checks could not decide but a stronger level checked is consistent (a history
 *       serializable with session order is snapshot isolated, causal, ...).
 *   <li>Otherwise it is {@link Verdict#UNKNOWN}, with the reason its checks gave.
 * </ul>
 *
 * <p>Without session order in Adya's graph ({@code --no-session-order}) the Adya levels are Adya's
 * plain ones, which do not contain read atomic or causal consistency (both are defined with session
 * order): a violation found by an axiomatic check then does not count against a level only Adya's
 * checks decide.
 *
 * <p>Each check also gets a report {@link Line}: its own violations when it found some; else, for
 * the level's primary check ({@link LevelPlan#primary}), the level's verdict with the violation that
 * decides it; for another check of the level (PL-2 beside axiomatic read committed), its own verdict
 * unless a strictly weaker level is violated, since the two readings of read committed may differ
 * ({@code docs/levels.md}).
 */
public final class LevelVerdicts {
  /**
   * The violation that makes a level violated when the level's own check found none.
   *
   * @param check the check that found it
   * @param violation the violation; its weakest level broken is at most the level
   */
  public record Cause(LevelPlan.Check check, Violation violation) {}

  /**
   * One level's verdict.
   *
   * @param level the level
   * @param verdict its verdict
   * @param cause for a violated level whose primary check found nothing, what violates it; else null
   * @param reason for an undecided or inferred verdict, one sentence saying why; else null
   */
  public record LevelVerdict(Level level, Verdict verdict, Cause cause, String reason) {}

  /**
   * What the report says on a check's line.
   *
   * @param check the check
   * @param result what the check itself found
   * @param verdict the verdict printed on the line
   * @param cause when the check found nothing and the line is violated, the violation that decides it
   * @param reason for a line that is not violated: why it is unknown, or why it is consistent when
   *     its check could not decide; else null
   */
  public record Line(LevelPlan.Check check, CheckResult result, Verdict verdict, Cause cause, String reason) {}

  private final Map<Level, LevelVerdict> levels;
  private final List<Line> lines;

  private LevelVerdicts(Map<Level, LevelVerdict> levels, List<Line> lines) {
    this.levels = levels;
    this.lines = lines;
  }

  /**
   * @param checks the checks run, in order ({@link LevelPlan#checks})
   * @param results their results, index by index
   * @param sessionOrder whether Adya's graph had session order
   * @return the verdict of every level checked
   * @throws IllegalArgumentException if the lists differ in length
   */
  public static LevelVerdicts of(List<LevelPlan.Check> checks, List<CheckResult> results, boolean sessionOrder) {
    return of(checks, results, List.of(), List.of(), sessionOrder);
  }

  /**
   * The verdicts of the levels asked, counting the violations that checks of weaker levels not
   * asked found: a level is consistent only when no weaker level is violated, so {@code isowatch
   * check --level serializable} runs the weaker levels' checks too ({@link #supporting}) without
   * reporting their lines.
   *
   * @param checks the checks of the levels asked, in order ({@link LevelPlan#checks})
   * @param results their results, index by index
   * @param support checks of levels not asked, run only for their violations
   * @param supportResults their results, index by index
   * @param sessionOrder whether Adya's graph had session order
   * @return the verdict of every level asked, and a line per check of those levels
   * @throws IllegalArgumentException if a check and its results differ in number, or a supporting
   *     check is of a level asked
   */
  public static LevelVerdicts of(List<LevelPlan.Check> checks, List<CheckResult> results,
      List<LevelPlan.Check> support, List<CheckResult> supportResults, boolean sessionOrder) {
    if (checks.size() != results.size() || support.size() != supportResults.size()) {
      throw new IllegalArgumentException(checks.size() + " checks but " + results.size() + " results, "
          + support.size() + " supporting checks but " + supportResults.size() + " results");
    }
    for (LevelPlan.Check c : support) {
      if (checks.stream().anyMatch(asked -> asked.level() == c.level())) {
        throw new IllegalArgumentException("supporting check " + c + " is of a level asked");
      }
    }
    List<LevelPlan.Check> allChecks = new ArrayList<>(checks);
    allChecks.addAll(support);
    List<CheckResult> allResults = new ArrayList<>(results);
    allResults.addAll(supportResults);
    Map<Level, LevelVerdict> own = new EnumMap<>(Level.class);
    for (LevelPlan.Check c : checks) {
      own.computeIfAbsent(c.level(), l -> decide(l, allChecks, allResults, sessionOrder));
    }
    Map<Level, LevelVerdict> levels = new EnumMap<>(Level.class);
    for (LevelVerdict v : own.values()) {
      levels.put(v.level(), v.verdict() == Verdict.UNKNOWN ? fromStronger(v, own, sessionOrder) : v);
    }
    List<Line> lines = new ArrayList<>();
    for (int i = 0; i < checks.size(); i++) {
      LevelPlan.Check c = checks.get(i);
      CheckResult r = results.get(i);
      LevelVerdict level = levels.get(c.level());
      if (r.verdict() == Verdict.VIOLATED) {
        lines.add(new Line(c, r, Verdict.VIOLATED, null, null));
      } else if (isFirstOfLevel(checks, i)) {
        lines.add(new Line(c, r, level.verdict(), level.cause(), level.reason()));
      } else {
        Cause weaker = weakestCause(c.level(), false, allChecks, allResults, sessionOrder);
        lines.add(weaker != null ? new Line(c, r, Verdict.VIOLATED, weaker, null)
            : new Line(c, r, r.verdict(), null, r.reason()));
      }
    }
    return new LevelVerdicts(levels, List.copyOf(lines));
  }

  /**
   * The one rule of what a violation counts against, for {@code isowatch check} and for the
   * monitor, which publishes a violation for a history when it breaks the history's expected level
   * and counts it as stronger-level-only otherwise.
   *
   * @param weakestBroken a violation's weakest level broken ({@link Violation#weakestLevelBroken()})
   * @param level a level
   * @return whether the violation breaks {@code level}: it breaks its weakest level and every
   *     stronger one
   */
  public static boolean breaks(Level weakestBroken, Level level) {
    return level.atLeast(weakestBroken);
  }

  /**
   * @param asked the levels asked, in order
   * @param listAppend whether the history has list-append operations
   * @return the checks of the levels weaker than the strongest asked that were not asked, in ladder
   *     order ({@link LevelPlan#checks}): those {@link #of(List, List, List, List, boolean)} needs
   *     for a level's verdict to account for every weaker level
   */
  public static List<LevelPlan.Check> supporting(List<Level> asked, boolean listAppend) {
    Level strongest = asked.stream().max(Level::compareTo).orElse(Level.READ_UNCOMMITTED);
    List<Level> weaker = new ArrayList<>();
    for (Level l : Level.values()) {
      if (l.compareTo(strongest) < 0 && !asked.contains(l)) {
        weaker.add(l);
      }
    }
    return LevelPlan.checks(weaker, listAppend);
  }

  /** @return the verdict of {@code level} from its own checks and the violations found by all */
  private static LevelVerdict decide(Level level, List<LevelPlan.Check> checks, List<CheckResult> results,
      boolean sessionOrder) {
    boolean decided = false;
    String reason = null;
    for (int i = 0; i < checks.size(); i++) {
      if (checks.get(i).level() != level) {
        continue;
      }
      CheckResult r = results.get(i);
      if (r.verdict() == Verdict.VIOLATED && isFirstOfLevel(checks, i)) {
        return new LevelVerdict(level, Verdict.VIOLATED, null, null);
      }
      decided |= r.verdict() == Verdict.CONSISTENT;
      if (r.verdict() == Verdict.UNKNOWN && reason == null) {
        reason = r.reason();
      }
    }
    Cause cause = weakestCause(level, true, checks, results, sessionOrder);
    if (cause != null) {
      return new LevelVerdict(level, Verdict.VIOLATED, cause, null);
    }
    return decided ? new LevelVerdict(level, Verdict.CONSISTENT, null, null)
        : new LevelVerdict(level, Verdict.UNKNOWN, null, reason);
  }

  /**
   * @param sameLevel whether a violation whose weakest level broken is {@code level} itself counts
   *     (for the level's verdict) or only strictly weaker ones (for a secondary check's line)
   * @return the violation with the weakest level broken among those that break {@code level}, the
   *     first found on a tie; null if none
   */
  private static Cause weakestCause(Level level, boolean sameLevel, List<LevelPlan.Check> checks,
      List<CheckResult> results, boolean sessionOrder) {
    Cause best = null;
    for (int i = 0; i < checks.size(); i++) {
      LevelPlan.Check c = checks.get(i);
      if (!sessionOrder && c.model() == LevelPlan.Model.AXIOMATIC
          && !LevelPlan.decidedBy(LevelPlan.Model.AXIOMATIC).contains(level)) {
        continue;
      }
      for (Violation v : results.get(i).violations()) {
        Level w = v.weakestLevelBroken();
        boolean breaks = sameLevel ? breaks(w, level) : level.compareTo(w) > 0;
        if (breaks && (best == null || best.violation().weakestLevelBroken().compareTo(w) > 0)) {
          best = new Cause(c, v);
        }
      }
    }
    return best;
  }

  /** @return {@code unknown} made consistent by the weakest stronger level checked that is consistent, if any */
  private static LevelVerdict fromStronger(LevelVerdict unknown, Map<Level, LevelVerdict> own, boolean sessionOrder) {
    if (!sessionOrder) {
      return unknown;
    }
    for (LevelVerdict v : own.values()) {
      if (v.level().compareTo(unknown.level()) > 0 && v.verdict() == Verdict.CONSISTENT) {
        return new LevelVerdict(unknown.level(), Verdict.CONSISTENT, null,
            "because " + v.level().cliName() + " is, which implies it");
      }
    }
    return unknown;
  }

  /** @return whether check {@code i} is the first of its level in {@code checks} (the one naming the level) */
  private static boolean isFirstOfLevel(List<LevelPlan.Check> checks, int i) {
    for (int j = 0; j < i; j++) {
      if (checks.get(j).level() == checks.get(i).level()) {
        return false;
      }
    }
    return true;
  }

  /** @return the verdict of every level checked, weakest first */
  public List<LevelVerdict> levels() {
    return List.copyOf(levels.values());
  }

  /**
   * @return the verdict of {@code level}
   * @throws IllegalArgumentException if it was not checked
   */
  public LevelVerdict of(Level level) {
    LevelVerdict v = levels.get(level);
    if (v == null) {
      throw new IllegalArgumentException(level + " was not checked");
    }
    return v;
  }

  /** @return one line per check, in the order run */
  public List<Line> lines() {
    return lines;
  }

  /** @return whether some level is violated */
  public boolean anyViolated() {
    return levels.values().stream().anyMatch(v -> v.verdict() == Verdict.VIOLATED);
  }

  /** @return whether some level is unknown */
  public boolean anyUnknown() {
    return levels.values().stream().anyMatch(v -> v.verdict() == Verdict.UNKNOWN);
  }

  /**
   * @return the strongest level checked such that it and every weaker level checked are
   *     consistent, or null if the weakest level checked is not
   */
  public Level strongestSatisfied() {
    Level satisfied = null;
    for (LevelVerdict v : levels.values()) {
      if (v.verdict() != Verdict.CONSISTENT) {
        break;
      }
      satisfied = v.level();
    }
    return satisfied;
  }

  /** @return the weakest level checked that is violated, or null if none is */
  public Level weakestBroken() {
    for (LevelVerdict v : levels.values()) {
      if (v.verdict() == Verdict.VIOLATED) {
        return v.level();
      }
    }
    return null;
  }
}
