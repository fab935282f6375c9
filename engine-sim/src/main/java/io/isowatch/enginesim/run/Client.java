package io.isowatch.enginesim.run;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.enginesim.engine.IsolationEngine;
import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * One session's connection to an engine: forwards each call and records what it saw. The history
 * gets a transaction when it ends (the {@link History} is append-only, one whole transaction at a
 * time), labelled {@code T<engine transaction id + 1>}, so transactions appear in the history in the
 * order they ended and carry their begin order in the label.
 *
 * <p>Keys are named by strings and interned in the shared history; the engine sees the history's key
 * ids. Several clients share one engine and one history; none is thread-safe.
 */
public final class Client {
  private final IsolationEngine engine;
  private final History history;
  private final int session;

  private int txn = IsolationEngine.WAIT;
  private final ByteArrayList kinds = new ByteArrayList();
  private final IntArrayList keys = new IntArrayList();
  private final LongArrayList values = new LongArrayList();

  /**
   * @param engine the engine all sessions share
   * @param history where ended transactions are recorded, shared by all clients of the engine
   * @param sessionName this session's name in the history
   */
  public Client(IsolationEngine engine, History history, String sessionName) {
    this.engine = engine;
    this.history = history;
    this.session = history.session(sessionName);
  }

  /**
   * Asks the engine to start a transaction.
   *
   * @return {@code true} if it started, {@code false} if the engine made the session wait
   * @throws IllegalStateException if this session's transaction is still open
   */
  public boolean begin() {
    if (inTxn()) {
      throw new IllegalStateException("session " + history.sessionName(session) + " already has an open transaction");
    }
    txn = engine.begin(session);
    return inTxn();
  }

  /** @return whether a transaction of this session is open */
  public boolean inTxn() {
    return txn != IsolationEngine.WAIT;
  }

  /**
   * @return the value read, {@link History#NIL} for the key's initial value
   * @throws IllegalStateException if no transaction is open
   */
  public long read(String key) {
    int k = history.key(key);
    long v = engine.read(requireTxn(), k);
    record(OpKind.READ, k, v);
    return v;
  }

  /**
   * @param value the value to write, unique for the key across the whole history
   * @throws IllegalStateException if no transaction is open
   */
  public void write(String key, long value) {
    int k = history.key(key);
    engine.write(requireTxn(), k, value);
    record(OpKind.WRITE, k, value);
  }

  /**
   * Asks the engine to commit and records the transaction with the outcome.
   *
   * @return the outcome: {@link TxnStatus#COMMITTED} or {@link TxnStatus#ABORTED}
   * @throws IllegalStateException if no transaction is open
   */
  public TxnStatus commit() {
    TxnStatus status = engine.commit(requireTxn());
    finish(status);
    return status;
  }

  /**
   * Aborts and records the transaction as aborted.
   *
   * @throws IllegalStateException if no transaction is open
   */
  public void abort() {
    engine.abort(requireTxn());
    finish(TxnStatus.ABORTED);
  }

  private void record(byte kind, int key, long value) {
    kinds.add(kind);
    keys.add(key);
    values.add(value);
  }

  private void finish(TxnStatus status) {
    history.beginTxn(session, txn + 1L);
    for (int i = 0; i < kinds.size(); i++) {
      if (kinds.getByte(i) == OpKind.READ) {
        history.read(keys.getInt(i), values.getLong(i));
      } else {
        history.write(keys.getInt(i), values.getLong(i));
      }
    }
    history.end(status);
    kinds.clear();
    keys.clear();
    values.clear();
    txn = IsolationEngine.WAIT;
  }

  private int requireTxn() {
    if (!inTxn()) {
      throw new IllegalStateException("session " + history.sessionName(session) + " has no open transaction");
    }
    return txn;
  }
}
