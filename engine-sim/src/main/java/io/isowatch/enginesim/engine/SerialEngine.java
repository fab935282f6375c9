package io.isowatch.enginesim.engine;

import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import java.util.Set;

/**
 * Serializable by construction: transactions run one at a time. A session that asks to begin while
 * another transaction is active gets {@link IsolationEngine#WAIT}; every read sees the latest
 * committed version, which is the state after all earlier transactions, so the commit order is a
 * serial order that explains every read. Never aborts. A reference for the serializable rung that
 * needs no conflict detection: underneath is an {@link MvccEngine} at read committed, which with one
 * transaction at a time cannot show an anomaly.
 */
public final class SerialEngine implements IsolationEngine {
  private final MvccEngine engine = new MvccEngine(Level.READ_COMMITTED, Set.of());
  private int active;

  @Override
  public Level level() {
    return Level.SERIALIZABLE;
  }

  /** @return the new transaction's id, or {@link #WAIT} while another transaction is active */
  @Override
  public int begin(int session) {
    if (active > 0) {
      return WAIT;
    }
    active++;
    return engine.begin(session);
  }

  @Override
  public long read(int txn, int key) {
    return engine.read(txn, key);
  }

  @Override
  public void write(int txn, int key, long value) {
    engine.write(txn, key, value);
  }

  @Override
  public long[] readList(int txn, int key) {
    return engine.readList(txn, key);
  }

  @Override
  public void append(int txn, int key, long element) {
    engine.append(txn, key, element);
  }

  @Override
  public TxnStatus commit(int txn) {
    TxnStatus s = engine.commit(txn);
    active--;
    return s;
  }

  @Override
  public void abort(int txn) {
    engine.abort(txn);
    active--;
  }

  /** @return the committed register values of {@code key} in version order, oldest first */
  public long[] versions(int key) {
    return engine.versions(key);
  }
}
