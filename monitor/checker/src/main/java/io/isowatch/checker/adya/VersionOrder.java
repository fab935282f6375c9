package io.isowatch.checker.adya;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;

/**
 * The version order of every list key, recovered from the reads (Elle, Kingsbury &amp; Alvaro, VLDB
 * 2020, §3: a list read reveals the order of every append before it).
 *
 * <p>What is inferred: the order of a key is the longest list read of it by a committed transaction
 * (on a tie, the least in element-by-element order, so that the guess depends on the reads and not
 * on the order they arrive in: the batch checker and the window's slices then pick the same read),
 * without repeated elements; every other read should be a prefix of it
 * ({@link ReadAnomalies} reports those that are not). Elements appended by aborted transactions and
 * elements nobody appended are left out of the order. Consecutive elements appended by one
 * transaction form one <em>run</em>: the transaction's version of the key (its intermediate appends
 * collapse into its final version). A committed transaction's append that no longest read holds is
 * <em>unobserved</em>: it must come after every observed element (any read holding a later element
 * would hold it too), so it is placed after the last run; unobserved appends are not ordered among
 * themselves. What is not inferred: anything about unobserved appends of transactions whose outcome
 * is unknown (they may never have happened).
 *
 * <p>Memory: two ints per operation plus three ints per run. Time: O(operations + length of the
 * longest read of each key).
 */
final class VersionOrder {
  /** Index value meaning "no such position". */
  static final int NONE = Integer.MAX_VALUE;

  final Scope scope;
  final History h;
  /** Per key: the longest committed list read, or -1. */
  final int[] longest;
  /** Per key: first index in the longest read of a repeated element, of an unknown element, of an aborted append. */
  final int[] firstDup;
  final int[] firstThinAir;
  final int[] firstAborted;
  /** Per append operation: position of its element in the longest read of its key, or -1. */
  final int[] opPos;
  /** Per append operation: the run holding its element, or -1. */
  final int[] opRun;
  /** Runs of key k are {@code keyRunStart[k] .. keyRunStart[k+1]-1}, oldest first. */
  final int[] keyRunStart;
  final IntArrayList runTxn = new IntArrayList();
  final IntArrayList runFirstOp = new IntArrayList();
  final IntArrayList runLastOp = new IntArrayList();
  /** Unobserved appends of key k: {@code keyUnobservedStart[k] .. keyUnobservedStart[k+1]-1}, one per transaction. */
  final int[] keyUnobservedStart;
  /** The first unobserved append operation of each (key, transaction). */
  final int[] unobservedOp;

  VersionOrder(Scope scope) {
    this.scope = scope;
    this.h = scope.history();
    int keys = h.keyCount();
    longest = new int[keys];
    Arrays.fill(longest, -1);
    firstDup = filled(keys);
    firstThinAir = filled(keys);
    firstAborted = filled(keys);
    opPos = new int[h.opCount()];
    opRun = new int[h.opCount()];
    Arrays.fill(opPos, -1);
    Arrays.fill(opRun, -1);
    findLongest();
    keyRunStart = new int[keys + 1];
    for (int k = 0; k < keys; k++) {
      keyRunStart[k] = runTxn.size();
      order(k);
    }
    keyRunStart[keys] = runTxn.size();
    keyUnobservedStart = new int[keys + 1];
    unobservedOp = unobserved();
  }

  private static int[] filled(int n) {
    int[] a = new int[n];
    Arrays.fill(a, NONE);
    return a;
  }

