package io.isowatch.connectors.probe;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import java.util.List;

/**
 * A {@link TransactionSink} that appends every transaction to a checker {@link History}, so that a
 * probe run can be checked offline ({@link io.isowatch.checker.Checkers}) or written as a history
 * file ({@link io.isowatch.checker.format.HistoryFiles#write}).
 *
 * <p>Mapping ({@code docs/history-format.md}): sessions by {@code sessionId}; transactions labelled
 * 1, 2, 3, ... in arrival order, which keeps each session's order ({@code so}) because a session
 * delivers its transactions one after another; {@code READ} with a list value becomes a list read,
 * with a long a register read, with null a register read of the initial value ({@link
 * History#NIL}); {@code WRITE} and {@code APPEND} map one to one. Thread-safe: deliveries are
 * serialised.
 */
public final class HistoryCollector implements TransactionSink {
  private final History history = new History();
  private long nextLabel = 1;

  /**
   * @throws IllegalArgumentException if the transaction writes a value already written to its key
   *     (values must be unique per key), or is still open
   */
  @Override
  public synchronized void accept(Transaction txn) {
    int session = history.session(txn.getSessionId());
    history.beginTxn(session, nextLabel++);
    for (Operation op : txn.getOps()) {
      int key = history.key(op.getKey());
      Object v = op.getValue();
      switch (op.getKind()) {
        case READ:
          if (v instanceof List<?> list) {
            long[] elements = new long[list.size()];
            for (int i = 0; i < elements.length; i++) {
              elements[i] = (Long) list.get(i);
            }
            history.readList(key, elements, 0, elements.length);
          } else {
            history.read(key, v == null ? History.NIL : (Long) v);
          }
          break;
        case WRITE:
          history.write(key, (Long) v);
          break;
        case APPEND:
          history.append(key, (Long) v);
          break;
        default:
          throw new IllegalArgumentException("unknown operation kind " + op.getKind());
      }
    }
    history.end(status(txn.getStatus()));
  }

  /**
   * @return the history collected so far; read it only after the probe run has returned (it is not
   *     safe to read while sessions still deliver)
   */
  public synchronized History history() {
    return history;
  }

  private static TxnStatus status(io.isowatch.schemas.TxnStatus s) {
    switch (s) {
      case COMMITTED:
        return TxnStatus.COMMITTED;
      case ABORTED:
        return TxnStatus.ABORTED;
      default:
        return TxnStatus.UNKNOWN;
    }
  }
}
