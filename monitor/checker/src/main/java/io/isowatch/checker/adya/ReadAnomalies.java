package io.isowatch.checker.adya;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.ForbiddenAnomalies;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The anomalies of a list-append history that need no cycle: per committed list read, incompatible
 * order, duplicate elements, thin-air elements, aborted read (G1a), intermediate read (G1b),
 * internal inconsistency and future read (Elle, VLDB 2020, §4; Adya, MIT 1999, §3 for G1a/G1b);
 * per key and version, lost update (Berenson et al., SIGMOD 1995, P4); per key, dirty update (a
 * committed append right after an aborted one in the version order, Elle §4). Register reads are
 * checked in the same pass by {@link RegisterReads}, and lost updates on register keys (same value
 * read, then written) are found with those on list keys.
 *
 * <p>Each witness lists first the operation that the violation is about (the offending read, or
 * the committed append of a dirty update), then the operations that show it. Reads that are
 * prefixes of their key's longest read are checked against that read's precomputed first bad
 * positions, so the cost is O(operations + total length of non-prefix reads · log), plus, for the
 * checks inside one transaction (internal, future read, lost update), O(k^2) for a transaction of k
 * operations (list-append transactions are short: Elle's workloads use a handful of operations).
 */
final class ReadAnomalies {
  /** Transactions up to this many operations take the lost-update scan; longer ones the hash maps. */
  private static final int SHORT_TXN = 32;

  private final VersionOrder vo;
  private final RegisterVersions rv;
  private final History h;
  private final Scope scope;
  private final boolean thinAir;
  private final List<Violation> out = new ArrayList<>();

  private ReadAnomalies(VersionOrder vo, RegisterVersions rv, boolean thinAir) {
    this.vo = vo;
    this.rv = rv;
    this.h = vo.h;
    this.scope = vo.scope;
    this.thinAir = thinAir;
  }

  /**
   * @param thinAir whether to report elements nobody appended (off while transactions may still
   *     arrive, in the incremental form)
   * @param rv what the register operations reveal; their reads are checked by {@link RegisterReads}
   * @return the violations, per read in history order, then lost updates (list and register keys),
   *     then dirty updates
   */
  static List<Violation> find(VersionOrder vo, RegisterVersions rv, boolean thinAir) {
    ReadAnomalies a = new ReadAnomalies(vo, rv, thinAir);
    for (int t = 0; t < a.scope.limit(); t++) {
      if (!a.scope.committed(t)) {
        continue;
      }
      // a long transaction finds each register operation's predecessor on its key through a map,
      // a short one by scanning back (RegisterReads.previous): the scan is quadratic in the length
      Int2IntOpenHashMap lastOnKey = a.h.opEnd(t) - a.h.opStart(t) > SHORT_TXN ? new Int2IntOpenHashMap() : null;
      if (lastOnKey != null) {
        lastOnKey.defaultReturnValue(-1);
      }
      for (int r = a.h.opStart(t), end = a.h.opEnd(t); r < end; r++) {
        byte kind = a.h.opKind(r);
        if (kind == OpKind.READ_LIST && a.h.listKnown(r)) {
          a.read(t, r);
        } else if (kind == OpKind.READ && a.h.opValue(r) != History.UNKNOWN_VALUE) {
          int prev = lastOnKey != null ? lastOnKey.get(a.h.opKey(r)) : RegisterReads.previous(a.h, t, r);
          RegisterReads.check(rv, thinAir, t, r, prev, a.out);
        }
        if (lastOnKey != null && (kind == OpKind.READ || kind == OpKind.WRITE)) {
          lastOnKey.put(a.h.opKey(r), r);
        }
      }
    }
    a.lostUpdates();
    for (int k = 0; k < a.h.keyCount(); k++) {
      a.dirtyUpdates(k);
    }
    return a.out;
  }

  private void report(Anomaly anomaly, List<Integer> txns, List<Integer> ops) {
    out.add(new Violation(anomaly, ForbiddenAnomalies.weakestForbidding(anomaly), new Witness(txns, ops, List.of())));
  }

  private void read(int t, int r) {
    int k = h.opKey(r);
    int n = h.listLength(r);
    int longest = vo.longest[k];
    boolean prefix = longest == r || vo.isPrefixOfLongest(r);
    if (!prefix) {
      report(Anomaly.INCOMPATIBLE_ORDER, List.of(t, h.opTxn(longest)), List.of(r, longest));
    }
    if (prefix ? n > vo.firstDup[k] : hasDuplicates(r)) {
      report(Anomaly.DUPLICATE_ELEMENTS, List.of(t), List.of(r));
    }
    int thin = prefix ? (n > vo.firstThinAir[k] ? vo.firstThinAir[k] : -1) : firstIndex(r, -1);
    if (thinAir && thin >= 0) {
      report(Anomaly.THIN_AIR_READ, List.of(t), List.of(r));
    }
    int aborted = prefix ? (n > vo.firstAborted[k] ? vo.firstAborted[k] : -1) : firstIndex(r, 1);
    if (aborted >= 0) {
      int w = vo.writer(k, h.listElement(r, aborted));
      report(Anomaly.ABORTED_READ, List.of(t, h.opTxn(w)), List.of(r, w));
    }
    intermediate(t, r, k, n);
    internal(t, r, k, n);
    future(t, r, k, n, prefix);
  }

  private boolean hasDuplicates(int r) {
    long[] a = new long[h.listLength(r)];
    for (int i = 0; i < a.length; i++) {
      a[i] = h.listElement(r, i);
    }
    Arrays.sort(a);
    for (int i = 1; i < a.length; i++) {
      if (a[i] == a[i - 1]) {
        return true;
      }
    }
    return false;
  }

  /** @return first index of an element nobody appended (want -1) or appended by an aborted txn (want 1), or -1 */
  private int firstIndex(int r, int want) {
    int k = h.opKey(r);
    for (int i = 0, n = h.listLength(r); i < n; i++) {
      int w = vo.writer(k, h.listElement(r, i));
      if (want < 0 ? w < 0 : w >= 0 && h.status(h.opTxn(w)) == TxnStatus.ABORTED) {
        return i;
      }
    }
    return -1;
  }

  /** G1b: the read ends in another transaction's append that is not its last append to the key. */
  private void intermediate(int t, int r, int k, int n) {
    if (n == 0) {
      return;
    }
    int w = vo.writer(k, h.listElement(r, n - 1));
    if (w < 0 || h.opTxn(w) == t || !scope.inGraph(h.opTxn(w))) {
      return;
    }
    int last = w;
    for (int o = w + 1, end = h.opEnd(h.opTxn(w)); o < end; o++) {
      if (h.opKind(o) == OpKind.APPEND && h.opKey(o) == k) {
        last = o;
      }
    }
    if (last != w) {
      report(Anomaly.INTERMEDIATE_READ, List.of(t, h.opTxn(w)), List.of(r, w, last));
    }
  }

  /**
   * Internal consistency (Elle §4; Cerone, Bernardi &amp; Gotsman, CONCUR 2015, INT): the read must
   * equal the transaction's previous read of the key followed by its appends since, or, with no
   * previous read, end with its appends so far. A read that does not end with the appends since is
   * {@link Anomaly#INTERNAL} (it disagrees with its own writes); one that ends with them but whose
   * rest differs from the previous read is a {@link Anomaly#NON_REPEATABLE_READ} (the key changed
   * under it between two of its reads). Witness: the read, then the previous read if any, then the
   * appends since, in program order.
   */
  private void internal(int t, int r, int k, int n) {
    IntArrayList appends = new IntArrayList(0);
    int prev = -1;
    for (int o = r - 1; o >= h.opStart(t); o--) {
      if (h.opKey(o) != k) {
        continue;
      }
      if (h.opKind(o) == OpKind.APPEND) {
        appends.add(o);
      } else if (h.opKind(o) == OpKind.READ_LIST) {
        prev = h.listKnown(o) ? o : -2;
        break;
      }
    }
    if (prev == -2 || (prev < 0 && appends.isEmpty())) {
      return;
    }
    int m = appends.size();
    boolean ownWrites = n >= m;
    for (int i = 0; ownWrites && i < m; i++) {
      ownWrites = h.listElement(r, n - m + i) == h.opValue(appends.getInt(m - 1 - i));
    }
    boolean repeated = true;
    if (ownWrites && prev >= 0) {
      repeated = n - m == h.listLength(prev);
      for (int i = 0; repeated && i < n - m; i++) {
        repeated = h.listElement(r, i) == h.listElement(prev, i);
      }
    }
    if (ownWrites && repeated) {
      return;
    }
    List<Integer> ops = new ArrayList<>();
    ops.add(r);
    if (prev >= 0) {
      ops.add(prev);
    }
    for (int i = appends.size() - 1; i >= 0; i--) {
      ops.add(appends.getInt(i));
    }
    report(ownWrites ? Anomaly.NON_REPEATABLE_READ : Anomaly.INTERNAL, List.of(t), ops);
  }

  /** Future read: the read holds an element its own transaction appends only later. */
  private void future(int t, int r, int k, int n, boolean prefix) {
    for (int a = r + 1, end = h.opEnd(t); a < end; a++) {
      if (h.opKind(a) != OpKind.APPEND || h.opKey(a) != k) {
        continue;
      }
      boolean seen = false;
      if (prefix) {
        seen = vo.opPos[a] >= 0 && vo.opPos[a] < n;
      } else {
        for (int i = 0; i < n && !seen; i++) {
          seen = h.listElement(r, i) == h.opValue(a);
        }
      }
      if (seen) {
        report(Anomaly.FUTURE_READ, List.of(t), List.of(r, a));
        return;
      }
    }
  }

  /**
   * Lost update: two or more committed transactions whose first operation on a key is a read of
   * the same version (same last element, or both empty; for a register, the same value, or both
   * the initial value) and that later append to (write) the key. This needs no version order, so it
   * is found on register keys as on list keys.
   */
  private void lostUpdates() {
    IntArrayList reads = new IntArrayList();
    IntArrayList appends = new IntArrayList();
    for (int t = 0; t < scope.limit(); t++) {
      if (!scope.committed(t)) {
        continue;
      }
      if (h.opEnd(t) - h.opStart(t) > SHORT_TXN) {
        readThenWriteLong(t, reads, appends);
        continue;
      }
      for (int r = h.opStart(t), end = h.opEnd(t); r < end; r++) {
        byte write = writeKind(r);
        if (write < 0 || !firstOnKey(t, r)) {
          continue;
        }
        for (int a = r + 1; a < end; a++) {
          if (h.opKind(a) == write && h.opKey(a) == h.opKey(r)) {
            reads.add(r);
            appends.add(a);
            break;
          }
        }
      }
    }
    Integer[] idx = new Integer[reads.size()];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    Arrays.sort(idx, (x, y) -> {
      int rx = reads.getInt(x);
      int ry = reads.getInt(y);
      int c = Integer.compare(h.opKey(rx), h.opKey(ry));
      c = c != 0 ? c : Byte.compare(h.opKind(rx), h.opKind(ry));
      if (c == 0) {
        c = Long.compare(version(rx), version(ry));
      }
      return c != 0 ? c : Integer.compare(rx, ry);
    });
    for (int i = 0; i < idx.length; ) {
      int j = i + 1;
      int ri = reads.getInt(idx[i]);
      while (j < idx.length && h.opKey(reads.getInt(idx[j])) == h.opKey(ri)
          && h.opKind(reads.getInt(idx[j])) == h.opKind(ri) && version(reads.getInt(idx[j])) == version(ri)) {
        j++;
      }
      if (j - i >= 2) {
        List<Integer> txns = new ArrayList<>();
        List<Integer> ops = new ArrayList<>();
        for (int x = i; x < j; x++) {
          txns.add(h.opTxn(reads.getInt(idx[x])));
          ops.add(reads.getInt(idx[x]));
          ops.add(appends.getInt(idx[x]));
        }
        report(Anomaly.LOST_UPDATE, txns, ops);
      }
      i = j;
    }
  }

  /**
   * The pairs of {@link #lostUpdates} for a long transaction, in O(operations) with two hash maps
   * instead of the short path's scans, which are quadratic in the transaction's length (a single
   * reader of 10^6 keys): a backward pass finds each operation's next write and next append of its
   * key, a forward pass keeps the reads that are their key's first operation. Same pairs, same order.
   */
  private void readThenWriteLong(int t, IntArrayList reads, IntArrayList appends) {
    int start = h.opStart(t);
    int end = h.opEnd(t);
    int[] next = new int[end - start];
    Int2IntOpenHashMap nextWrite = new Int2IntOpenHashMap();
    Int2IntOpenHashMap nextAppend = new Int2IntOpenHashMap();
    nextWrite.defaultReturnValue(-1);
    nextAppend.defaultReturnValue(-1);
    for (int o = end - 1; o >= start; o--) {
      byte write = writeKind(o);
      int key = h.opKey(o);
      next[o - start] = write == OpKind.WRITE ? nextWrite.get(key) : write == OpKind.APPEND ? nextAppend.get(key) : -1;
      if (h.opKind(o) == OpKind.WRITE) {
        nextWrite.put(key, o);
      } else if (h.opKind(o) == OpKind.APPEND) {
        nextAppend.put(key, o);
      }
    }
    IntOpenHashSet seen = new IntOpenHashSet();
    for (int r = start; r < end; r++) {
      boolean first = seen.add(h.opKey(r));
      if (first && next[r - start] >= 0) {
        reads.add(r);
        appends.add(next[r - start]);
      }
    }
  }

  private boolean firstOnKey(int t, int r) {
    for (int o = h.opStart(t); o < r; o++) {
      if (h.opKey(o) == h.opKey(r)) {
        return false;
      }
    }
    return true;
  }

  /** @return the write kind that updates what read {@code r} saw, or -1 for an unknown result */
  private byte writeKind(int r) {
    if (h.opKind(r) == OpKind.READ_LIST && h.listKnown(r)) {
      return OpKind.APPEND;
    }
    return h.opKind(r) == OpKind.READ && h.opValue(r) != History.UNKNOWN_VALUE ? OpKind.WRITE : -1;
  }

  private long version(int r) {
    if (h.opKind(r) == OpKind.READ) {
      return h.opValue(r);
    }
    int n = h.listLength(r);
    return n == 0 ? History.NIL : h.listElement(r, n - 1);
  }

  /** Dirty update: in the version order, a committed append follows an aborted one (with only appends of unknown outcome between). */
  private void dirtyUpdates(int k) {
    int l = vo.longest[k];
    if (l < 0 || vo.firstAborted[k] == VersionOrder.NONE) {
      return;
    }
    int aborted = -1;
    for (int i = 0, n = h.listLength(l); i < n; i++) {
      int w = vo.writer(k, h.listElement(l, i));
      if (w < 0 || vo.opPos[w] != i) {
        continue;
      }
      TxnStatus s = h.status(h.opTxn(w));
      if (s == TxnStatus.ABORTED) {
        aborted = w;
      } else if (s == TxnStatus.COMMITTED && aborted >= 0) {
        report(Anomaly.DIRTY_UPDATE, List.of(h.opTxn(w), h.opTxn(aborted)), List.of(w, aborted, l));
        aborted = -1;
      }
    }
  }
}