  private void findLongest() {
    for (int t = 0; t < scope.limit(); t++) {
      if (!scope.committed(t)) {
        continue;
      }
      for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
        if (h.opKind(op) == OpKind.READ_LIST && h.listKnown(op)) {
          int k = h.opKey(op);
          if (longest[k] < 0 || preferred(op, longest[k])) {
            longest[k] = op;
          }
        }
      }
    }
  }

  /** @return whether list read {@code a} is longer than {@code b}, or as long and less element by element */
  private boolean preferred(int a, int b) {
    int n = h.listLength(a);
    if (n != h.listLength(b)) {
      return n > h.listLength(b);
    }
    for (int i = 0; i < n; i++) {
      long x = h.listElement(a, i);
      long y = h.listElement(b, i);
      if (x != y) {
        return x < y;
      }
    }
    return false;
  }

  private void order(int k) {
    int r = longest[k];
    if (r < 0) {
      return;
    }
    int start = runTxn.size();
    for (int i = 0, n = h.listLength(r); i < n; i++) {
      int w = writer(k, h.listElement(r, i));
      if (w < 0) {
        firstThinAir[k] = Math.min(firstThinAir[k], i);
        continue;
      }
      if (opPos[w] >= 0) {
        firstDup[k] = Math.min(firstDup[k], i);
        continue;
      }
      opPos[w] = i;
      int t = h.opTxn(w);
      if (h.status(t) == TxnStatus.ABORTED) {
        firstAborted[k] = Math.min(firstAborted[k], i);
        continue;
      }
      int last = runTxn.size() - 1;
      if (last >= start && runTxn.getInt(last) == t) {
        runLastOp.set(last, w);
      } else {
        runTxn.add(t);
        runFirstOp.add(w);
        runLastOp.add(w);
        last++;
      }
      opRun[w] = last;
    }
  }

  /** Collects unobserved appends of committed transactions, grouped by key, one per (key, txn). */
  private int[] unobserved() {
    IntArrayList ops = new IntArrayList();
    for (int t = 0; t < scope.limit(); t++) {
      if (!scope.committed(t)) {
        continue;
      }
      for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
        if (h.opKind(op) == OpKind.APPEND && opPos[op] < 0) {
          ops.add(op);
          keyUnobservedStart[h.opKey(op) + 1]++;
        }
      }
    }
    int keys = h.keyCount();
    for (int k = 0; k < keys; k++) {
      keyUnobservedStart[k + 1] += keyUnobservedStart[k];
    }
    int[] fill = Arrays.copyOf(keyUnobservedStart, keys);
    int[] sorted = new int[ops.size()];
    for (int i = 0; i < ops.size(); i++) {
      int op = ops.getInt(i);
      sorted[fill[h.opKey(op)]++] = op;
    }
    // ops are in transaction order inside each key: keep the first of each (key, txn)
    int[] out = new int[sorted.length];
    int n = 0;
    for (int k = 0; k < keys; k++) {
      int from = keyUnobservedStart[k];
      int to = keyUnobservedStart[k + 1];
      keyUnobservedStart[k] = n;
      for (int i = from; i < to; i++) {
        if (i == from || h.opTxn(sorted[i]) != h.opTxn(sorted[i - 1])) {
          out[n++] = sorted[i];
        }
      }
    }
    keyUnobservedStart[keys] = n;
    return Arrays.copyOf(out, n);
  }

  /** @return the append operation in scope that appended {@code element} to {@code key}, or -1 */
  int writer(int key, long element) {
    int w = h.writes().writerOf(key, element);
    return w >= 0 && scope.contains(h.opTxn(w)) && h.opKind(w) == OpKind.APPEND ? w : -1;
  }

  /** @return whether the list read {@code r} is a prefix of the longest read of its key */
  boolean isPrefixOfLongest(int r) {
    int l = longest[h.opKey(r)];
    int n = h.listLength(r);
    if (n > h.listLength(l)) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (h.listElement(r, i) != h.listElement(l, i)) {
        return false;
      }
    }
    return true;
  }

  /** @return the run after {@code run} in its key, or -1 when it is the last */
  int nextRun(int key, int run) {
    return run + 1 < keyRunStart[key + 1] ? run + 1 : -1;
  }

  /** @return the first run of the key, or -1 when no committed append of it was observed */
  int firstRun(int key) {
    return keyRunStart[key] < keyRunStart[key + 1] ? keyRunStart[key] : -1;
  }

  /** @return the last run of the key, or -1 */
  int lastRun(int key) {
    return keyRunStart[key] < keyRunStart[key + 1] ? keyRunStart[key + 1] - 1 : -1;
  }
}
