package io.isowatch.enginesim.engine;

import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.ints.Int2LongLinkedOpenHashMap;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;

/**
 * What every engine over an {@link MvccStore} shares: transaction ids, per-transaction write
 * buffers (writes are invisible to other transactions until commit, and a transaction reads its own
 * last write), and commit as one atomic install.
 *
 * <p>A level is a subclass that answers two questions: may a session start a transaction now
 * ({@link #admits}), and which committed version does a read see ({@link #readVisible}). Memory: one
 * buffer per active transaction, dropped when it ends.
 */
public abstract class MvccEngine implements IsolationEngine {
  /** The committed versions. */
  protected final MvccStore store = new MvccStore();

  /** Write buffer per transaction id; {@code null} once the transaction ended. */
  private final ObjectArrayList<Int2LongLinkedOpenHashMap> buffers = new ObjectArrayList<>();
  private int active;

  @Override
  public final int begin(int session) {
    if (!admits(session)) {
      return WAIT;
    }
    buffers.add(new Int2LongLinkedOpenHashMap());
    active++;
    return buffers.size() - 1;
  }

  @Override
  public final long read(int txn, int key) {
    Int2LongLinkedOpenHashMap own = buffer(txn);
    return own.containsKey(key) ? own.get(key) : readVisible(txn, key);
  }

  @Override
  public final void write(int txn, int key, long value) {
    buffer(txn).put(key, value);
  }

  /** Not yet: list objects come with the level-keyed engine. */
  @Override
  public long[] readList(int txn, int key) {
    throw new UnsupportedOperationException("lists not yet supported");
  }

  /** Not yet: list objects come with the level-keyed engine. */
  @Override
  public void append(int txn, int key, long element) {
    throw new UnsupportedOperationException("lists not yet supported");
  }

  @Override
  public TxnStatus commit(int txn) {
    store.install(buffer(txn));
    end(txn);
    return TxnStatus.COMMITTED;
  }

  @Override
  public final void abort(int txn) {
    buffer(txn);
    end(txn);
  }

  /** @return the committed versions of {@code key}, oldest first (the version order) */
  public final long[] versions(int key) {
    return store.versions(key);
  }

  /** @return the number of transactions begun and not yet ended */
  protected final int activeCount() {
    return active;
  }

  /**
   * @param session the session asking to begin
   * @return whether it may start a transaction now; otherwise {@link #begin} answers {@link #WAIT}
   */
  protected abstract boolean admits(int session);

  /**
   * @param txn an active transaction that has not written {@code key}
   * @return the committed value the level lets it see, {@link io.isowatch.checker.history.History#NIL}
   *     for the initial value
   */
  protected abstract long readVisible(int txn, int key);

  private Int2LongLinkedOpenHashMap buffer(int txn) {
    Int2LongLinkedOpenHashMap b = txn >= 0 && txn < buffers.size() ? buffers.get(txn) : null;
    if (b == null) {
      throw new IllegalStateException("transaction " + txn + " is not active");
    }
    return b;
  }

  private void end(int txn) {
    buffers.set(txn, null);
    active--;
  }
}
