package io.isowatch.enginesim.engine;

import io.isowatch.checker.level.Level;

/**
 * Serializable by construction: transactions run one at a time. A session that asks to begin while
 * another transaction is active gets {@link IsolationEngine#WAIT}; every read sees the latest
 * committed version, which is the state after all earlier transactions, so the commit order is a
 * serial order that explains every read. Never aborts.
 */
public final class SerialEngine extends MvccEngine {
  @Override
  public Level level() {
    return Level.SERIALIZABLE;
  }

  /** Only when no other transaction is active. */
  @Override
  protected boolean admits(int session) {
    return activeCount() == 0;
  }

  /** The latest committed version. */
  @Override
  protected long readVisible(int txn, int key) {
    return store.latest(key);
  }
}
