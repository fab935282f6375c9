package io.isowatch.checker.witness;

import io.isowatch.checker.level.Level;

/**
 * Why an edge holds: the observation (for {@code so}, {@code wr}, {@code ww}, {@code rw}) or the
 * premise of the axiom that forced an inferred commit-order edge (AWDIT, PLDI 2025, §2, after
 * Biswas &amp; Enea, OOPSLA 2019). Each premise carries the weakest level whose axiom uses it.
 */
public enum Because {
  /** {@code so}: the source precedes the target in their session. */
  SESSION_ORDER(Level.READ_UNCOMMITTED),
  /** {@code wr}: the target read the source's write. */
  READS_FROM(Level.READ_UNCOMMITTED),
  /** {@code ww}: the version order puts the target's write right after the source's. */
  VERSION_ORDER(Level.READ_UNCOMMITTED),
  /** {@code rw}: the source read the version the target's write replaced. */
  ANTI_DEPENDENCY(Level.READ_UNCOMMITTED),
  /**
   * {@code co}, read committed: the reader read from the source earlier in program order, then read
   * the key (which the source also writes) from the target.
   */
  READ_EARLIER(Level.READ_COMMITTED),
  /** {@code co}, read atomic: the source precedes the reader in its session and writes the key. */
  SESSION_PREDECESSOR(Level.READ_ATOMIC),
  /** {@code co}, read atomic: the reader read from the source, which also writes the key. */
  READ_FROM_WRITER(Level.READ_ATOMIC),
  /** {@code co}, causal: the source is in the reader's causal past ({@code (so ∪ wr)+}) and writes the key. */
  CAUSAL_PAST(Level.CAUSAL),
  /**
   * {@code ww} or {@code rw} in a {@link Witness.Case}: the case's assumed order of two writers of the
   * key; for {@code rw}, the source read the version of {@link Edge#via()}, whose write the case puts
   * before the target's.
   */
  CHOSEN_ORDER(Level.READ_UNCOMMITTED);

  private final Level level;

  Because(Level level) {
    this.level = level;
  }

  /** @return the weakest level whose axiom justifies an edge for this reason */
  public Level level() {
    return level;
  }
}
