package io.isowatch.enginesim.engine;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Drives an engine by hand in tests and records what each transaction saw into a {@link History}
 * (registers and lists), labelled {@code T<engine id + 1>}, a transaction recorded when it ends.
 * Sessions are numbered by the order of first use of their names; the engine sees those numbers.
 */
public final class Recorder {
  private final IsolationEngine engine;
  private final History history = new History();

  /** @param engine a fresh engine */
  public Recorder(IsolationEngine engine) {
    this.engine = engine;
  }

  /** @return the history of the transactions ended so far */
  public History history() {
    return history;
  }

  /**
   * @return the session's new transaction
   * @throws IllegalStateException if the engine makes the session wait
   */
  public Tx begin(String session) {
    int s = history.session(session);
    int id = engine.begin(s);
    if (id == IsolationEngine.WAIT) {
      throw new IllegalStateException("session " + session + " must wait");
    }
    return new Tx(s, id);
  }

  /** One open transaction. */
  public final class Tx {
    private final int session;
    /** The engine's transaction id. */
    public final int id;
    private final List<Consumer<History>> ops = new ArrayList<>();

    private Tx(int session, int id) {
      this.session = session;
      this.id = id;
    }

    /** @return the register value read, {@link History#NIL} for the initial value */
    public long read(String key) {
      int k = history.key(key);
      long v = engine.read(id, k);
      ops.add(h -> h.read(k, v));
      return v;
    }

    public void write(String key, long value) {
      int k = history.key(key);
      engine.write(id, k, value);
      ops.add(h -> h.write(k, value));
    }

    /** @return the list read */
    public long[] readList(String key) {
      int k = history.key(key);
      long[] v = engine.readList(id, k);
      ops.add(h -> h.readList(k, v, 0, v.length));
      return v;
    }

    public void append(String key, long element) {
      int k = history.key(key);
      engine.append(id, k, element);
      ops.add(h -> h.append(k, element));
    }

    /** @return the engine's answer */
    public TxnStatus commit() {
      TxnStatus s = engine.commit(id);
      record(s);
      return s;
    }

    public void abort() {
      engine.abort(id);
      record(TxnStatus.ABORTED);
    }

    private void record(TxnStatus status) {
      history.beginTxn(session, id + 1L);
      ops.forEach(op -> op.accept(history));
      history.end(status);
    }
  }
}
