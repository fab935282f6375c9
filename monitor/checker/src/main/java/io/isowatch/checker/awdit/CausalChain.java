package io.isowatch.checker.awdit;

import io.isowatch.checker.history.History;
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
 * transaction over session predecessors and the committed writers of its reads; O(size of the
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
    IntArrayFIFOQueue queue = new IntArrayFIFOQueue();
    next.put(to, to);
    queue.enqueue(to);
    while (!queue.isEmpty() && !next.containsKey(from)) {
      int t = queue.dequeueInt();
      int idx = h.sessionIndex(t);
      for (int i = idx - 1; i >= 0; i--) {
        int pred = h.sessionTxns(h.sessionOf(t)).getInt(i);
        if (h.status(pred) != TxnStatus.ABORTED) {
          visit(pred, t, -1, next, viaOp, queue);
          break;
        }
      }
      for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
        long v = ReadResolver.observed(h, op);
        if (v == History.NIL || v == History.UNKNOWN_VALUE) {
          continue; // no read, or a read of the initial or an unknown value
        }
        int w = h.writes().writerOf(h.opKey(op), v);
        if (w >= 0 && h.opTxn(w) != t && h.status(h.opTxn(w)) != TxnStatus.ABORTED) {
          visit(h.opTxn(w), t, op, next, viaOp, queue);
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
      edges.add(op < 0
          ? new Edge(t, succ, EdgeType.SO, Because.SESSION_ORDER, -1, History.NIL, -1)
          : new Edge(t, succ, EdgeType.WR, Because.READS_FROM, h.opKey(op), ReadResolver.observed(h, op), -1));
    }
    return Collections.unmodifiableList(edges);
  }

  private static void visit(int t, int succ, int op, Int2IntOpenHashMap next, Int2IntOpenHashMap viaOp,
      IntArrayFIFOQueue queue) {
    if (!next.containsKey(t)) {
      next.put(t, succ);
      viaOp.put(t, op);
      queue.enqueue(t);
    }
  }
}
