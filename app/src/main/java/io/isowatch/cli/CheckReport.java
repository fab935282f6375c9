package io.isowatch.cli;

import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import java.nio.file.Path;
import java.util.List;

/**
 * The outcome of {@code isowatch check} on one file: the history, and per requested level its
 * result and how long the check took.
 *
 * @param file the file read
 * @param format its format (given or detected)
 * @param history the history loaded, for rendering witnesses
 * @param loadMillis wall-clock milliseconds spent reading and parsing the file
 * @param levels one outcome per check run, in the order asked (read committed may have two: the
 *     axiomatic one and Adya's PL-2)
 * @param ladder whether to report the ladder (strongest level satisfied, weakest broken)
 */
public record CheckReport(
    Path file, HistoryFormat format, History history, long loadMillis, List<LevelOutcome> levels,
    boolean ladder) {
  /**
   * One level's outcome.
   *
   * @param model the vocabulary of the check: {@code axiomatic} or {@code adya}
   * @param label how reports name the level, e.g. {@code read-committed (Adya PL-2)}
   * @param result the checker's verdict and violations
   * @param millis wall-clock milliseconds the check took
   */
  public record LevelOutcome(String model, String label, CheckResult result, long millis) {}

  /** Copies the list. */
  public CheckReport {
    levels = List.copyOf(levels);
  }

  /**
   * @return {@link ExitCode#VIOLATION} when some level is violated, else {@link ExitCode#UNKNOWN}
   *     when some verdict is unknown, else {@link ExitCode#CONSISTENT}
   */
  public int exitCode() {
    int code = ExitCode.CONSISTENT;
    for (LevelOutcome o : levels) {
      if (o.result().verdict() == Verdict.VIOLATED) {
        return ExitCode.VIOLATION;
      }
      if (o.result().verdict() == Verdict.UNKNOWN) {
        code = ExitCode.UNKNOWN;
      }
    }
    return code;
  }
}
