package io.isowatch.checker;

import io.isowatch.checker.awdit.CcChecker;
import io.isowatch.checker.awdit.RaChecker;
import io.isowatch.checker.awdit.RcChecker;
import io.isowatch.checker.level.Level;

/** The facade: the checker that decides a level. */
public final class Checkers {
  private Checkers() {}

  /**
   * @param level the level to decide
   * @return a new checker for it: AWDIT's saturation for read committed, read atomic and causal
   *     consistency
   * @throws IllegalArgumentException for a level no checker decides yet
   */
  public static Checker forLevel(Level level) {
    switch (level) {
      case READ_COMMITTED:
        return new RcChecker();
      case READ_ATOMIC:
        return new RaChecker();
      case CAUSAL:
        return new CcChecker();
      default:
        throw new IllegalArgumentException(
            "no checker for " + level + " yet; supported: read-committed, read-atomic, causal");
    }
  }
}
