package io.isowatch.checker.awdit;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.EdgeType;
import it.unimi.dsi.fastutil.booleans.BooleanArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;

/**
 * The saturation of AWDIT (Møldrup &amp; Pavlogiannis, "AWDIT: An Optimal Weak Database Isolation
 * Tester", PLDI 2025, arXiv:2504.06975): for one reader transaction {@code t3} at a time, in a
 * topological order of {@code so ∪ wr}, emits the {@code so} and {@code wr} edges into {@code t3}
 * and the commit-order edges {@code co'} that the level's axiom forces from {@code t3}'s reads:
 *
 * <ul>
 *   <li>read committed (§4): a forward pass marks the po-first read from each writer; a reverse
 *       pass keeps, per key, the two po-earliest distinct writers read below the cursor, and at the
 *       first read from {@code t2} links {@code t2} to the first of them that is not {@code t2}, for
 *       each key {@code t2} writes. Iterating over the smaller of {@code t2}'s writes and {@code
 *       t3}'s keys gives O(n^1.5) overall.
 *   <li>read atomic (§5): per key read, the session's last earlier writer of the key and every
 *       writer read from that writes it precede each distinct writer the key was read from;
 *       O(n^1.5) by the same smaller-side iteration.
 *   <li>causal (§6): vector clocks over sessions ({@code k} entries per transaction); per key read and
 *       per session, the last writer inside the clock (found from a cursor that mostly moves forward,
 *       {@link SessionWriters}) precedes the writer read from, unless it is in that writer's own
 *       causal past; O(n·k) clock comparisons.
 * </ul>
 *
 * A list read contributes, besides its version read, one observation per other valid run of its
 * elements ({@link ElementReads}), placed right after it in program order: an observed appender is
 * a source of {@code t3} (a premise of every axiom, part of the causal past), but not a writer the
 * key was read from; and the version order its elements show becomes {@code ww} edges. An
 * observation followed by another valid run of its list gets no {@code wr} edge in the graph: the
 * {@code ww} edges lead from it to the version read's writer (or to {@code t3}'s own run), so the
 * edge would close no cycle the graph does not close already. Each inferred edge carries the weakest premise that justifies it ({@link Because}), so that a
 * cycle names the weakest level it breaks. Transactions must be passed to {@link #process} in an
 * order where every session predecessor and every writer read from came first.
 *
 * <p>Over 400 lines: the three levels' passes and the list-read filters all read one per-reader
 * scratch (positions, per-key slots, sources, masks) that {@link #gather} fills; split by level,
 * each part would need that scratch passed in or filled again.
 */
final class Saturation {
  private static final int NONE = ReadResolver.NO_EDGE;
  private static final int[] EMPTY = new int[0];

  private final History h;
  private final Level level;
  private final ReadResolver reads;
  private final IntArrayList lastNode = new IntArrayList();
  /**
   * Read atomic: key id -> session -> the session's last transaction writing the key (-1 if none;
   * null for a key nobody wrote). Per key, so that the lookup for a reader's key and session is
   * near the key's other entries instead of a miss in one large (session, key) table.
   */
  private final ObjectArrayList<SmallIntMap> lastInSession = new ObjectArrayList<>();
  /** Causal: key id -> the sessions writing it and their writer lists (null if none). */
  private final ObjectArrayList<KeyWriters> keyWriters = new ObjectArrayList<>();
  /** CC only: per transaction, entry s = number of session s's transactions in its causal past, itself included. */
  private final ObjectArrayList<int[]> clocks = new ObjectArrayList<>();

