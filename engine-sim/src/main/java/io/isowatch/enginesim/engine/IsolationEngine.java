package io.isowatch.enginesim.engine;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;

/**
 * A transactional key-value store of registers that guarantees one isolation level by construction.
 *
 * <p>Keys are dense ints ({@code 0, 1, ...}; a key never written reads as {@link History#NIL});
 * values are {@code long}s, which callers keep unique per key. Transactions are dense ints handed
 * out by {@link #begin} in begin order, starting at 0. A transaction is active from {@link #begin}
 * until {@link #commit} or {@link #abort}; calling an operation on a transaction that is not active
 * throws {@link IllegalStateException}.
 *
 * <p>Engines never block: where a real database would make a transaction wait for a lock, {@link
 * #begin} answers {@link #WAIT} and the caller tries again later (the serial engine does this while
 * another transaction is active); where a real database would abort on a conflict, {@link #commit}
 * answers {@link TxnStatus#ABORTED}. Engines are deterministic (the same calls give the same
 * answers) and not thread-safe: the simulator interleaves sessions on one thread.
 */
public interface IsolationEngine {
  /** Returned by {@link #begin} when the session must wait and try again later. */
  int WAIT = -1;

  /** @return the level every history of this engine satisfies */
  Level level();

  /**
   * Starts a transaction.
   *
   * @param session the session that runs it, a dense int {@code >= 0}; one session runs at most one
   *     transaction at a time (the caller's duty)
   * @return the new transaction's id ({@code >= 0}), or {@link #WAIT}
   */
  int begin(int session);

  /**
   * Reads a register: the transaction's own last write of the key if it wrote it, otherwise the
   * committed version the level makes visible.
   *
   * @return the value read, {@link History#NIL} for the key's initial value
   * @throws IllegalStateException if the transaction is not active
   */
  long read(int txn, int key);

  /**
   * Writes a register. The write is buffered in the transaction and becomes visible to others, at
   * once with the transaction's other writes, when it commits.
   *
   * @throws IllegalStateException if the transaction is not active
   */
  void write(int txn, int key, long value);

  /**
   * Tries to commit.
   *
   * @return {@link TxnStatus#COMMITTED}, or {@link TxnStatus#ABORTED} when the engine refuses the
   *     commit (its writes are then discarded)
   * @throws IllegalStateException if the transaction is not active
   */
  TxnStatus commit(int txn);

  /**
   * Aborts: discards the transaction's writes.
   *
   * @throws IllegalStateException if the transaction is not active
   */
  void abort(int txn);
}
