package io.isowatch.cli;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.LevelVerdicts;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.history.History;
import io.isowatch.checker.witness.CheckResult;
import java.nio.file.Path;
import java.util.List;

/**
 * The outcome of {@code isowatch check} on one file: the history, per check its result and how long
 * it took, and the one verdict per level read off them ({@link #verdicts()}).
 *
 * @param file the file read
 * @param format its format (given or detected)
 * @param history the history loaded, for rendering witnesses
 * @param loadMillis wall-clock milliseconds spent reading and parsing the file
 * @param levels one outcome per check run, in the order asked (read committed may have two: the
 *     axiomatic one and Adya's PL-2)
 * @param supporting one outcome per check of a level weaker than the strongest asked but not asked
 *     ({@link LevelVerdicts#supporting}), run only so that its violations count against the levels
 *     asked; not reported
 * @param ladder whether to report the ladder (strongest level satisfied, weakest broken)
 * @param sessionOrder whether Adya's graph had session order ({@link LevelVerdicts#of})
 */
public record CheckReport(
    Path file, HistoryFormat format, History history, long loadMillis, List<LevelOutcome> levels,
    List<LevelOutcome> supporting, boolean ladder, boolean sessionOrder) {
  /**
   * One check's outcome.
   *
   * @param check the check: a level in one vocabulary
   * @param result the checker's verdict and violations
   * @param millis wall-clock milliseconds the check took; 0 when it was implied
   * @param impliedBy when the check was not run because a stronger axiomatic check found the history
   *     consistent ({@link io.isowatch.checker.CheckSchedule}), that check; else null
   */
  public record LevelOutcome(LevelPlan.Check check, CheckResult result, long millis, LevelPlan.Check impliedBy) {
    /** @return the vocabulary of the check: {@code axiomatic} or {@code adya} */
    public String model() {
      return check.model().id();
    }

    /** @return how reports name the check, e.g. {@code read-committed (Adya PL-2)} */
    public String label() {
      return check.label();
    }
  }

  /** Copies the lists. */
  public CheckReport {
    levels = List.copyOf(levels);
    supporting = List.copyOf(supporting);
  }

  /** @return the one verdict per level asked, and each check's report line, read off the outcomes */
  public LevelVerdicts verdicts() {
    return LevelVerdicts.of(levels.stream().map(LevelOutcome::check).toList(),
        levels.stream().map(LevelOutcome::result).toList(),
        supporting.stream().map(LevelOutcome::check).toList(),
        supporting.stream().map(LevelOutcome::result).toList(), sessionOrder);
  }

  /**
   * @return {@link ExitCode#VIOLATION} when some level is violated, else {@link ExitCode#UNKNOWN}
   *     when some level is unknown, else {@link ExitCode#CONSISTENT}
   */
  public int exitCode() {
    LevelVerdicts v = verdicts();
    return v.anyViolated() ? ExitCode.VIOLATION : v.anyUnknown() ? ExitCode.UNKNOWN : ExitCode.CONSISTENT;
  }

  /**
   * @return e.g. {@code ladder: strongest level satisfied: causal; weakest level broken:
   *     snapshot-isolation}, from {@link #verdicts()}
   */
  public String ladderLine() {
    LevelVerdicts v = verdicts();
    return "ladder: strongest level satisfied: "
        + (v.strongestSatisfied() == null ? "none" : v.strongestSatisfied().cliName())
        + "; weakest level broken: " + (v.weakestBroken() == null ? "none" : v.weakestBroken().cliName());
  }
}
