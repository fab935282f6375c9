package io.isowatch.checker.adya;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;

/**
 * The transactions an analysis looks at: those of {@code history} numbered below {@code limit},
 * except a transaction still open. The incremental checker grows the limit as it accepts
 * transactions; the batch checker takes all of them.
 *
 * @param history the shared append-only history
 * @param limit transactions {@code 0..limit-1} are in scope
 */
record Scope(History history, int limit) {
  /** @return whether {@code t} is in scope (below the limit and ended) */
  boolean contains(int t) {
    return t < limit && t != history.openTxn();
  }

  /** @return whether {@code t} is in scope and committed: its reads are checked */
  boolean committed(int t) {
    return contains(t) && history.committed(t);
  }

  /**
   * @return whether {@code t} is in scope and not aborted: it is a node of the dependency graph
   *     (committed, or of unknown outcome whose writes may have been observed)
   */
  boolean inGraph(int t) {
    return contains(t) && history.status(t) != TxnStatus.ABORTED;
  }
}
