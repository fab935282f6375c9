package io.isowatch.checker.awdit;

import io.isowatch.checker.history.CountedOutcomes;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import it.unimi.dsi.fastutil.booleans.BooleanArrayList;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayFIFOQueue;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.ints.IntRBTreeSet;
import java.util.List;

/**
 * Feeds transactions to the {@link Saturation} in a topological order of {@code so ∪ wr}, whatever
 * order they arrive in (as long as it is consistent with {@code so}): a transaction waits until its
 * session predecessor and every writer it may have a {@code wr} edge from are processed; a read of a
 * value nobody wrote yet waits for the writer to arrive. Reads that cannot give a {@code wr} edge
 * (after the transaction's own write of the key, from an aborted transaction, of an intermediate
 * write) never make it wait. {@link #finish()} ends the waiting: missing writers become
 * thin-air reads, and transactions on a cycle of {@code so ∪ wr} get their {@code so} and {@code
 * wr} edges (which close the cycle) without saturation.
 *
 * <p>The batch checker and the incremental checker both run through this class, so they agree by
 * construction on which edges exist; they differ only in how they look for cycles.
 */
final class Scheduler {
  private final History h;
  private final Saturation saturation;
  private final ReadResolver reads;
  private final boolean nonRepeatable;
  private final EdgeSink sink;
  private final List<Violation> out;
  private final BooleanArrayList arrived = new BooleanArrayList();
  private final BooleanArrayList done = new BooleanArrayList();
  private final Int2ObjectOpenHashMap<IntArrayList> waitOnTxn = new Int2ObjectOpenHashMap<>();
  private final Int2ObjectOpenHashMap<IntArrayList> waitOnKey = new Int2ObjectOpenHashMap<>();
  private final IntRBTreeSet waiting = new IntRBTreeSet();
  private final IntArrayFIFOQueue work = new IntArrayFIFOQueue();
  private final SmallIntMap ownKeys = new SmallIntMap(-1);
  private final Registrar registrar = new Registrar();
  private final Collector collector = new Collector();
  private boolean finalMode;
  private final CountedOutcomes outcomes;

  /**
   * @param out receives basic-axiom violations as transactions are resolved
   */
  Scheduler(History h, Level level, EdgeSink sink, List<Violation> out) {
    this.h = h;
    this.outcomes = new CountedOutcomes(h);
    this.reads = new ReadResolver(h);
    this.saturation = new Saturation(h, level, reads);
    this.nonRepeatable = level.atLeast(Level.READ_ATOMIC);
    this.sink = sink;
    this.out = out;
  }

