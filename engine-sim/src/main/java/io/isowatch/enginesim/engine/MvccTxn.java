package io.isowatch.enginesim.engine;

import it.unimi.dsi.fastutil.ints.Int2LongOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectLinkedOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/** The state of one transaction of {@link MvccEngine}: its snapshot, write buffer and SSI edges. */
final class MvccTxn {
  /** A buffered write of one object: the register value, or the elements appended to the list. */
  static final class Buffered {
    long value;
    final LongArrayList appends = new LongArrayList();
    /** Event time of the transaction's last write of the object (read uncommitted: most recent wins). */
    long lastWrite;
  }

  enum State { ACTIVE, COMMITTED, ABORTED }

  final int id;
  final int session;
  /** The install timestamp of the snapshot (levels with a snapshot at begin). */
  final long startTs;
  /** Event time of begin: for SSI, who was concurrent with whom. */
  final long startEvent;
  /** Event time of commit; {@link Long#MAX_VALUE} unless committed. */
  long commitEvent = Long.MAX_VALUE;
  State state = State.ACTIVE;
  /** A conflict decided that the commit will answer aborted. */
  boolean doomed;
  /** Writes in the order of the first write of each object. */
  final Int2ObjectLinkedOpenHashMap<Buffered> writes = new Int2ObjectLinkedOpenHashMap<>();
  /** {@link LevelPolicy#repeatableReads()}: per register object, the value fixed at first read. */
  final Int2LongOpenHashMap registerViews = new Int2LongOpenHashMap();
  /** {@link LevelPolicy#repeatableReads()}: per list object, the list fixed at first access. */
  final Int2ObjectOpenHashMap<long[]> listViews = new Int2ObjectOpenHashMap<>();
  /**
   * Per list object in {@link #listViews}, the timestamp of the latest committed version when the
   * view was fixed.
   */
  final Int2LongOpenHashMap listViewTs = new Int2LongOpenHashMap();
  /** SSI: transactions with an rw-antidependency to this one ({@code r -rw-> this}). */
  final IntArrayList inConflicts = new IntArrayList();
  /** SSI: transactions this one has an rw-antidependency to ({@code this -rw-> w}). */
  final IntArrayList outConflicts = new IntArrayList();

  MvccTxn(int id, int session, long startTs, long startEvent) {
    this.id = id;
    this.session = session;
    this.startTs = startTs;
    this.startEvent = startEvent;
  }

  /** @return whether it is neither aborted nor doomed to abort */
  boolean live() {
    return state != State.ABORTED && !doomed;
  }

  /** @return whether its lifetime overlaps that of {@code other} (neither committed before the other began) */
  boolean concurrentWith(MvccTxn other) {
    return commitEvent > other.startEvent && other.commitEvent > startEvent;
  }
}
