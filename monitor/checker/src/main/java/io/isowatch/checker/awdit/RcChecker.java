package io.isowatch.checker.awdit;

import io.isowatch.checker.level.Level;

/**
 * Checks read committed by AWDIT's saturation (Møldrup &amp; Pavlogiannis, PLDI 2025); see {@link
 * AwditChecker} and {@link Saturation} for the algorithm, sources and complexity.
 */
public final class RcChecker extends AwditChecker {
  /** Creates the checker; it keeps no state between histories. */
  public RcChecker() {
    super(Level.READ_COMMITTED);
  }
}
