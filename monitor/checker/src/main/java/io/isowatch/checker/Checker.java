package io.isowatch.checker;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.CheckResult;

/**
 * One consistency checker: decides whether a whole history satisfies one level and returns every
 * violation with its witness. Implementations cite their paper, section and complexity.
 */
public interface Checker {
  /** @return the level this checker decides */
  Level level();

  /**
   * Checks a history. Transactions still open are ignored; reads of unknown-status transactions are
   * not checked (their writes count).
   *
   * @param history the history; not modified
   * @return the verdict with every violation found
   */
  CheckResult check(History history);
}
