package io.isowatch.enginesim.engine;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import java.util.random.RandomGenerator;

/**
 * A transactional key-value store that guarantees one isolation level by construction.
 *
 * <p>Keys are dense ints ({@code 0, 1, ...}). Each key holds two independent objects: a register
 * (read with {@link #read}, written with {@link #write}; a register never written reads as {@link
 * History#NIL}) and a list (read with {@link #readList}, extended with {@link #append}; a list never
 * appended to reads as the empty list). Workloads use a key one way or the other (rw-register or
 * list-append, Elle-style); conflicts are per object. Values and elements are {@code long}s, which
 * callers keep unique per key. Transactions are dense ints handed out by {@link #begin} in begin
 * order, starting at 0. A transaction is active from {@link #begin} until {@link #commit} or {@link
 * #abort}; calling an operation on a transaction that is not active throws {@link
 * IllegalStateException}.
 *
 * <p>Engines never block: where a real database would make a transaction wait for a lock, {@link
 * #begin} answers {@link #WAIT} and the caller tries again later (the serial engine does this while
 * another transaction is active); where a real database would abort on a conflict, {@link #commit}
 * answers {@link TxnStatus#ABORTED} (a conflicting operation may doom the transaction earlier, but
 * the answer is only given at commit, so every call before it proceeds normally). Engines are
 * deterministic (the same calls give the same answers) and not thread-safe: the simulator interleaves
 * sessions on one thread.
 *
 * <p>Some engines have asynchronous work that a scheduler drives: the replicated stores deliver each
 * committed transaction to the other replicas later, and an engine with {@link
 * Fault#FRACTURED_VISIBILITY} installs a committed transaction's writes one key at a time. {@link
 * #pendingDeliveries()} says how much such work is outstanding and {@link #deliver} performs one step
 * of it; a scheduler interleaves delivery steps with the sessions' operations as its seed decides.
 * Engines without asynchronous work answer 0 and {@code false}.
 */
public interface IsolationEngine {
  /** Returned by {@link #begin} when the session must wait and try again later. */
  int WAIT = -1;

  /** @return the level every history of this engine satisfies (when no {@link Fault} is switched on) */
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
   * version the level makes visible.
   *
   * @return the value read, {@link History#NIL} for the key's initial value
   * @throws IllegalStateException if the transaction is not active
   */
  long read(int txn, int key);

  /**
   * Writes a register. The write is buffered in the transaction and becomes visible to others when
   * it commits (read uncommitted: at once, to readers of uncommitted data).
   *
   * @throws IllegalStateException if the transaction is not active
   */
  void write(int txn, int key, long value);

  /**
   * Reads a list: the version the level makes visible, followed by the transaction's own appends to
   * the key in the order it made them.
   *
   * @return the elements, oldest first; empty for the initial value; a new array the caller owns
   * @throws IllegalStateException if the transaction is not active
   */
  long[] readList(int txn, int key);

  /**
   * Appends an element to a list: a read-modify-write of the key's list, buffered like a register
   * write. Two concurrent appends to one key are a write-write conflict wherever the level forbids
   * lost updates (snapshot isolation, serializable: first committer wins); each engine documents
   * which list its commit installs.
   *
   * @param element unique per key across the whole history
   * @throws IllegalStateException if the transaction is not active
   */
  void append(int txn, int key, long element);

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

  /**
   * @return how many asynchronous steps ({@link #deliver}) are outstanding, {@code >= 0}: for a
   *     replicated store, the (transaction, replica) pairs not yet applied; for fractured visibility,
   *     the keys not yet installed. 0 for engines that do everything synchronously.
   */
  default int pendingDeliveries() {
    return 0;
  }

  /**
   * Performs one asynchronous step, if any is pending: the engine picks which one with {@code rnd}
   * (a replicated store: one pending (transaction, replica) pair, among those its delivery order
   * allows) and applies it. Draws nothing from {@code rnd} when nothing is pending.
   *
   * @param rnd the scheduler's seeded generator, so that the seed decides delivery order as well
   * @return whether a step was performed ({@code false} exactly when {@link #pendingDeliveries()} is
   *     0)
   */
  default boolean deliver(RandomGenerator rnd) {
    return false;
  }
}