  // per-reader scratch: valid external reads and observations of t3 in program order
  private final IntArrayList rKey = new IntArrayList();
  private final IntArrayList rWriter = new IntArrayList();
  private final LongArrayList rValue = new LongArrayList();
  /** Per position: a version read (true) or an observation of a list element's append (false). */
  private final BooleanArrayList rVersion = new BooleanArrayList();
  private final SmallIntMap firstPos = new SmallIntMap(-1);
  /** Per source: its first position that needs a {@code wr} edge (not an implied observation). */
  private final SmallIntMap edgePos = new SmallIntMap(-1);
  /**
   * Per observed appender: the version writer of the first list read of t3 that observes it. The
   * version order of that list leads from the one to the other, so a {@code co} edge between them
   * is implied and not emitted: without this, every reader of a list of L appends would add L - 1
   * such edges, and a key's distinct pairs would grow as L^2.
   */
  private final SmallIntMap observedBefore = new SmallIntMap(NONE);
  /** Per observed appender: the key of the list read that {@link #observedBefore} is about. */
  private final SmallIntMap observedKey = new SmallIntMap(-1);
  private final IntArrayList sources = new IntArrayList();
  private final SmallIntMap local = new SmallIntMap(-1);
  private final IntArrayList touched = new IntArrayList();
  private final IntArrayList slotA = new IntArrayList();
  private final IntArrayList slotB = new IntArrayList();
  private final IntArrayList posA = new IntArrayList();
  private final IntArrayList posB = new IntArrayList();
  /** Read committed reverse pass: local keys read below the cursor. */
  private final IntArrayList live = new IntArrayList();
  /** {@link ReadResolver#keyBit} of the keys in {@link #live}, or-ed. */
  private long liveMask;
  /** {@link ReadResolver#keyBit} of the keys in {@link #touched}, or-ed. */
  private long touchedMask;
  /** The bits of {@link #touchedMask} that two or more touched keys share. */
  private long touchedShared;

  Saturation(History h, Level level, ReadResolver reads) {
    this.h = h;
    this.level = level;
    this.reads = reads;
  }

  private static int node(int txn) {
    return txn + 1; // INIT (-1) becomes node 0
  }

  /**
   * Emits the edges into {@code t3} and the edges its reads force, then records {@code t3} as a
   * writer if it counts as committed. {@code t3}'s reads must have been resolved.
   *
   * @param writes whether {@code t3}'s writes become premises of later transactions' axioms: false
   *     for a transaction of unknown outcome that no read has shown to have committed (it may have
   *     aborted, and its writes must not make a consistent history look violated)
   */
  void process(int t3, EdgeSink sink, boolean writes) {
    process(t3, sink, true, writes);
  }

  /** Emits only the {@code so} and {@code wr} edges into {@code t3}: for transactions on a cycle of {@code so ∪ wr}. */
  void processEdgesOnly(int t3, EdgeSink sink, boolean writes) {
    process(t3, sink, false, writes);
  }

  private void process(int t3, EdgeSink sink, boolean saturate, boolean writes) {
    int s3 = h.sessionOf(t3);
    while (lastNode.size() <= s3) {
      lastNode.add(-1);
    }
    int pred = lastNode.getInt(s3);
    sink.edge(node(pred), node(t3), EdgeType.SO, Because.SESSION_ORDER, -1, History.NIL, -1);
    gather(t3);
    for (int i = 0; i < sources.size(); i++) {
      int src = sources.getInt(i);
      int at = edgePos.get(src);
      if (at < 0) {
        continue; // observed only where so ∪ wr ∪ ww already leads to t3
      }
      sink.edge(node(src), node(t3), EdgeType.WR, Because.READS_FROM, rKey.getInt(at), rValue.getLong(at), -1);
    }
    ElementReads elements = reads.elements();
    for (int i = 0, n = elements.orders(); i < n; i++) {
      sink.edge(node(elements.orderFrom(i)), node(elements.orderTo(i)), EdgeType.WW, Because.VERSION_ORDER,
          elements.orderKey(i), elements.orderValue(i), t3);
    }
    if (!saturate) {
      if (level == Level.CAUSAL) {
        setClock(t3, new int[0]);
      }
    } else if (level == Level.READ_COMMITTED) {
      inferReadCommitted(t3, sink);
    } else if (level == Level.READ_ATOMIC) {
      inferReadAtomic(t3, s3, sink);
    } else {
      inferCausal(t3, s3, pred, sink);
    }
    if (level != Level.READ_COMMITTED && writes) {
      recordWrites(t3, s3);
    }
    lastNode.set(s3, t3);
  }

