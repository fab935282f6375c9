package io.isowatch.checker.awdit;

import io.isowatch.checker.history.History;
import it.unimi.dsi.fastutil.booleans.BooleanArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * What a list read tells the axioms beyond the version it reads: a read of {@code [e1 .. en]} of key
 * {@code k} observes the append of every element, and orders those appends as the list does (an
 * append is a read of the key's previous version followed by a write, Biswas &amp; Enea, OOPSLA
 * 2019, §2; Elle infers the same order from consecutive elements, Kingsbury &amp; Alvaro, VLDB
 * 2020, §4). The translation, axiom by axiom, is in {@code docs/levels.md}.
 *
 * <p>A list is cut into <em>runs</em>: maximal stretches of consecutive elements appended by one
 * transaction, each standing for that transaction's version after the run's last element. {@link
 * #split} computes the runs of one read on two reused primitive lists (one hash lookup per element,
 * no object per element). {@link ReadResolver} then records, for the transaction it resolved last,
 * the runs that are valid observations other than the version read ({@link #observe}) and the
 * version order between consecutive valid runs ({@link #order}, new ones only); {@link Saturation}
 * reads both before the next transaction is resolved. Memory: one int per append for the orders
 * already recorded, plus scratch for one transaction.
 */
final class ElementReads {
  private final History h;
  /** Per run of the list split last: the append of its last element, -1 for an element nobody appended. */
  private final IntArrayList runWrite = new IntArrayList();
  /** Per run of the list split last: the position of its first element in the list. */
  private final IntArrayList runFirst = new IntArrayList();
  /** The transaction whose list reads' element appends are cached, -1 for none. */
  private int cacheTxn = -1;
  /** Per operation of {@link #cacheTxn}, from its first: where its elements start in {@link #cacheWrite}, -1 if not cached. */
  private final IntArrayList cacheBase = new IntArrayList();
  /** The append of each element of the cached list reads, -1 for an element nobody appended. */
  private final IntArrayList cacheWrite = new IntArrayList();

  private final IntArrayList obsOp = new IntArrayList();
  private final IntArrayList obsTxn = new IntArrayList();
  private final LongArrayList obsValue = new LongArrayList();
  private final BooleanArrayList obsImplied = new BooleanArrayList();
  /**
   * Per append (by operation id): the transaction whose run a list read showed right after the run
   * ending with it, -1 if none yet. Most reads repeat the order an earlier read showed; only a new
   * successor is recorded as a version order, so the {@code ww} edges stay near one per append.
   */
  private final IntArrayList successor = new IntArrayList();
  private final IntArrayList orderFrom = new IntArrayList();
  private final IntArrayList orderTo = new IntArrayList();
  private final IntArrayList orderKey = new IntArrayList();
  private final LongArrayList orderValue = new LongArrayList();

  ElementReads(History h) {
    this.h = h;
  }

  /**
   * Cuts a known, non-empty list read into runs; an element nobody appended is a run of its own.
   * Reuses the lists of the previous call. O(length) with one hash lookup per element.
   *
   * @param op a {@link io.isowatch.checker.history.OpKind#READ_LIST} operation with a known result
   * @return the number of runs, read with {@link #runWrite} and {@link #runFirst}
   */
  int split(int op) {
    runWrite.clear();
    runFirst.clear();
    int base = elementWrites(op);
    int prevTxn = -1;
    for (int i = 0, n = h.listLength(op); i < n; i++) {
      int w = cacheWrite.getInt(base + i);
      int t = w < 0 ? -1 : h.opTxn(w);
      if (t >= 0 && t == prevTxn) {
        runWrite.set(runWrite.size() - 1, w);
      } else {
        runWrite.add(w);
        runFirst.add(i);
      }
      prevTxn = t;
    }
    return runWrite.size();
  }

  /**
   * Looks up the append of every element of list read {@code op} (one hash lookup each), once for
   * the scheduler's scan of its transaction and the resolution that follows it. The cache holds one
   * transaction's list reads and must be {@linkplain #invalidate invalidated} whenever a transaction
   * is added, since a missing append may arrive.
   *
   * @return the index of the read's first element for {@link #elementWrite}
   */
  int elementWrites(int op) {
    int t = h.opTxn(op);
    if (t != cacheTxn) {
      cacheTxn = t;
      cacheBase.clear();
      cacheWrite.clear();
    }
    int i = op - h.opStart(t);
    while (cacheBase.size() <= i) {
      cacheBase.add(-1);
    }
    int base = cacheBase.getInt(i);
    if (base < 0) {
      base = cacheWrite.size();
      int key = h.opKey(op);
      for (int j = 0, n = h.listLength(op); j < n; j++) {
        cacheWrite.add(h.writes().writerOf(key, h.listElement(op, j)));
      }
      cacheBase.set(i, base);
    }
    return base;
  }

  /** @return the append of the element at {@code index} (from {@link #elementWrites}), -1 if none */
  int elementWrite(int index) {
    return cacheWrite.getInt(index);
  }

  /** Forgets the cached element appends: call when a transaction is added to the history. */
  void invalidate() {
    cacheTxn = -1;
  }

  /** @return the append of run {@code j}'s last element, or -1 if nobody appended that element */
  int runWrite(int j) {
    return runWrite.getInt(j);
  }

  /** @return the position in the list of run {@code j}'s first element */
  int runFirst(int j) {
    return runFirst.getInt(j);
  }

  /** Forgets the observations and orders of the previous transaction. */
  void clear() {
    obsOp.clear();
    obsTxn.clear();
    obsValue.clear();
    obsImplied.clear();
    orderFrom.clear();
    orderTo.clear();
    orderKey.clear();
    orderValue.clear();
  }

  /**
   * Records that list read {@code op} observes {@code writer}'s append of {@code value} (a run that
   * is not the version read). Calls come in operation order.
   *
   * @param implied whether a later valid run of the same list follows: then {@code so ∪ wr ∪ ww}
   *     already leads from {@code writer} to the reader (through the version order to the version
   *     read or to the reader's own run), and the observation needs no {@code wr} edge of its own
   */
  void observe(int op, int writer, long value, boolean implied) {
    obsOp.add(op);
    obsTxn.add(writer);
    obsValue.add(value);
    obsImplied.add(implied);
  }

  /** Marks observations {@code from .. to-1} as implied. */
  void imply(int from, int to) {
    for (int i = from; i < to; i++) {
      obsImplied.set(i, true);
    }
  }

  /** @return the number of observations recorded since {@link #clear} */
  int observations() {
    return obsOp.size();
  }

  /** @return the list read of observation {@code i} */
  int observedOp(int i) {
    return obsOp.getInt(i);
  }

  /** @return the appending transaction of observation {@code i} */
  int observedTxn(int i) {
    return obsTxn.getInt(i);
  }

  /** @return whether observation {@code i} needs no {@code wr} edge of its own (see {@link #observe}) */
  boolean observedImplied(int i) {
    return obsImplied.getBoolean(i);
  }

  /** @return the element cited by observation {@code i} (its run's last element) */
  long observedValue(int i) {
    return obsValue.getLong(i);
  }

  /**
   * Records that a list read of {@code key} shows {@code from}'s appends, the last of which is
   * {@code fromAppend}, right before {@code to}'s, the first of which appended {@code value}; unless
   * an earlier read showed the same successor of {@code fromAppend}.
   */
  void order(int fromAppend, int from, int to, int key, long value) {
    while (successor.size() <= fromAppend) {
      successor.add(-1);
    }
    if (successor.getInt(fromAppend) == to) {
      return;
    }
    successor.set(fromAppend, to);
    orderFrom.add(from);
    orderTo.add(to);
    orderKey.add(key);
    orderValue.add(value);
  }

  /** @return the number of version orders recorded since {@link #clear} */
  int orders() {
    return orderFrom.size();
  }

  /** @return the earlier appender of order {@code i} */
  int orderFrom(int i) {
    return orderFrom.getInt(i);
  }

  /** @return the later appender of order {@code i} */
  int orderTo(int i) {
    return orderTo.getInt(i);
  }

  /** @return the key of order {@code i} */
  int orderKey(int i) {
    return orderKey.getInt(i);
  }

  /** @return the first element the later appender of order {@code i} appended after the earlier one's */
  long orderValue(int i) {
    return orderValue.getLong(i);
  }
}
