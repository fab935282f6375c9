package io.isowatch.checker.polygraph;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Level;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.Arrays;

/**
 * Commit orders: the one an acyclic choice gives, and the check of a commit order against the
 * level's definition, written from the definition and not from the polygraph, so that a wrong
 * search cannot vouch for itself.
 *
 * <p>"Committed" means what {@link Polygraph#committed} says. The definitions (Cerone, Bernardi &amp; Gotsman, CONCUR 2015, §3, with session order as in their
 * strong session variants; Biswas &amp; Enea, OOPSLA 2019, §3): a commit order {@code co} is a total order
 * of the committed transactions; each transaction {@code T} sees a prefix of {@code co} ending before
 * it (its snapshot). <b>Serializable</b>: the snapshot is everything before {@code T}. <b>Snapshot
 * isolation</b>: the snapshot may be shorter, but holds every transaction before {@code T} that writes a
 * key {@code T} writes (no conflict). Both: it holds {@code T}'s session predecessors (when session
 * order is required), and each external read of {@code T} returns the value of the snapshot's
 * {@code co}-last writer of the key, or the initial value if none.
 */
final class CommitOrders {
  private CommitOrders() {}

  /**
   * A topological order of the level's graph once each constraint takes its side: {@code so ∪ wr ∪
   * ww ∪ rw} for serializable, {@code (so ∪ wr ∪ ww) ; rw?} for snapshot isolation.
   *
   * @param lowerFirst for each constraint, whether its lower node's writes come first
   * @return the history's transaction ids in that order
   * @throws IllegalStateException if the graph has a cycle (the choice was not acyclic)
   */
  static int[] of(Polygraph g, boolean[] lowerFirst, Lifting lifting) {
    int n = g.nodes();
    IntArrayList edges = new IntArrayList();
    for (int e = 0; e < g.knownEdges(); e++) {
      edges.add(e);
    }
    for (int c = 0; c < g.constraints(); c++) {
      g.addAlternative(c, lowerFirst[c], edges);
    }
    ObjectArrayList<IntArrayList> dep = new ObjectArrayList<>();
    ObjectArrayList<IntArrayList> rw = new ObjectArrayList<>();
    for (int v = 0; v < n; v++) {
      dep.add(new IntArrayList());
      rw.add(new IntArrayList());
    }
    for (int i = 0; i < edges.size(); i++) {
      int e = edges.getInt(i);
      boolean anti = lifting == Lifting.SNAPSHOT_ISOLATION && g.type(e) == Polygraph.RW;
      (anti ? rw : dep).get(g.from(e)).add(g.to(e));
    }
    ObjectArrayList<IntArrayList> succ = new ObjectArrayList<>();
    int[] indegree = new int[n];
    for (int a = 0; a < n; a++) {
      IntArrayList s = new IntArrayList();
      IntArrayList d = dep.get(a);
      for (int i = 0; i < d.size(); i++) {
        int b = d.getInt(i);
        s.add(b);
        s.addAll(rw.get(b));
      }
      for (int i = 0; i < s.size(); i++) {
        indegree[s.getInt(i)]++;
      }
      succ.add(s);
    }
    int[] order = new int[n];
    int head = 0;
    int tail = 0;
    for (int v = 0; v < n; v++) {
      if (indegree[v] == 0) {
        order[tail++] = v;
      }
    }
    while (head < tail) {
      IntArrayList s = succ.get(order[head++]);
      for (int i = 0; i < s.size(); i++) {
        if (--indegree[s.getInt(i)] == 0) {
          order[tail++] = s.getInt(i);
        }
      }
    }
    if (tail < n) {
      throw new IllegalStateException("the chosen graph has a cycle");
    }
    for (int i = 0; i < n; i++) {
      order[i] = g.txn(order[i]);
    }
    return order;
  }

