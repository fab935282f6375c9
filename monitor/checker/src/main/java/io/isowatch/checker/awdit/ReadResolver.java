package io.isowatch.checker.awdit;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.ForbiddenAnomalies;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.booleans.BooleanArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves each read to the transaction it read from ({@code wr}) and checks the basic axioms that
 * hold at every level (Biswas &amp; Enea, OOPSLA 2019, §3; AWDIT, PLDI 2025, §2): thin-air read,
 * aborted read (G1a), future read, not-my-own-write, not-my-last-write, intermediate read (G1b),
 * and non-repeatable read (read atomic and above).
 *
 * <p>A list read reads the version of its last element's append (the empty list reads the initial
 * value), an append is a write of its element; in addition a list read observes the append of every
 * element and shows their version order ({@link ElementReads}): each run of elements is checked by
 * the basic axioms as a read of its own (an aborted, intermediate or thin-air element anywhere in
 * the list is reported), and the valid runs other than the last become observations. O(ops of the
 * transaction + elements of its list reads) per transaction, with one hash lookup per read and per
 * element. Results per operation in {@link #writerOf(int)}; observations and orders of the
 * transaction resolved last in {@link #elements()}.
 */
final class ReadResolver {
  /** {@link #writerOf} for a read of the initial value. */
  static final int INIT = Witness.INIT;
  /** {@link #writerOf} for operations that are no valid external read. */
  static final int NO_EDGE = -2;
  /** Marks a key whose non-repeatable read was reported already. */
  private static final int REPORTED = Integer.MIN_VALUE;

  private final History h;
  private final IntArrayList writer = new IntArrayList();
  /** Transactions with more operations than this index their written keys in a hash set. */
  static final int WIDE = 64;

  /** Per operation: whether it is the last write of its key in its transaction. */
  private final BooleanArrayList lastOfKey = new BooleanArrayList();
  /** Per read operation: the write it observed, once found (-1 unknown). */
  private final IntArrayList writeOp = new IntArrayList();
  /** Per registered transaction: {@link #keyBit} of every key it writes, or-ed. */
  private final LongArrayList writeMask = new LongArrayList();
  /** The keys written by each wide transaction (more than {@link #WIDE} operations). */
  private final Int2ObjectOpenHashMap<IntOpenHashSet> wideWrites = new Int2ObjectOpenHashMap<>();
  private final SmallIntMap seen = new SmallIntMap(-1);
  private final SmallIntMap ownLast = new SmallIntMap(-1);
  private final SmallIntMap firstWriterOfKey = new SmallIntMap(NO_EDGE);
  private final SmallIntMap firstReadOfKey = new SmallIntMap(-1);
  private final ElementReads elements;

  ReadResolver(History h) {
    this.h = h;
    this.elements = new ElementReads(h);
  }

  /**
   * @return the runs of list reads; its observations and version orders are those of the
   *     transaction resolved last
   */
  ElementReads elements() {
    return elements;
  }

  /**
   * Indexes the writes of transaction {@code t}; call once per transaction, before resolving it or
   * anything that reads from it. O(ops of t).
   */
  void register(int t) {
    int start = h.opStart(t);
    int end = h.opEnd(t);
    while (lastOfKey.size() < end) {
      lastOfKey.add(false);
      writeOp.add(-1);
    }
    seen.clear();
    IntOpenHashSet wide = end - start > WIDE ? new IntOpenHashSet() : null;
    long mask = 0;
    for (int op = end - 1; op >= start; op--) {
      if (OpKind.isWrite(h.opKind(op))) {
        int x = h.opKey(op);
        mask |= keyBit(x);
        lastOfKey.set(op, seen.add(x));
        if (wide != null) {
          wide.add(x);
        }
      }
    }
    if (wide != null) {
      wideWrites.put(t, wide);
    }
    while (writeMask.size() <= t) {
      writeMask.add(0L);
    }
    writeMask.set(t, mask);
  }

  /** @return a one-bit summary of {@code key} (its id mod 64), to or into key-set masks */
  static long keyBit(int key) {
    return 1L << (key & 63);
  }

  /**
   * @return {@link #keyBit} of every key registered transaction {@code t} writes, or-ed: if it
   *     shares no bit with a set of keys, {@code t} writes none of them
   */
  long writeMask(int t) {
    return writeMask.getLong(t);
  }

  /** @return whether write {@code op} is the last write of its key in its transaction */
  boolean isLastWrite(int op) {
    if (op < lastOfKey.size()) {
      return lastOfKey.getBoolean(op);
    }
    int x = h.opKey(op); // a transaction never accepted (still open): scan it
    for (int o = op + 1, end = h.opEnd(h.opTxn(op)); o < end; o++) {
      if (h.opKey(o) == x && OpKind.isWrite(h.opKind(o))) {
        return false;
      }
    }
    return true;
  }

  /** @return whether registered transaction {@code t} writes {@code key}; O(1) or O({@link #WIDE}) */
  boolean writes(int t, int key) {
    int start = h.opStart(t);
    int end = h.opEnd(t);
    if (end - start > WIDE) {
      return wideWrites.get(t).contains(key);
    }
    for (int op = start; op < end; op++) {
      if (h.opKey(op) == key && OpKind.isWrite(h.opKind(op))) {
        return true;
      }
    }
    return false;
  }

  /**
   * @param op a read whose {@link #observed} value is neither NIL nor unknown
   * @return the write that produced the value, or -1 if none has been appended yet
   */
  int writeOf(int op) {
    int w = writeOp.getInt(op);
    if (w < 0) {
      long v = observed(op);
      w = h.writes().writerOf(h.opKey(op), v);
      writeOp.set(op, w);
    }
    return w;
  }

  /**
   * @param op an operation id
   * @return the writer transaction of a valid external read, {@link #INIT}, or {@link #NO_EDGE}
   */
  int writerOf(int op) {
    return writer.getInt(op);
  }

  /**
   * @return the value a read observed (a list read: its last element, NIL when empty), or {@link
   *     History#UNKNOWN_VALUE} when the operation is no read or its result is unknown
   */
  long observed(int op) {
    return observed(h, op);
  }

  /** {@link #observed(int)} for any history; the one place that says what a read observed. */
  static long observed(History h, int op) {
    byte kind = h.opKind(op);
    if (kind == OpKind.READ) {
      return h.opValue(op);
    }
    if (kind != OpKind.READ_LIST || !h.listKnown(op)) {
      return History.UNKNOWN_VALUE;
    }
    int n = h.listLength(op);
    return n == 0 ? History.NIL : h.listElement(op, n - 1);
  }

  /**
   * Resolves every read of {@code t}; a read whose writer is missing is a thin-air read.
   *
   * @param nonRepeatable whether to report non-repeatable reads (read atomic and above)
   * @param out receives the basic-axiom violations of {@code t}
   */
  void resolve(int t, boolean nonRepeatable, List<Violation> out) {
    int end = h.opEnd(t);
    while (writer.size() < end) {
      writer.add(NO_EDGE);
    }
    boolean checked = h.status(t) == TxnStatus.COMMITTED;
    ownLast.clear();
    firstWriterOfKey.clear();
    firstReadOfKey.clear();
    elements.clear();
    for (int op = h.opStart(t); op < end; op++) {
      writer.set(op, NO_EDGE);
      byte kind = h.opKind(op);
      int key = h.opKey(op);
      if (OpKind.isWrite(kind)) {
        ownLast.put(key, op);
        continue;
      }
      long v = checked ? observed(op) : History.UNKNOWN_VALUE;
      if (v == History.UNKNOWN_VALUE) {
        continue;
      }
      if (v != History.NIL && kind == OpKind.READ_LIST) {
        resolveList(t, op, key, nonRepeatable, out);
        continue;
      }
      int own = ownLast.get(key);
      int w = v == History.NIL ? -1 : writeOf(op);
      int t1 = w < 0 ? -1 : h.opTxn(w);
      Anomaly a = v == History.NIL ? (own >= 0 ? Anomaly.NOT_MY_OWN_WRITE : null) : basicAxiom(t, op, w, own, true);
      if (a == null && t1 == t) {
        continue; // internal read: no wr edge
      }
      if (a != null) {
        out.add(basic(a, t, t1 >= 0 ? List.of(t1) : List.of(), own >= 0 && own != w ? List.of(op, own) : List.of(op), w));
        continue;
      }
      versionRead(t, op, key, v == History.NIL ? INIT : t1, nonRepeatable, out);
    }
  }

  /**
   * The basic axiom (Biswas &amp; Enea, OOPSLA 2019, §3) that reading write {@code w} breaks, for a
   * register read and for each run of a list read alike.
   *
   * @param t the reader
   * @param op the read
   * @param w the write read (a list run's last append), -1 for a value nobody wrote
   * @param own the reader's last write of the key before {@code op}, -1 if none
   * @param ownRequired whether the reader's own earlier write must be what it reads (a register read;
   *     a list's last run, not the runs its appends were appended to)
   * @return the anomaly, or {@code null} if the read is valid (a read of its own last write included)
   */
  private Anomaly basicAxiom(int t, int op, int w, int own, boolean ownRequired) {
    if (w < 0) {
      return Anomaly.THIN_AIR_READ;
    }
    int t1 = h.opTxn(w);
    if (t1 == t) {
      return w > op ? Anomaly.FUTURE_READ : ownRequired && own != w ? Anomaly.NOT_MY_LAST_WRITE : null;
    }
    if (ownRequired && own >= 0) {
      return Anomaly.NOT_MY_OWN_WRITE;
    }
    if (h.status(t1) == TxnStatus.ABORTED) {
      return Anomaly.ABORTED_READ;
    }
    return isLastWrite(w) ? null : Anomaly.INTERMEDIATE_READ;
  }

  /** Records {@code src} as the writer of the version read {@code op} reads; a non-repeatable read if t read the key from another writer before. */
  private void versionRead(int t, int op, int key, int src, boolean nonRepeatable, List<Violation> out) {
    writer.set(op, src);
    int first = firstWriterOfKey.get(key);
    if (first == NO_EDGE) {
      firstWriterOfKey.put(key, src);
      firstReadOfKey.put(key, op);
    } else if (first != src && first != REPORTED && nonRepeatable) {
      firstWriterOfKey.put(key, REPORTED);
      out.add(basic(Anomaly.NON_REPEATABLE_READ, t, List.of(first, src), List.of(firstReadOfKey.get(key), op), -1));
    }
  }

  /**
   * Resolves a known, non-empty list read of committed {@code t} run by run ({@link ElementReads}):
   * each run is checked as a read of its last element, except that the reader's own earlier
   * appends to the key are required of the last run only (the runs before it are what its appends
   * were appended to). The last valid external run is the version read; the other valid external
   * runs are observations; consecutive valid runs are ordered. At most one violation of each kind
   * per read, the first run that shows it.
   */
  private void resolveList(int t, int op, int key, boolean nonRepeatable, List<Violation> out) {
    int own = ownLast.get(key);
    int runs = elements.split(op);
    int firstObservation = elements.observations();
    long reported = 0;
    int prev = -1;
    int prevWrite = -1;
    boolean lastObserved = false;
    for (int j = 0; j < runs; j++) {
      int w = elements.runWrite(j);
      int t1 = w < 0 ? -1 : h.opTxn(w);
      boolean last = j == runs - 1;
      Anomaly a = basicAxiom(t, op, w, own, last);
      if (a != null) {
        if ((reported & (1L << a.ordinal())) == 0) {
          reported |= 1L << a.ordinal();
          boolean ownToo = last && own >= 0 && own != w;
          out.add(basic(a, t, t1 >= 0 ? List.of(t1) : List.of(), ownToo ? List.of(op, own) : List.of(op), w));
        }
        continue;
      }
      if (prev >= 0 && prev != t1) {
        elements.order(prevWrite, prev, t1, key, h.listElement(op, elements.runFirst(j)));
      }
      prev = t1;
      prevWrite = w;
      lastObserved = false;
      if (t1 == t) {
        continue; // its own appends: internal, no wr edge
      }
      if (last) {
        versionRead(t, op, key, t1, nonRepeatable, out);
      } else {
        elements.observe(op, t1, h.opValue(w), false);
        lastObserved = true;
      }
    }
    // every observation is followed by a valid run, except the last valid run when it is one
    elements.imply(firstObservation, elements.observations() - (lastObserved ? 1 : 0));
  }

  /**
   * A basic-axiom violation: the reader first, then the other transactions involved ({@link #INIT}
   * equals {@link Witness#INIT}); the read operations first, then the write {@code writeOp} if any.
   */
  private static Violation basic(Anomaly a, int reader, List<Integer> writers, List<Integer> reads, int writeOp) {
    List<Integer> txns = new ArrayList<>();
    txns.add(reader);
    for (int w : writers) {
      if (w != reader && !txns.contains(w)) {
        txns.add(w);
      }
    }
    List<Integer> ops = new ArrayList<>(reads);
    if (writeOp >= 0 && !ops.contains(writeOp)) {
      ops.add(writeOp);
    }
    return new Violation(a, ForbiddenAnomalies.weakestForbidding(a), new Witness(txns, ops, List.of()));
  }
}
