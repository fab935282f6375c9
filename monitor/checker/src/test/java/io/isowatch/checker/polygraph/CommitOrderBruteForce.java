package io.isowatch.checker.polygraph;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * The slow literal reference: tries every commit order of the committed transactions and, for each
 * transaction, every prefix of it as the snapshot, applying the definitions word for word (Cerone,
 * Bernardi &amp; Gotsman, CONCUR 2015, §3): <i>serializable</i>, the snapshot is all that commits before;
 * <i>snapshot isolation</i>, a prefix holding every earlier writer of a key the transaction writes;
 * both, holding its session predecessors when asked, and each first read of a key returning the last
 * write of the key in the snapshot, or the initial value. Only for histories whose reads all name a
 * committed transaction's final write or the initial value (the weaker levels judge the others).
 * A transaction of unknown outcome counts as committed when a committed one read from it.
 */
public final class CommitOrderBruteForce {
  private CommitOrderBruteForce() {}

  /** @return whether some commit order satisfies the level; n! orders, for small histories only */
  public static boolean satisfiable(History h, Level level, boolean sessionOrder) {
    List<Integer> committed = new ArrayList<>();
    for (int t = 0; t < h.txnCount(); t++) {
      if (countsAsCommitted(h, t)) {
        committed.add(t);
      }
    }
    return permute(h, level, sessionOrder, new ArrayList<>(), committed);
  }

  private static boolean permute(History h, Level level, boolean so, List<Integer> prefix, List<Integer> rest) {
    if (rest.isEmpty()) {
      return allSeeSnapshots(h, level, so, prefix);
    }
    for (int i = 0; i < rest.size(); i++) {
      List<Integer> p = new ArrayList<>(prefix);
      p.add(rest.get(i));
      List<Integer> r = new ArrayList<>(rest);
      r.remove(i);
      if (permute(h, level, so, p, r)) {
        return true;
      }
    }
    return false;
  }

  private static boolean allSeeSnapshots(History h, Level level, boolean so, List<Integer> co) {
    for (int i = 0; i < co.size(); i++) {
      boolean some = false;
      int from = level == Level.SERIALIZABLE ? i : 0;
      for (int p = from; p <= i && !some; p++) {
        some = snapshotWorks(h, level, so, co, i, co.subList(0, p));
      }
      if (!some) {
        return false;
      }
    }
    return true;
  }

  private static boolean snapshotWorks(History h, Level level, boolean so, List<Integer> co, int i,
      List<Integer> visible) {
    int t = co.get(i);
    if (so) {
      for (int u : h.sessionTxns(h.sessionOf(t))) {
        if (u == t) {
          break;
        }
        if (countsAsCommitted(h, u) && !visible.contains(u)) {
          return false;
        }
      }
    }
    if (level == Level.SNAPSHOT_ISOLATION) {
      for (int j = 0; j < i; j++) {
        if (writesCommonKey(h, co.get(j), t) && !visible.contains(co.get(j))) {
          return false;
        }
      }
    }
    for (int op = h.opStart(t); op < h.opEnd(t); op++) {
      if (h.opKind(op) != OpKind.READ || !firstOnKey(h, t, op)) {
        continue;
      }
      long expected = History.NIL;
      for (int u : visible) {
        long w = finalWrite(h, u, h.opKey(op));
        if (w != Long.MAX_VALUE) {
          expected = w;
        }
      }
      if (expected != h.opValue(op)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Committed, or of unknown outcome and read from by a transaction that counts as committed (it
   * must have committed, or that read is G1a); computed from scratch by repeating until nothing
   * changes.
   */
  public static boolean countsAsCommitted(History h, int t) {
    boolean[] counts = new boolean[h.txnCount()];
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int u = 0; u < h.txnCount(); u++) {
        boolean c = h.status(u) == TxnStatus.COMMITTED
            || (h.status(u) == TxnStatus.UNKNOWN && readByCounted(h, u, counts));
        if (c && !counts[u]) {
          counts[u] = true;
          changed = true;
        }
      }
    }
    return counts[t];
  }

  private static boolean readByCounted(History h, int u, boolean[] counts) {
    for (int r = 0; r < h.txnCount(); r++) {
      if (!counts[r]) {
        continue;
      }
      for (int op = h.opStart(r); op < h.opEnd(r); op++) {
        if (h.opKind(op) == OpKind.READ && h.opValue(op) != History.NIL
            && finalWrite(h, u, h.opKey(op)) == h.opValue(op)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean writesCommonKey(History h, int a, int b) {
    for (int k = 0; k < h.keyCount(); k++) {
      if (finalWrite(h, a, k) != Long.MAX_VALUE && finalWrite(h, b, k) != Long.MAX_VALUE) {
        return true;
      }
    }
    return false;
  }

  /** @return the value of t's last write of k, or Long.MAX_VALUE if it writes none */
  public static long finalWrite(History h, int t, int k) {
    long v = Long.MAX_VALUE;
    for (int op = h.opStart(t); op < h.opEnd(t); op++) {
      if (h.opKind(op) == OpKind.WRITE && h.opKey(op) == k) {
        v = h.opValue(op);
      }
    }
    return v;
  }

  static boolean firstOnKey(History h, int t, int op) {
    for (int o = h.opStart(t); o < op; o++) {
      if (h.opKey(o) == h.opKey(op)) {
        return false;
      }
    }
    return true;
  }
}
