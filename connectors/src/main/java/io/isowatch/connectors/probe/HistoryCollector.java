package io.isowatch.connectors.probe;

import io.isowatch.checker.history.History;
import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.mapping.TransactionMapping;

/**
 * A {@link TransactionSink} that appends every transaction to a checker {@link History}, so that a
 * probe run can be checked offline ({@link io.isowatch.checker.Checkers}) or written as a history
 * file ({@link io.isowatch.checker.format.HistoryFiles#write}).
 *
 * <p>Mapping ({@code docs/history-format.md}, {@link TransactionMapping#addToHistory}): sessions by
 * {@code sessionId}; transactions labelled 1, 2, 3, ... in arrival order, which keeps each session's
 * order ({@code so}) because a session delivers its transactions one after another; {@code READ}
 * with a list value becomes a list read, with a long a register read, with null a register read of
 * the initial value ({@link History#NIL}); {@code WRITE} and {@code APPEND} map one to one.
 * Thread-safe: deliveries are serialised.
 */
public final class HistoryCollector implements TransactionSink {
  private final History history = new History();
  private long nextLabel = 1;

  /**
   * @throws IllegalArgumentException if the transaction writes a value already written to its key
   *     (values must be unique per key), or is still open; a {@link
   *     io.isowatch.checker.window.RejectedTransactionException} if an operation's value has the
   *     wrong shape for its kind
   */
  @Override
  public synchronized void accept(Transaction txn) {
    TransactionMapping.addToHistory(txn, nextLabel++, history);
  }

  /**
   * @return the history collected so far; read it only after the probe run has returned (it is not
   *     safe to read while sessions still deliver)
   */
  public synchronized History history() {
    return history;
  }
}
