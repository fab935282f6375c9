package io.isowatch.checker.adya;

import io.isowatch.checker.graph.Components;
import io.isowatch.checker.graph.Digraph;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * Breadth-first searches inside one strongly connected component that stop after a given number
 * of visited states, so that a cycle search can first look near each candidate edge and only then
 * far (cycles in real histories are mostly short). Two searches: a shortest path, and a shortest
 * walk whose anti-dependency ({@code rw}) edges are pairwise non-adjacent and at least {@code
 * minRw}, on the product of nodes with (last edge was {@code rw}, {@code rw} count capped at 2).
 * O(visits + their out-edges) per search; scratch arrays of 4 ints per node, reset by epoch stamps.
 */
final class BoundedBfs {
  private final Digraph g;
  private final DependencyGraph dg;
  private int[] stamp;
  private int[] via;
  private int[] parent;
  private int[] queue;
  private int epoch;
  /** Edge visits of the last search. */
  long visited;

  BoundedBfs(DependencyGraph dg) {
    this.dg = dg;
    this.g = dg.g;
  }

  private void reset(int states) {
    if (stamp == null || stamp.length < states) {
      stamp = new int[states];
      via = new int[states];
      parent = new int[states];
      queue = new int[states];
      epoch = 0;
    }
    if (++epoch == 0) {
      Arrays.fill(stamp, 0);
      epoch = 1;
    }
    visited = 0;
  }

  /**
   * @return the edges of a shortest path {@code source ~> target} over allowed edges whose target
   *     is in component {@code c} of {@code comp} and is not {@code avoid}, or null if none was
   *     found within {@code maxNodes} visited nodes
   */
  int[] path(int source, int target, IntPredicate allowed, Components comp, int c, int avoid, int maxNodes) {
    reset(g.nodeCount());
    int head = 0;
    int tail = 0;
    stamp[source] = epoch;
    via[source] = -1;
    queue[tail++] = source;
    while (head < tail && head < maxNodes) {
      int v = queue[head++];
      for (int i = g.outStart(v), end = g.outEnd(v); i < end; i++) {
        int e = g.outEdge(i);
        int w = g.to(e);
        visited++;
        if (stamp[w] == epoch || w == avoid || comp.of(w) != c || !allowed.test(e)) {
          continue;
        }
        stamp[w] = epoch;
        via[w] = e;
        parent[w] = v;
        if (w == target) {
          return trace(w, source);
        }
        queue[tail++] = w;
      }
    }
    return null;
  }

  /**
   * A shortest walk that closes {@code e0 = a -> b} (an {@code rw} edge) into a closed walk with at
   * least two {@code rw} edges, no two adjacent, counting the wrap from the last edge to {@code e0}.
   *
   * @return the closed walk's edges starting with {@code e0}, or null if none within {@code
   *     maxStates} visited states; the walk may repeat nodes
   */
  int[] nonadjacentWalk(int e0, IntPredicate allowed, Components comp, int c, int maxStates) {
    reset(4 * g.nodeCount());
    int a = g.from(e0);
    int start = state(g.to(e0), true, 1);
    int head = 0;
    int tail = 0;
    stamp[start] = epoch;
    via[start] = -1;
    queue[tail++] = start;
    while (head < tail && head < maxStates) {
      int s = queue[head++];
      int v = s >> 2;
      boolean lastRw = (s & 2) != 0;
      int count = (s & 1) + 1;
      for (int i = g.outStart(v), end = g.outEnd(v); i < end; i++) {
        int e = g.outEdge(i);
        int w = g.to(e);
        visited++;
        boolean rw = dg.type(e) == DependencyGraph.RW;
        if ((rw && lastRw) || comp.of(w) != c || !allowed.test(e)) {
          continue;
        }
        int next = state(w, rw, Math.min(2, count + (rw ? 1 : 0)));
        if (stamp[next] == epoch) {
          continue;
        }
        stamp[next] = epoch;
        via[next] = e;
        parent[next] = s;
        if (w == a && !rw && count >= 2) {
          int[] rest = trace(next, start);
          int[] walk = new int[rest.length + 1];
          walk[0] = e0;
          System.arraycopy(rest, 0, walk, 1, rest.length);
          return walk;
        }
        if (w != a) {
          queue[tail++] = next;
        }
      }
    }
    return null;
  }

  private static int state(int node, boolean lastRw, int count) {
    return node << 2 | (lastRw ? 2 : 0) | (count - 1);
  }

  /** Follows {@code parent} back from state {@code s} to {@code source}: the edges in order. */
  private int[] trace(int s, int source) {
    int len = 0;
    for (int x = s; x != source; x = parent[x]) {
      len++;
    }
    int[] path = new int[len];
    for (int x = s, i = len - 1; i >= 0; x = parent[x], i--) {
      path[i] = via[x];
    }
    return path;
  }
}
