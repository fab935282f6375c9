package io.isowatch.checker.adya;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * What the reads and writes of register keys reveal about their version orders, which no read
 * shows directly (Elle, Kingsbury &amp; Alvaro, VLDB 2020, §5, rw-register; Elle's {@code
 * elle.rw-register} namespace for the rules):
 *
 * <ul>
 *   <li>a transaction's <em>version</em> of a key is its last write of it (its intermediate writes
 *       are not versions, Adya §3.1); the versions of a key are those of committed transactions and
 *       those of transactions of unknown outcome that a committed read observed;
 *   <li>an <em>external read</em> is a committed transaction's first operation on a key when that
 *       is a read (a read after the transaction's own write or read of the key reveals nothing about
 *       other transactions);
 *   <li><b>initial state</b>: the initial value ({@link History#NIL}) precedes every version;
 *   <li><b>writes follow reads</b> (Elle's {@code wfr-keys} rule): a transaction whose external read
 *       of a key returned version {@code v} of another transaction and which then wrote the key puts
 *       {@code v} right before its own version. Sound at read committed and above: if its version
 *       came before {@code v}, the writer of {@code v} would reach the reader through a {@code wr}
 *       edge and back through {@code ww} edges, a G1c cycle.
 * </ul>
 *
 * A key's order is <em>recovered</em> when these rules order its versions totally, each next to
 * the one after it: it has at most one version, or the writes-follow-reads pairs chain all of them.
 * Then every edge of Adya's graph over the key is among those {@link DependencyGraph} draws;
 * otherwise only a part is, and a level that forbids cycles with anti-dependencies cannot be passed.
 *
 * <p>Memory: two ints and a byte per operation, plus two ints per external read or version, when
 * the history holds register operations; nothing otherwise. Time: O(operations + keys) (counting
 * sorts by key) plus sorting by value each key's external reads that are not already in value order
 * (O(r log r) for r of them).
 */
final class RegisterVersions {
  private static final int[] EMPTY = new int[0];

  final Scope scope;
  final History h;
  /** Per WRITE operation: its transaction's last write of the key; -1 for other operations. */
  final int[] finalWrite;
  /** Per operation: its index in {@link #versions}, or -1. */
  private final int[] opVersion;
  /** External reads (operation ids) sorted by key, then value, then id. */
  final int[] extReads;
  /** Versions (final write operation ids), sorted by key, then id; of key k from {@code keyStart[k]}. */
  final int[] versions;
  private final int[] keyStart;
  /** Per version: the external read of the key by its own transaction, or -1. */
  private final int[] ownRead;
  /** Per version: the version right before it by writes-follow-reads, or -1. */
  final int[] wfrPred;
  /** Number of keys whose order is not recovered. */
  final int unrecovered;

  RegisterVersions(Scope scope) {
    this.scope = scope;
    this.h = scope.history();
    boolean any = false;
    for (int op = 0, n = h.opCount(); op < n && !any; op++) {
      any = h.opKind(op) == OpKind.READ || h.opKind(op) == OpKind.WRITE;
    }
    if (!any) {
      finalWrite = opVersion = extReads = versions = ownRead = wfrPred = EMPTY;
      keyStart = new int[h.keyCount() + 1];
      unrecovered = 0;
      return;
    }
    finalWrite = new int[h.opCount()];
    opVersion = new int[h.opCount()];
    Arrays.fill(finalWrite, -1);
    Arrays.fill(opVersion, -1);
    boolean[] observed = observed();
    IntArrayList reads = new IntArrayList();
    IntArrayList vs = new IntArrayList();
    IntArrayList own = new IntArrayList();
    Int2IntOpenHashMap first = new Int2IntOpenHashMap();
    Int2IntOpenHashMap last = new Int2IntOpenHashMap();
    for (int t = 0; t < scope.limit(); t++) {
      if (!scope.contains(t)) {
        continue;
      }
      first.clear();
      last.clear();
      for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
        byte kind = h.opKind(op);
        if (kind == OpKind.READ || kind == OpKind.WRITE) {
          first.putIfAbsent(h.opKey(op), op);
          if (kind == OpKind.WRITE) {
            last.put(h.opKey(op), op);
          }
        }
      }
      boolean committed = scope.committed(t);
      for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
        if (h.opKind(op) == OpKind.WRITE) {
          finalWrite[op] = last.get(h.opKey(op));
        } else if (committed && h.opKind(op) == OpKind.READ && first.get(h.opKey(op)) == op
            && h.opValue(op) != History.UNKNOWN_VALUE) {
          reads.add(op);
        }
      }
      if (scope.inGraph(t)) {
        for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
          if (finalWrite[op] == op && (committed || observed[op])) {
            int r = first.get(h.opKey(op));
            vs.add(op);
            own.add(committed && h.opKind(r) == OpKind.READ && h.opValue(r) != History.UNKNOWN_VALUE ? r : -1);
          }
        }
      }
    }
    // Both lists were filled in operation order; a stable counting sort by key keeps that order
    // within a key (O(operations + keys), where a comparison sort was most of this class's time).
    int[] readStart = new int[h.keyCount() + 1];
    int[] readOrder = byKey(i -> h.opKey(reads.getInt(i)), reads.size(), readStart);
    extReads = new int[readOrder.length];
    for (int i = 0; i < extReads.length; i++) {
      extReads[i] = reads.getInt(readOrder[i]);
    }
    sortValuesWithinKeys(readStart);
    keyStart = new int[h.keyCount() + 1];
    int[] versionOrder = byKey(i -> h.opKey(vs.getInt(i)), vs.size(), keyStart);
    versions = new int[vs.size()];
    ownRead = new int[vs.size()];
    for (int i = 0; i < versions.length; i++) {
      versions[i] = vs.getInt(versionOrder[i]);
      ownRead[i] = own.getInt(versionOrder[i]);
      opVersion[versions[i]] = i;
    }
    wfrPred = new int[versions.length];
    for (int i = 0; i < versions.length; i++) {
      wfrPred[i] = predecessor(i);
    }
    int bad = 0;
    for (int k = 0; k < h.keyCount(); k++) {
      bad += recovered(k) ? 0 : 1;
    }
    unrecovered = bad;
  }

  /**
   * A stable counting sort by key.
   *
   * @param keyOf the key of each index {@code 0..n-1}
   * @param starts filled with each key's first position in the result ({@code keyCount + 1} long)
   * @return the indices {@code 0..n-1} ordered by key, then index
   */
  private int[] byKey(IntUnaryOperator keyOf, int n, int[] starts) {
    int[] count = new int[h.keyCount() + 1];
    for (int i = 0; i < n; i++) {
      count[keyOf.applyAsInt(i) + 1]++;
    }
    for (int k = 0; k < h.keyCount(); k++) {
      count[k + 1] += count[k];
    }
    System.arraycopy(count, 0, starts, 0, count.length);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[count[keyOf.applyAsInt(i)]++] = i;
    }
    return out;
  }

  /**
   * Sorts each key's run of {@link #extReads} (sorted by key, then id) by value, keeping the id
   * order among equal values (a stable sort), skipping the runs already in order.
   *
   * @param starts each key's first index in {@link #extReads}, then its length
   */
  private void sortValuesWithinKeys(int[] starts) {
    for (int k = 0; k < h.keyCount(); k++) {
      int from = starts[k];
      int to = starts[k + 1];
      boolean sorted = true;
      for (int i = from + 1; i < to && sorted; i++) {
        sorted = h.opValue(extReads[i - 1]) <= h.opValue(extReads[i]);
      }
      if (!sorted) {
        IntArrays.mergeSort(extReads, from, to, (x, y) -> Long.compare(h.opValue(x), h.opValue(y)));
      }
    }
  }

  /** @return per operation, whether a committed read in scope returned the value it wrote */
  private boolean[] observed() {
    boolean[] seen = new boolean[h.opCount()];
    for (int t = 0; t < scope.limit(); t++) {
      if (!scope.committed(t)) {
        continue;
      }
      for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
        if (h.opKind(op) == OpKind.READ) {
          int w = writer(h.opKey(op), h.opValue(op));
          if (w >= 0) {
            seen[w] = true;
          }
        }
      }
    }
    return seen;
  }

  private int predecessor(int i) {
    int r = ownRead[i];
    if (r < 0 || h.opValue(r) == History.NIL) {
      return -1;
    }
    int w = writer(h.opKey(r), h.opValue(r));
    return w >= 0 && opVersion[w] >= 0 && h.opTxn(w) != h.opTxn(versions[i]) ? opVersion[w] : -1;
  }

  /** Whether the key's versions form one chain of writes-follow-reads pairs (each has at most one predecessor). */
  private boolean recovered(int k) {
    int from = keyStart[k];
    int n = keyStart[k + 1] - from;
    if (n <= 1) {
      return true;
    }
    int[] next = new int[n];
    Arrays.fill(next, -1);
    int root = -1;
    for (int i = from; i < from + n; i++) {
      int p = wfrPred[i];
      if (p < 0) {
        if (root >= 0) {
          return false;
        }
        root = i;
      } else if (next[p - from] >= 0) {
        return false;
      } else {
        next[p - from] = i;
      }
    }
    int seen = 0;
    for (int v = root; v >= 0 && seen <= n; v = next[v - from]) {
      seen++;
    }
    return seen == n;
  }

  /** @return the WRITE operation in scope that wrote {@code value} to {@code key}, or -1 */
  int writer(int key, long value) {
    if (value == History.NIL || value == History.UNKNOWN_VALUE) {
      return -1;
    }
    int w = h.writes().writerOf(key, value);
    return w >= 0 && scope.contains(h.opTxn(w)) && h.opKind(w) == OpKind.WRITE ? w : -1;
  }

  /** @return the first index in {@link #versions} of key {@code k}; the key's end is {@code versionEnd(k)} */
  int versionStart(int k) {
    return keyStart[k];
  }

  /** @return one past the last index in {@link #versions} of key {@code k} */
  int versionEnd(int k) {
    return keyStart[k + 1];
  }

  /** @return the first index in {@link #extReads} of a read of {@code key} returning {@code value} (or where one would be) */
  int firstRead(int key, long value) {
    int lo = 0;
    int hi = extReads.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int r = extReads[mid];
      int c = Integer.compare(h.opKey(r), key);
      c = c != 0 ? c : Long.compare(h.opValue(r), value);
      if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
