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
 * @param levels one outcome per requested level, in the order asked
 */
public record CheckReport(
    Path file, HistoryFormat format, History history, long loadMillis, List<LevelOutcome> levels) {
  /**
   * One level's outcome.
   *
   * @param result the checker's verdict and violations
   * @param millis wall-clock milliseconds the check took
   */
  public record LevelOutcome(CheckResult result, long millis) {}

  /** Copies the list. */
  public CheckReport {
    levels = List.copyOf(levels);
  }

  /**
   * @return {@link ExitCode#CONSISTENT} when every level is consistent, {@link ExitCode#VIOLATION}
   *     otherwise
   */
  public int exitCode() {
    for (LevelOutcome o : levels) {
      if (o.result().verdict() != Verdict.CONSISTENT) {
        return ExitCode.VIOLATION;
      }
    }
    return ExitCode.CONSISTENT;
  }
}