  /**
   * Checks a commit order against the level's definition (see the class comment). Reads that the
   * weaker levels' checkers judge (no committed final writer, or not the transaction's first
   * operation on the key) and reads of unknown values are not checked here.
   *
   * @param order the committed transactions' ids, each once
   * @param level snapshot isolation or serializable
   * @return {@code null} if the order satisfies the definition, else what fails, in words
   */
  static String verify(History h, int[] order, Level level, boolean sessionOrder) {
    boolean[] committed = Polygraph.committed(h);
    OpRoles roles = new OpRoles(h);
    int[] pos = new int[h.txnCount()];
    Arrays.fill(pos, -1);
    for (int i = 0; i < order.length; i++) {
      if (!committed[order[i]] || pos[order[i]] >= 0) {
        return "T" + order[i] + " is not a committed transaction listed once";
      }
      pos[order[i]] = i;
    }
    IntArrayList[] writers = new IntArrayList[h.keyCount()];
    for (int k = 0; k < writers.length; k++) {
      writers[k] = new IntArrayList();
    }
    for (int i = 0; i < order.length; i++) {
      int t = order[i];
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        if (h.opKind(op) == OpKind.WRITE && roles.lastWrite(op)) {
          writers[h.opKey(op)].add(i);
        }
      }
    }
    for (int t = 0; t < h.txnCount(); t++) {
      if (committed[t] && pos[t] < 0) {
        return "committed T" + t + " is missing";
      }
    }
    for (int i = 0; i < order.length; i++) {
      int t = order[i];
      int lo = level == Level.SERIALIZABLE ? i : 0;
      int hi = i;
      if (sessionOrder && h.sessionIndex(t) > 0) {
        IntArrayList session = h.sessionTxns(h.sessionOf(t));
        for (int j = h.sessionIndex(t) - 1; j >= 0; j--) {
          int p = session.getInt(j);
          if (committed[p]) {
            if (pos[p] > i) {
              return "T" + p + " precedes T" + t + " in its session but commits after it";
            }
            lo = Math.max(lo, pos[p] + 1);
            break;
          }
        }
      }
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        int k = h.opKey(op);
        if (h.opKind(op) == OpKind.WRITE && roles.lastWrite(op)) {
          int before = lastBefore(writers[k], i);
          if (before >= 0) {
            lo = Math.max(lo, before + 1);
          }
        } else if (h.opKind(op) == OpKind.READ && roles.firstOnKey(op)) {
          long v = h.opValue(op);
          if (v == History.UNKNOWN_VALUE) {
            continue;
          }
          if (v == History.NIL) {
            if (!writers[k].isEmpty()) {
              hi = Math.min(hi, writers[k].getInt(0));
            }
            continue;
          }
          int w = h.writes().writerOf(k, v);
          int wt = w < 0 ? -1 : h.opTxn(w);
          if (wt < 0 || wt == t || !committed[wt] || !roles.lastWrite(w)) {
            continue;
          }
          if (pos[wt] > i) {
            return "T" + t + " reads " + h.keyName(k) + " from T" + wt + ", which commits after it";
          }
          lo = Math.max(lo, pos[wt] + 1);
          int next = firstAfter(writers[k], pos[wt]);
          if (next >= 0) {
            hi = Math.min(hi, next);
          }
        }
      }
      if (lo > hi) {
        return "no snapshot of T" + t + " satisfies its reads, its session and its write conflicts";
      }
    }
    return null;
  }

  private static int lastBefore(IntArrayList sortedPositions, int i) {
    int at = Arrays.binarySearch(sortedPositions.elements(), 0, sortedPositions.size(), i);
    int insertion = at >= 0 ? at : -at - 1;
    return insertion == 0 ? -1 : sortedPositions.getInt(insertion - 1);
  }

  private static int firstAfter(IntArrayList sortedPositions, int i) {
    int at = Arrays.binarySearch(sortedPositions.elements(), 0, sortedPositions.size(), i);
    int next = at >= 0 ? at + 1 : -at - 1;
    return next < sortedPositions.size() ? sortedPositions.getInt(next) : -1;
  }
}