  /** Collects t3's valid external reads and observations, its sources (po-first read of each) and per-key slots (forward). */
  private void gather(int t3) {
    rKey.clear();
    rWriter.clear();
    rValue.clear();
    rVersion.clear();
    firstPos.clear();
    edgePos.clear();
    observedBefore.clear();
    observedKey.clear();
    sources.clear();
    local.clear();
    touched.clear();
    touchedMask = 0;
    touchedShared = 0;
    slotA.clear();
    slotB.clear();
    posA.clear();
    posB.clear();
    ElementReads elements = reads.elements();
    int obs = 0;
    int observations = elements.observations();
    for (int op = h.opStart(t3), end = h.opEnd(t3); op < end; op++) {
      int w = reads.writerOf(op);
      if (w != NONE) {
        addRead(h.opKey(op), w, reads.observed(op), true, true);
      }
      for (; obs < observations && elements.observedOp(obs) == op; obs++) {
        addRead(h.opKey(op), elements.observedTxn(obs), elements.observedValue(obs), false,
            !elements.observedImplied(obs));
        if (w >= 0 && observedBefore.putIfAbsent(elements.observedTxn(obs), w) == NONE) {
          observedKey.put(elements.observedTxn(obs), h.opKey(op));
        }
      }
    }
  }

  /**
   * Adds a position to the scratch: a version read of {@code x} from {@code w}, or an observation;
   * {@code edge} whether it needs a {@code wr} edge.
   */
  private void addRead(int x, int w, long value, boolean version, boolean edge) {
    int i = rKey.size();
    rKey.add(x);
    rWriter.add(w);
    rValue.add(value);
    rVersion.add(version);
    if (w >= 0 && firstPos.get(w) < 0) {
      firstPos.put(w, i);
      sources.add(w);
    }
    if (edge && w >= 0 && edgePos.get(w) < 0) {
      edgePos.put(w, i);
    }
    if (version) {
      int li = local.get(x);
      if (li < 0) {
        li = touched.size();
        local.put(x, li);
        touched.add(x);
        touchedShared |= touchedMask & ReadResolver.keyBit(x);
        touchedMask |= ReadResolver.keyBit(x);
        slotA.add(w);
        posA.add(i);
        slotB.add(NONE);
        posB.add(-1);
      } else if (slotA.getInt(li) == w) {
        posA.set(li, i);
      } else if (slotB.getInt(li) == NONE || slotB.getInt(li) == w) {
        slotB.set(li, w);
        posB.set(li, i);
      }
    }
  }

  /** Read committed: forward marks done in {@link #gather}; reverse pass with two distinct slots per key. */
  private void inferReadCommitted(int t3, EdgeSink sink) {
    // reuse the slot lists for the reverse pass: reset every touched key's slots to empty
    for (int li = 0; li < touched.size(); li++) {
      slotA.set(li, NONE);
      slotB.set(li, NONE);
    }
    IntArrayList live = this.live;
    live.clear();
    liveMask = 0;
    for (int i = rKey.size() - 1; i >= 0; i--) {
      int w = rWriter.getInt(i);
      if (w >= 0 && firstPos.get(w) == i) {
        linkWriter(w, t3, live, sink);
      }
      if (!rVersion.getBoolean(i)) {
        continue;
      }
      int li = local.get(rKey.getInt(i));
      int a = slotA.getInt(li);
      if (a == NONE) {
        live.add(li);
        liveMask |= ReadResolver.keyBit(rKey.getInt(i));
        slotA.set(li, w);
      } else if (a != w) {
        slotB.set(li, a);
        slotA.set(li, w);
      }
    }
  }

