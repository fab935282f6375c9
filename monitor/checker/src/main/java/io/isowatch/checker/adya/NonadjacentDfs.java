package io.isowatch.checker.adya;

import io.isowatch.checker.graph.Components;
import io.isowatch.checker.graph.Digraph;
import java.util.function.IntPredicate;

/**
 * The exact search for G-nonadjacent cycles: a depth-first search over simple paths inside one
 * strongly connected component, with explicit stacks (no recursion). Finding a simple cycle that
 * avoids given pairs of consecutive edges is NP-hard in general (Szeider, 2003, for paths avoiding
 * forbidden transitions), so the search is exponential in the worst case and its steps are bounded
 * by the caller. Scratch: one boolean and four ints per node, allocated on first use.
 */
final class NonadjacentDfs {
  /** Returned when the steps ran out before the search finished. */
  static final int[] OUT_OF_WORK = new int[0];

  private final DependencyGraph dg;
  private final Digraph g;
  private final Components full;
  private boolean[] onPath;
  private int[] stackNode;
  private int[] stackPos;
  private int[] stackEdge;
  private int[] stackRw;
  /** Edge visits of the last search. */
  long steps;

  NonadjacentDfs(DependencyGraph dg, Components full) {
    this.dg = dg;
    this.g = dg.g;
    this.full = full;
  }

  /**
   * Depth-first search over simple paths {@code b ~> a} closing {@code e0 = a -> b} into a cycle
   * whose {@code rw} edges are pairwise non-adjacent, at least two, {@code e0} the one of least id.
   *
   * @param maxSteps edge visits allowed; {@link #steps} tells how many were made
   * @return the cycle's edges starting with {@code e0}, null if none, {@link #OUT_OF_WORK} if the
   *     steps ran out
   */
  int[] cycleFrom(int e0, IntPredicate allowed, long maxSteps) {
    if (onPath == null) {
      int n = g.nodeCount();
      onPath = new boolean[n];
      stackNode = new int[n + 1];
      stackPos = new int[n + 1];
      stackEdge = new int[n + 1];
      stackRw = new int[n + 1];
    }
    steps = 0;
    int a = g.from(e0);
    int b = g.to(e0);
    int depth = 0;
    stackNode[0] = b;
    stackPos[0] = g.outStart(b);
    stackEdge[0] = e0;
    stackRw[0] = 1; // rw edges on the path so far; the last one was rw iff stackEdge is rw
    onPath[a] = true;
    onPath[b] = true;
    int[] result = null;
    while (depth >= 0 && result == null) {
      int v = stackNode[depth];
      if (stackPos[depth] == g.outEnd(v)) {
        onPath[v] = false;
        depth--;
        continue;
      }
      int e = g.outEdge(stackPos[depth]++);
      if (++steps > maxSteps) {
        result = OUT_OF_WORK;
        break;
      }
      int w = g.to(e);
      if (!allowed.test(e) || full.of(w) != full.of(a)) {
        continue;
      }
      boolean rw = dg.type(e) == DependencyGraph.RW;
      if (rw && (dg.type(stackEdge[depth]) == DependencyGraph.RW || e < e0)) {
        continue;
      }
      int count = stackRw[depth] + (rw ? 1 : 0);
      if (w == a) {
        if (!rw && count >= 2) {
          result = new int[depth + 2];
          for (int i = 0; i <= depth; i++) {
            result[i] = stackEdge[i];
          }
          result[depth + 1] = e;
        }
        continue;
      }
      if (onPath[w]) {
        continue;
      }
      depth++;
      stackNode[depth] = w;
      stackPos[depth] = g.outStart(w);
      stackEdge[depth] = e;
      stackRw[depth] = count;
      onPath[w] = true;
    }
    for (int i = 0; i <= depth; i++) {
      onPath[stackNode[i]] = false;
    }
    onPath[a] = false;
    return result;
  }
}
