package io.isowatch.checker.awdit;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.EdgeType;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayFIFOQueue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Finds a path of {@code so} and {@code wr} edges between two transactions, to show why one is in
 * the other's causal past ({@code (so ∪ wr)+}, Biswas &amp; Enea, OOPSLA 2019, §3): the support
 * of a {@link Because#CAUSAL_PAST} edge in a witness. Breadth-first search backwards from the later
 * transaction over session predecessors and the committed writers of its reads (of every element of
 * a list read, each observed, as {@link ElementReads} says); O(size of the
 * causal past) per call, run only when a witness is built.
 */
final class CausalChain {
  private CausalChain() {}

  /**
   * @param h the history
   * @param from a transaction in the causal past of {@code to}
   * @param to the later transaction
   * @return the shortest path's edges from {@code from} to {@code to}, or an empty list if none is
   *     found
   */
  static List<Edge> path(History h, int from, int to) {
    Int2IntOpenHashMap next = new Int2IntOpenHashMap(); // txn -> successor on the path to `to`
    Int2IntOpenHashMap viaOp = new Int2IntOpenHashMap(); // txn -> read op of the successor, -1 for so
    Int2IntOpenHashMap viaElement = new Int2IntOpenHashMap(); // txn -> position in a list read
    IntArrayFIFOQueue queue = new IntArrayFIFOQueue();
    next.put(to, to);
    queue.enqueue(to);
    while (!queue.isEmpty() && !next.containsKey(from)) {
      int t = queue.dequeueInt();
      int idx = h.sessionIndex(t);
      for (int i = idx - 1; i >= 0; i--) {
        int pred = h.sessionTxns(h.sessionOf(t)).getInt(i);
        if (h.status(pred) != TxnStatus.ABORTED) {
          visit(pred, t, -1, 0, next, viaOp, viaElement, queue);
          break;
        }
      }
      for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
        long v = ReadResolver.observed(h, op);
        if (v == History.NIL || v == History.UNKNOWN_VALUE) {
          continue; // no read, or a read of the initial or an unknown value
        }
        int n = h.opKind(op) == OpKind.READ_LIST ? h.listLength(op) : 1;
        for (int i = 0; i < n; i++) { // a list read observes every element's append
          long e = h.opKind(op) == OpKind.READ_LIST ? h.listElement(op, i) : v;
          int w = h.writes().writerOf(h.opKey(op), e);
          if (w >= 0 && h.opTxn(w) != t && h.status(h.opTxn(w)) != TxnStatus.ABORTED) {
            visit(h.opTxn(w), t, op, i, next, viaOp, viaElement, queue);
          }
        }
      }
    }
    if (!next.containsKey(from)) {
      return List.of();
    }
    List<Edge> edges = new ArrayList<>();
    for (int t = from; t != to; t = next.get(t)) {
      int succ = next.get(t);
      int op = viaOp.get(t);
      long value = op < 0 ? History.NIL : h.opKind(op) == OpKind.READ_LIST
          ? h.listElement(op, viaElement.get(t)) : ReadResolver.observed(h, op);
      edges.add(op < 0
          ? new Edge(t, succ, EdgeType.SO, Because.SESSION_ORDER, -1, History.NIL, -1)
          : new Edge(t, succ, EdgeType.WR, Because.READS_FROM, h.opKey(op), value, -1));
    }
    return Collections.unmodifiableList(edges);
  }

  private static void visit(int t, int succ, int op, int element, Int2IntOpenHashMap next,
      Int2IntOpenHashMap viaOp, Int2IntOpenHashMap viaElement, IntArrayFIFOQueue queue) {
    if (!next.containsKey(t)) {
      next.put(t, succ);
      viaOp.put(t, op);
      viaElement.put(t, element);
      queue.enqueue(t);
    }
  }
}