  /** At t2's first read in t3: for each key t2 writes that is read below the cursor, link t2 to the first other writer. */
  private void linkWriter(int t2, int t3, IntArrayList live, EdgeSink sink) {
    if ((reads.writeMask(t2) & liveMask) == 0) {
      return; // t2 writes no key read below the cursor (often: nothing is, or another key)
    }
    int start = h.opStart(t2);
    int end = h.opEnd(t2);
    if (end - start <= live.size()) {
      for (int op = start; op < end; op++) {
        int x = h.opKey(op);
        if (OpKind.isWrite(h.opKind(op)) && reads.isLastWrite(op)) {
          int li = local.get(x);
          if (li >= 0) {
            linkToFirstOther(t2, li, t3, sink);
          }
        }
      }
    } else {
      for (int j = 0; j < live.size(); j++) {
        int li = live.getInt(j);
        if (reads.writes(t2, touched.getInt(li))) {
          linkToFirstOther(t2, li, t3, sink);
        }
      }
    }
  }

  private void linkToFirstOther(int t2, int li, int t3, EdgeSink sink) {
    int a = slotA.getInt(li);
    int u = a != t2 ? a : slotB.getInt(li);
    if (u != NONE) {
      sink.edge(node(t2), node(u), EdgeType.CO, Because.READ_EARLIER, touched.getInt(li), History.NIL, t3);
    }
  }

  /** Read atomic: the session's last earlier writer and every writer read from precede each writer read. */
  private void inferReadAtomic(int t3, int s3, EdgeSink sink) {
    for (int li = 0; li < touched.size(); li++) {
      int x = touched.getInt(li);
      SmallIntMap last = x < lastInSession.size() ? lastInSession.get(x) : null;
      int w = last == null ? -1 : last.get(s3);
      if (w >= 0) {
        precedeReads(w, li, t3, Because.SESSION_PREDECESSOR, sink);
      }
    }
    for (int i = 0; i < sources.size(); i++) {
      int t2 = sources.getInt(i);
      if ((reads.writeMask(t2) & readAtomicKeys(t2)) == 0) {
        continue; // t2 writes no key t3 read (but the list key whose edges the ww chain implies)
      }
      int start = h.opStart(t2);
      int end = h.opEnd(t2);
      if (end - start <= touched.size()) {
        for (int op = start; op < end; op++) {
          int x = h.opKey(op);
          if (OpKind.isWrite(h.opKind(op)) && reads.isLastWrite(op)) {
            int li = local.get(x);
            if (li >= 0) {
              precedeReads(t2, li, t3, Because.READ_FROM_WRITER, sink);
            }
          }
        }
      } else {
        for (int li = 0; li < touched.size(); li++) {
          if (reads.writes(t2, touched.getInt(li))) {
            precedeReads(t2, li, t3, Because.READ_FROM_WRITER, sink);
          }
        }
      }
    }
  }

  /**
   * @return the {@link ReadResolver#keyBit} mask of the keys for which source {@code t2} may force
   *     a read-atomic edge: every touched key, except the key of a list read that observed t2 when
   *     that key was read from that list's version writer alone (the edge is then implied and not
   *     emitted, see {@link #observedBefore}) and no other touched key shares its bit
   */
  private long readAtomicKeys(int t2) {
    int key = observedKey.get(t2);
    if (key < 0) {
      return touchedMask;
    }
    int li = local.get(key);
    if (li < 0 || slotB.getInt(li) != NONE || slotA.getInt(li) != observedBefore.get(t2)) {
      return touchedMask;
    }
    return touchedMask & ~(ReadResolver.keyBit(key) & ~touchedShared);
  }

  /** Links t2 to each distinct writer (at most two) the key of slot li was read from, other than t2. */
  private void precedeReads(int t2, int li, int t3, Because otherwise, EdgeSink sink) {
    int x = touched.getInt(li);
    int first = firstPos.get(t2);
    int a = slotA.getInt(li);
    if (a != t2 && observedBefore.get(t2) != a) {
      sink.edge(node(t2), node(a), EdgeType.CO, reason(first, posA.getInt(li), otherwise), x, History.NIL, t3);
    }
    int b = slotB.getInt(li);
    if (b != NONE && b != t2 && observedBefore.get(t2) != b) {
      sink.edge(node(t2), node(b), EdgeType.CO, reason(first, posB.getInt(li), otherwise), x, History.NIL, t3);
    }
  }

  private static Because reason(int firstReadOfT2, int lastReadOfKey, Because otherwise) {
    return firstReadOfT2 >= 0 && firstReadOfT2 < lastReadOfKey ? Because.READ_EARLIER : otherwise;
  }