  /** Accepts ended transaction {@code t}; processes it and whatever was waiting for it, if possible. */
  void accept(int t) {
    if (h.openTxn() == t) {
      throw new IllegalStateException("transaction T" + h.label(t) + " has not ended");
    }
    while (arrived.size() <= t) {
      arrived.add(false);
      done.add(false);
    }
    if (arrived.getBoolean(t)) {
      throw new IllegalArgumentException("transaction T" + h.label(t) + " accepted twice");
    }
    arrived.set(t, true);
    outcomes.observe(t);
    reads.elements().invalidate();
    reads.register(t);
    for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
      if (OpKind.isWrite(h.opKind(op))) {
        IntArrayList ws = waitOnKey.remove(h.opKey(op));
        if (ws != null) {
          enqueue(ws);
        }
      }
    }
    work.enqueue(t);
    drain();
  }

  /**
   * Marks, before any transaction is accepted, which transactions of unknown outcome the whole
   * history shows committed ({@link CountedOutcomes#observeAll}): for the batch checker.
   */
  void observeAll() {
    outcomes.observeAll();
  }

  /** Ends the waiting (see the class comment). */
  void finish() {
    finalMode = true;
    waitOnKey.clear();
    for (int t : waiting) {
      work.enqueue(t);
    }
    drain();
    int[] stuck = waiting.toIntArray();
    for (int t : stuck) {
      reads.resolve(t, nonRepeatable, out);
      if (h.status(t) != TxnStatus.ABORTED) {
        saturation.processEdgesOnly(t, sink, outcomes.counts(t));
      }
      done.set(t, true);
    }
    waiting.clear();
    waitOnTxn.clear();
  }

  /**
   * Releases the transactions that can only wait for each other: those waiting (on their session
   * predecessor or on a writer) for transactions that have all arrived and wait as well, through
   * dependencies that never reach a read of a value no arrived transaction wrote. Such a set contains
   * a cycle of {@code so ∪ wr} and no future arrival can end its waiting, so it is released as
   * {@link #finish()} releases it (edges without saturation, in transaction order), closing the
   * cycle now; what waited for it is then processed as usual. Transactions that wait, directly or
   * through others, for a writer yet to arrive stay held. Deterministic: it depends only on the
   * transactions accepted so far. Costs O(operations of the waiting transactions) per call.
   */
  void releaseCycles() {
    while (!waiting.isEmpty()) {
      int[] stuck = stuck();
      if (stuck.length == 0) {
        return;
      }
      for (int t : stuck) {
        waiting.remove(t);
        reads.resolve(t, nonRepeatable, out);
        if (h.status(t) != TxnStatus.ABORTED) {
          saturation.processEdgesOnly(t, sink, outcomes.counts(t));
        }
        done.set(t, true);
      }
      for (int t : stuck) {
        IntArrayList ws = waitOnTxn.remove(t);
        if (ws != null) {
          enqueue(ws);
        }
      }
      drain();
    }
  }

  /**
   * @return the waiting transactions, ascending, none of whose dependencies (transitively) is a
   *     read of a value no arrived transaction wrote or a transaction yet to arrive
   */
  private int[] stuck() {
    Int2ObjectOpenHashMap<IntArrayList> waitedBy = new Int2ObjectOpenHashMap<>();
    IntArrayFIFOQueue free = new IntArrayFIFOQueue();
    IntOpenHashSet reachesArrival = new IntOpenHashSet();
    IntArrayList deps = new IntArrayList();
    for (int t : waiting) {
      deps.clear();
      if (!dependencies(t, deps)) {
        reachesArrival.add(t);
        free.enqueue(t);
        continue;
      }
      for (int i = 0; i < deps.size(); i++) {
        waitedBy.computeIfAbsent(deps.getInt(i), k -> new IntArrayList(2)).add(t);
      }
    }
    while (!free.isEmpty()) {
      IntArrayList ws = waitedBy.get(free.dequeueInt());
      if (ws == null) {
        continue;
      }
      for (int i = 0; i < ws.size(); i++) {
        if (reachesArrival.add(ws.getInt(i))) {
          free.enqueue(ws.getInt(i));
        }
      }
    }
    IntArrayList stuck = new IntArrayList();
    for (int t : waiting) {
      if (!reachesArrival.contains(t)) {
        stuck.add(t);
      }
    }
    return stuck.toIntArray();
  }

  /**
   * Collects into {@code deps} every transaction {@code t} waits for (all of them, where {@link
   * #block} stops at the first), by the rules of {@link #scanWaits}.
   *
   * @return false if {@code t} also waits for an arrival (a writer not yet accepted or not in the
   *     history, or a session predecessor not yet accepted)
   */
  private boolean dependencies(int t, IntArrayList deps) {
    collector.deps = deps;
    collector.arrival = false;
    scanWaits(t, collector);
    return !collector.arrival;
  }

  /**
   * Visits what {@code t} waits for before it can be processed: its session predecessor until that
   * is done, then (for a committed transaction) each writer of a value it read that is not done and
   * can still give a {@code wr} edge, and each read of a value no transaction in the history wrote.
   *
   * @return true if {@code sink} stopped the visit
   */
  private boolean scanWaits(int t, WaitSink sink) {
    int idx = h.sessionIndex(t);
    if (idx > 0) {
      int pred = h.sessionTxns(h.sessionOf(t)).getInt(idx - 1);
      if (!isDone(pred) && sink.onTxn(pred)) {
        return true;
      }
    }
    if (h.status(t) != TxnStatus.COMMITTED) {
      return false;
    }
    ownKeys.clear();
    for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
      int x = h.opKey(op);
      if (OpKind.isWrite(h.opKind(op))) {
        ownKeys.add(x);
        continue;
      }
      long v = reads.observed(op);
      if (v == History.UNKNOWN_VALUE || v == History.NIL) {
        continue;
      }
      if (h.opKind(op) == OpKind.READ_LIST) {
        if (scanList(t, op, ownKeys.contains(x), sink)) {
          return true;
        }
        continue;
      }
      int w = reads.writeOf(op);
      if (w < 0) {
        if (sink.onUnwritten(x)) {
          return true;
        }
        continue;
      }
      int t1 = h.opTxn(w);
      if (t1 == t || isDone(t1) || ownKeys.contains(x)) {
        continue; // no wr edge can come of it (or it is there already): nothing to wait for
      }
      if (isArrived(t1) && (h.status(t1) == TxnStatus.ABORTED || !reads.isLastWrite(w))) {
        continue; // an aborted or intermediate read: reported, but no wr edge
      }
      if (sink.onTxn(t1)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Visits the writers a known, non-empty list read of {@code t} waits for: per run ({@link
   * ElementReads}), by the rules of {@link #scanWaits} for one read, except that the reader's own
   * earlier append of the key rules out an edge from the last run only. Element by element on the
   * appends {@link ElementReads#elementWrites} looks up (kept for the resolution that follows), so
   * that the common case (every appender done) builds no runs; the run of an element is found only
   * for an appender that is not done.
   *
   * @return true if {@code sink} stopped the visit
   */
  private boolean scanList(int t, int op, boolean ownWrite, WaitSink sink) {
    int key = h.opKey(op);
    ElementReads elements = reads.elements();
    int base = elements.elementWrites(op);
    for (int i = 0, n = h.listLength(op); i < n; i++) {
      int w = elements.elementWrite(base + i);
      if (w < 0) {
        if (sink.onUnwritten(key)) {
          return true;
        }
        continue;
      }
      int t1 = h.opTxn(w);
      if (t1 == t || isDone(t1)) {
        continue;
      }
      int runEnd = i;
      while (runEnd + 1 < n && elements.elementWrite(base + runEnd + 1) >= 0
          && h.opTxn(elements.elementWrite(base + runEnd + 1)) == t1) {
        runEnd++; // the run of t1's appends holding position i ends at runEnd
      }
      if (ownWrite && runEnd == n - 1) {
        continue; // in the last run, which must be t's own: no edge
      }
      int last = elements.elementWrite(base + runEnd);
      if (isArrived(t1) && (h.status(t1) == TxnStatus.ABORTED || !reads.isLastWrite(last))) {
        continue;
      }
      if (sink.onTxn(t1)) {
        return true;
      }
    }
    return false;
  }

  /** What {@link #scanWaits} reports to; each method answers whether to stop the visit. */
  private interface WaitSink {
    /** @param t1 a transaction waited for, not done */
    boolean onTxn(int t1);

    /** @param key the key of a read whose value no transaction in the history wrote */
    boolean onUnwritten(int key);
  }

  /** Registers {@link #current} on the first thing it waits for ({@link #block}). */
  private final class Registrar implements WaitSink {
    int current;

    @Override
    public boolean onTxn(int t1) {
      waitOn(waitOnTxn, t1, current);
      return true;
    }

    @Override
    public boolean onUnwritten(int key) {
      if (finalMode) {
        return false; // at finish the read is thin-air: nothing to wait for
      }
      waitOn(waitOnKey, key, current); // the writer may still come
      return true;
    }
  }

  /** Collects every transaction waited for, stopping at a wait for an arrival ({@link #dependencies}). */
  private final class Collector implements WaitSink {
    IntArrayList deps;
    boolean arrival;

    @Override
    public boolean onTxn(int t1) {
      if (!isArrived(t1)) {
        arrival = true;
        return true;
      }
      deps.add(t1);
      return false;
    }

    @Override
    public boolean onUnwritten(int key) {
      arrival = true;
      return true;
    }
  }

  private void enqueue(IntArrayList ts) {
    for (int i = 0; i < ts.size(); i++) {
      work.enqueue(ts.getInt(i));
    }
  }

  private void drain() {
    while (!work.isEmpty()) {
      int t = work.dequeueInt();
      if (done.getBoolean(t)) {
        continue;
      }
      if (block(t)) {
        waiting.add(t);
        continue;
      }
      waiting.remove(t);
      reads.resolve(t, nonRepeatable, out);
      if (h.status(t) != TxnStatus.ABORTED) {
        saturation.process(t, sink, outcomes.counts(t));
      }
      done.set(t, true);
      IntArrayList ws = waitOnTxn.remove(t);
      if (ws != null) {
        enqueue(ws);
      }
    }
  }

  /** @return whether {@code t} must wait; if so it is registered on what it waits for */
  private boolean block(int t) {
    registrar.current = t;
    return scanWaits(t, registrar);
  }

  private boolean isArrived(int t) {
    return t < arrived.size() && arrived.getBoolean(t);
  }

  private boolean isDone(int t) {
    return t < done.size() && done.getBoolean(t);
  }

  private static void waitOn(Int2ObjectOpenHashMap<IntArrayList> lists, int on, int t) {
    IntArrayList ws = lists.get(on);
    if (ws == null) {
      ws = new IntArrayList(2);
      lists.put(on, ws);
    }
    ws.add(t);
  }
}
