package io.isowatch.enginesim.engine;

/**
 * Deliberate bugs an engine can be built with ({@link EngineOptions#faults()}), each a named switch,
 * so that a monitor can be shown to catch the anomaly each one causes. With no fault switched on, an
 * engine's histories satisfy its {@link IsolationEngine#level()}.
 */
public enum Fault {
  /**
   * A committed transaction's writes become visible one key at a time: the commit installs its first
   * written object and each later {@link IsolationEngine#deliver} step installs one more, so other
   * transactions can read in between (MVCC engine), or a replica applies a delivered transaction one
   * key per delivery step (read atomic store). Expected: a fractured read (read atomic broken).
   */
  FRACTURED_VISIBILITY,
  /**
   * The write-write conflict check of snapshot isolation and serializable is skipped: two concurrent
   * transactions writing one object both commit. Expected: lost update (snapshot isolation broken).
   * No effect at levels that allow lost updates anyway.
   */
  LOST_UPDATE,
  /**
   * The read view omits the most recent commit at the time it is taken (snapshot isolation and
   * serializable: the snapshot at begin; read uncommitted and read committed: each read). A session
   * can then miss its own previous transaction. Expected: a session-order violation (read committed
   * broken when checked with session order; G-single with an so edge under Adya).
   */
  STALE_SNAPSHOT,
  /**
   * An aborted transaction's writes (abort by the client or a commit the engine refused) are
   * installed as if it had committed. Expected: aborted read (G1a).
   */
  ABORTED_WRITE_VISIBLE
}