  /** Causal: per key read and per session writing it, the last writer inside t3's clock precedes the writer read. */
  private void inferCausal(int t3, int s3, int pred, EdgeSink sink) {
    int k = h.sessionCount();
    int[] clock = new int[k];
    join(clock, pred);
    for (int i = 0; i < sources.size(); i++) {
      join(clock, sources.getInt(i));
    }
    for (int li = 0; li < touched.size(); li++) {
      int a = slotA.getInt(li);
      precedeCausally(clock, a, posA.getInt(li), li, s3, t3, sink);
      int b = slotB.getInt(li);
      if (b != NONE) {
        precedeCausally(clock, b, posB.getInt(li), li, s3, t3, sink);
      }
    }
    clock[s3] = h.sessionIndex(t3) + 1;
    setClock(t3, clock);
  }

  /**
   * For writer {@code u} of the key of slot {@code li}, read in t3 last at {@code lastRead}: per
   * session writing the key, the last writer of the key inside t3's clock precedes {@code u}, unless
   * it is already in {@code u}'s causal past (then {@code so ∪ wr} implies the edge). A session is
   * searched only when t3's clock entry exceeds u's and the session wrote the key since: on
   * histories where writers read from are recent, edges stay near O(n) instead of O(n·k).
   */
  private void precedeCausally(int[] clock, int u, int lastRead, int li, int s3, int t3, EdgeSink sink) {
    int x = touched.getInt(li);
    if (x >= keyWriters.size() || keyWriters.get(x) == null) {
      return;
    }
    KeyWriters writers = keyWriters.get(x);
    int[] past = u >= 0 ? clocks.get(u) : EMPTY;
    for (int j = 0, n = writers.size(); j < n; j++) {
      int s = writers.session(j);
      int from = s < past.length ? past[s] : 0;
      if (s >= clock.length || clock[s] <= from || writers.lastIndex(j) < from) {
        continue;
      }
      int w = writers.writers(j).lastBefore(clock[s]);
      if (w < 0 || w == u || h.sessionIndex(w) < from || observedBefore.get(w) == u) {
        continue;
      }
      int first = firstPos.get(w);
      Because otherwise = first >= 0 ? Because.READ_FROM_WRITER
          : s == s3 ? Because.SESSION_PREDECESSOR : Because.CAUSAL_PAST;
      sink.edge(node(w), node(u), EdgeType.CO, reason(first, lastRead, otherwise), x, History.NIL, t3);
    }
  }

  private void setClock(int t, int[] clock) {
    if (clocks.size() <= t) {
      clocks.size(Math.max(t + 1, 2 * clocks.size())); // doubling: amortised O(1)
    }
    clocks.set(t, clock);
  }

  private void join(int[] clock, int t) {
    if (t < 0) {
      return;
    }
    int[] c = clocks.get(t);
    for (int s = 0; s < c.length; s++) {
      if (c[s] > clock[s]) {
        clock[s] = c[s];
      }
    }
  }

  private void recordWrites(int t, int s) {
    for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
      int x = h.opKey(op);
      if (!OpKind.isWrite(h.opKind(op)) || !reads.isLastWrite(op)) {
        continue;
      }
      if (level == Level.READ_ATOMIC) {
        if (lastInSession.size() <= x) {
          lastInSession.size(Math.max(x + 1, 2 * lastInSession.size())); // doubling: amortised O(1)
        }
        SmallIntMap last = lastInSession.get(x);
        if (last == null) {
          last = new SmallIntMap(-1);
          lastInSession.set(x, last);
        }
        last.put(s, t);
      } else {
        if (keyWriters.size() <= x) {
          keyWriters.size(Math.max(x + 1, 2 * keyWriters.size())); // doubling: amortised O(1)
        }
        KeyWriters kw = keyWriters.get(x);
        if (kw == null) {
          kw = new KeyWriters();
          keyWriters.set(x, kw);
        }
        kw.add(s, h.sessionIndex(t), t);
      }
    }
  }
}
