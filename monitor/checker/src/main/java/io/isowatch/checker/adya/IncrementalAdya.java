package io.isowatch.checker.adya;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Incremental form of {@link AdyaChecker} for the stream: transactions are accepted one at a time,
 * in the order they were appended to the shared history, and each call returns the violations that
 * are new, each reported once.
 *
 * <p>Each accept re-runs the analysis over the accepted transactions, so version orders grow as
 * longer reads arrive and the graph and its components follow; O(accepted transactions) per call,
 * O(n^2) over a stream of n, which the stream's sliding window bounds. A violation's identity is its
 * anomaly and, for a cycle, the set of its transactions, otherwise the operation it is about (the
 * first of its witness operations), so a cycle re-found through other edges, or an incompatible read
 * compared with a longer read later, is not reported again. Reads of elements nobody appended are
 * reported only by {@link #finish()}, since their appender may still arrive.
 */
public final class IncrementalAdya {
  private final History history;
  private final Level level;
  private final boolean sessionOrder;
  private final Set<Violation.Identity> reported = new HashSet<>();
  private int accepted;

  /**
   * @param history the shared history transactions are appended to; read, never written
   * @param level a level {@link LevelPlan#decidedBy} the Adya model
   * @param sessionOrder whether {@code so} edges are part of the graph
   * @throws IllegalArgumentException for another level
   */
  public IncrementalAdya(History history, Level level, boolean sessionOrder) {
    this.history = history;
    this.level = LevelPlan.requireDecided(LevelPlan.Model.ADYA, level);
    this.sessionOrder = sessionOrder;
  }

  /**
   * Accepts transaction {@code txn}, which must have ended in the history.
   *
   * @param txn the next transaction id: 0 first, then each following one
   * @return the violations found now that were not reported before, in the batch checker's order
   * @throws IllegalArgumentException if {@code txn} is not the next transaction
   * @throws IllegalStateException if it is still open
   */
  public List<Violation> accept(int txn) {
    if (txn != accepted || txn >= history.txnCount()) {
      throw new IllegalArgumentException("expected transaction " + accepted + " next, got " + txn);
    }
    if (txn == history.openTxn()) {
      throw new IllegalStateException("transaction T" + history.label(txn) + " is still open");
    }
    accepted++;
    return fresh(AdyaAnalysis.run(new Scope(history, accepted), level, sessionOrder, false).violations());
  }

  /**
   * Accepts every transaction from the next one up to {@code txn} at once and analyses once: how a
   * checker that starts late (the stream's window meets its first list-append operation) catches up
   * without one analysis per transaction.
   *
   * @param txn the last transaction to accept; every transaction up to it must have ended
   * @return the violations found now that were not reported before
   * @throws IllegalArgumentException if {@code txn} was accepted already or is not in the history
   * @throws IllegalStateException if one of them is still open
   */
  public List<Violation> acceptThrough(int txn) {
    if (txn < accepted || txn >= history.txnCount()) {
      throw new IllegalArgumentException("expected a transaction from " + accepted + " on, got " + txn);
    }
    int open = history.openTxn();
    if (open >= accepted && open <= txn) {
      throw new IllegalStateException("transaction T" + history.label(open) + " is still open");
    }
    accepted = txn + 1;
    return fresh(AdyaAnalysis.run(new Scope(history, accepted), level, sessionOrder, false).violations());
  }

  /**
   * Ends the stream: reports reads of elements that no accepted transaction appended.
   *
   * @return the violations not reported before
   */
  public List<Violation> finish() {
    return fresh(AdyaAnalysis.run(new Scope(history, accepted), level, sessionOrder, true).violations());
  }

  /** @return the number of transactions accepted */
  public int accepted() {
    return accepted;
  }

  private List<Violation> fresh(List<Violation> found) {
    List<Violation> out = new ArrayList<>();
    for (Violation v : found) {
      if (reported.add(v.identity())) {
        out.add(v);
      }
    }
    return out;
  }
}
