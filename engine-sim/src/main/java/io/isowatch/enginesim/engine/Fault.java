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
   * key per delivery step (replicated stores). Expected: a fractured read; AWDIT's read atomic
   * checker reports a commit-order cycle at read atomic when the reader read the old key first, at
   * read committed when it read the new key first.
   */
  FRACTURED_VISIBILITY,
  /**
   * The write-write conflict check of snapshot isolation (first updater wins) is skipped: two
   * concurrent transactions writing one object both commit. Expected: lost update (snapshot
   * isolation broken; on lists, the Adya checker's {@code lost-update}). Snapshot isolation only:
   * refused at levels that allow lost updates anyway, and at serializable, where SSI refuses the
   * read-then-write schedules of a lost update through their rw-antidependencies, and blind writes
   * leave nothing a checker could see.
   */
  LOST_UPDATE,
  /**
   * The read view omits the most recent commit at the time it is taken (snapshot isolation and
   * serializable: the snapshot at begin; read uncommitted and read committed: each read), or, in
   * the replicated stores, a transaction reaches its own replica only by delivery. A session can then
   * miss its own previous transaction. Expected: a session-order violation: G-single (with its
   * {@code so} edge) under the Adya checker with session order, a commit-order cycle at read atomic
   * under AWDIT (read committed has no session guarantee, so its checker stays silent).
   */
  STALE_SNAPSHOT,
  /**
   * An aborted transaction's writes (abort by the client or a commit the engine refused) are
   * installed (replicated stores: replicated) as if it had committed. Expected: aborted read (G1a),
   * read committed broken.
   */
  ABORTED_WRITE_VISIBLE
}
