package io.isowatch.enginesim.run;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.enginesim.engine.IsolationEngine;
import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

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
  /** Per operation, the list a list read returned, null for other operations. */
  private final List<long[]> lists = new ArrayList<>();
  private final Consumer<SimTransaction> listener;

  /**
   * @param engine the engine all sessions share
   * @param history where ended transactions are recorded, shared by all clients of the engine
   * @param sessionName this session's name in the history
   */
  public Client(IsolationEngine engine, History history, String sessionName) {
    this(engine, history, sessionName, t -> {});
  }

  /**
   * @param engine the engine all sessions share
   * @param history where ended transactions are recorded, shared by all clients of the engine
   * @param sessionName this session's name in the history
   * @param listener receives each transaction of this session when it ends, after it is in {@code
   *     history}
   */
  public Client(IsolationEngine engine, History history, String sessionName, Consumer<SimTransaction> listener) {
    this.engine = engine;
    this.history = history;
    this.session = history.session(sessionName);
    this.listener = listener;
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
   * @return the list read, oldest element first, empty for the initial list; a new array
   * @throws IllegalStateException if no transaction is open
   */
  public long[] readList(String key) {
    int k = history.key(key);
    long[] l = engine.readList(requireTxn(), k);
    record(OpKind.READ_LIST, k, 0);
    lists.set(lists.size() - 1, l.clone());
    return l;
  }

  /**
   * @param element the element to append to the key's list, unique for the key across the history
   * @throws IllegalStateException if no transaction is open
   */
  public void append(String key, long element) {
    int k = history.key(key);
    engine.append(requireTxn(), k, element);
    record(OpKind.APPEND, k, element);
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
    lists.add(null);
  }

  private void finish(TxnStatus status) {
    history.beginTxn(session, txn + 1L);
    List<SimOp> ops = new ArrayList<>(kinds.size());
    for (int i = 0; i < kinds.size(); i++) {
      int k = keys.getInt(i);
      long v = values.getLong(i);
      String key = history.keyName(k);
      switch (kinds.getByte(i)) {
        case OpKind.READ:
          history.read(k, v);
          ops.add(new SimOp(SimOp.Kind.READ, key, v == History.NIL ? null : v, List.of()));
          break;
        case OpKind.WRITE:
          history.write(k, v);
          ops.add(new SimOp(SimOp.Kind.WRITE, key, v, List.of()));
          break;
        case OpKind.APPEND:
          history.append(k, v);
          ops.add(new SimOp(SimOp.Kind.APPEND, key, v, List.of()));
          break;
        default:
          long[] l = lists.get(i);
          history.readList(k, l, 0, l.length);
          ops.add(new SimOp(SimOp.Kind.READ_LIST, key, null, LongArrayList.wrap(l)));
      }
    }
    history.end(status);
    long label = txn + 1L;
    kinds.clear();
    keys.clear();
    values.clear();
    lists.clear();
    txn = IsolationEngine.WAIT;
    listener.accept(new SimTransaction(history.sessionName(session), label, status, ops));
  }

  private int requireTxn() {
    if (!inTxn()) {
      throw new IllegalStateException("session " + history.sessionName(session) + " has no open transaction");
    }
    return txn;
  }
}
