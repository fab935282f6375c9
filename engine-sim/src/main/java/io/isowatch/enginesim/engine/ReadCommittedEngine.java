package io.isowatch.enginesim.engine;

import io.isowatch.checker.level.Level;

/**
 * Read committed: each read sees the latest committed version at the moment of the read (a read
 * never sees an uncommitted or aborted write, and a later read of the same key may see a newer
 * commit: non-repeatable reads and lost updates are allowed). Transactions run concurrently and never
 * wait or abort; concurrent writes of one key are installed in commit order (last committer wins).
 */
public final class ReadCommittedEngine extends MvccEngine {
  @Override
  public Level level() {
    return Level.READ_COMMITTED;
  }

  /** Always. */
  @Override
  protected boolean admits(int session) {
    return true;
  }

  /** The latest committed version. */
  @Override
  protected long readVisible(int txn, int key) {
    return store.latest(key);
  }
}
