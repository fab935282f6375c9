package io.isowatch.checker.graph;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * Cheapest paths by 0-1 breadth-first search: edges weigh 0 or 1, a path's cost is the sum of its
 * weights, ties broken by fewer edges. Used to find, inside a strongly connected component, the
 * cycle with the fewest inferred or anti-dependency edges (Elle, VLDB 2020, §4.3 searches the
 * shortest cycle of each class the same way).
 *
 * <p>The order (cost, edges) is lexicographic, so it is searched level by level of cost: inside a
 * level, two first-in-first-out queues (nodes entered by a weight-1 edge from the level below, and
 * nodes entered by a weight-0 edge inside the level) are each sorted by edge count, and merging their
 * heads visits the level's nodes in edge-count order, as Dijkstra's algorithm would. The first visit
 * of the target is therefore cheapest. O(nodes + edges) per search; scratch arrays are reused
 * across searches, reset lazily with an epoch stamp.
 */
public final class PathFinder {
  private final Digraph g;
  private final int[] stamp;
  private final long[] dist;
  private final int[] viaEdge;
  private final Queue[] queues = {new Queue(), new Queue(), new Queue()};
  private int epoch;

  /** A first-in-first-out queue of (node, distance) entries on growable primitive arrays. */
  private static final class Queue {
    int[] nodes = new int[64];
    long[] keys = new long[64];
    int head;
    int tail;

    void clear() {
      head = 0;
      tail = 0;
    }

    boolean isEmpty() {
      return head == tail;
    }

    void add(int node, long key) {
      if (tail == nodes.length) {
        nodes = Arrays.copyOf(nodes, 2 * tail);
        keys = Arrays.copyOf(keys, 2 * tail);
      }
      nodes[tail] = node;
      keys[tail++] = key;
    }
  }

  /** @param g the graph; edges added after this call are seen by later searches */
  public PathFinder(Digraph g) {
    this.g = g;
    int n = g.nodeCount();
    stamp = new int[n];
    dist = new long[n];
    viaEdge = new int[n];
  }

  /**
   * Finds the cheapest path from {@code source} to {@code target}.
   *
   * @param allowed which edge ids may be used
   * @param heavy which allowed edges weigh 1 (the others weigh 0)
   * @param component if not null, only nodes {@code v} with {@code component.of(v) == c} are visited
   * @param c the component to stay in, ignored when {@code component} is null
   * @return the edge ids of the path in order (empty when source == target), or null if none
   */
  public int[] cheapestPath(
      int source, int target, IntPredicate allowed, IntPredicate heavy, Components component, int c) {
    if (++epoch == 0) {
      Arrays.fill(stamp, 0);
      epoch = 1;
    }
    // dist encodes cost * 2^32 + hops, so that comparing longs compares (cost, hops)
    Queue entered = queues[0];
    Queue inside = queues[1];
    Queue next = queues[2];
    entered.clear();
    inside.clear();
    next.clear();
    stamp[source] = epoch;
    dist[source] = 0;
    viaEdge[source] = -1;
    entered.add(source, 0);
    boolean found = false;
    while (!found && !entered.isEmpty()) {
      while (!found && !(entered.isEmpty() && inside.isEmpty())) {
        Queue q = inside.isEmpty()
            || (!entered.isEmpty() && entered.keys[entered.head] <= inside.keys[inside.head]) ? entered : inside;
        int v = q.nodes[q.head];
        long dv = q.keys[q.head++];
        if (dv != dist[v]) {
          continue; // a cheaper entry for v came first
        }
        if (v == target) {
          found = true;
          break;
        }
        for (int i = g.outStart(v), end = g.outEnd(v); i < end; i++) {
          int e = g.outEdge(i);
          if (!allowed.test(e)) {
            continue;
          }
          int w = g.to(e);
          if (component != null && component.of(w) != c) {
            continue;
          }
          boolean h = heavy.test(e);
          long dw = dv + (h ? (1L << 32) : 0) + 1;
          if (stamp[w] != epoch || dw < dist[w]) {
            stamp[w] = epoch;
            dist[w] = dw;
            viaEdge[w] = e;
            (h ? next : inside).add(w, dw);
          }
        }
      }
      Queue t = entered;
      entered = next;
      next = t;
      next.clear();
      inside.clear();
    }
    if (stamp[target] != epoch) {
      return null;
    }
    int len = (int) (dist[target] & 0xFFFFFFFFL);
    int[] path = new int[len];
    for (int v = target, i = len - 1; i >= 0; i--) {
      int e = viaEdge[v];
      path[i] = e;
      v = g.from(e);
    }
    return path;
  }

  /**
   * The cheapest cycle through edge {@code e}: {@code e} followed by the cheapest path back.
   *
   * @return the edge ids of the cycle starting with {@code e}, or null if {@code e} is on no cycle
   *     of allowed edges (in the component, when given)
   */
  public int[] cheapestCycleThrough(int e, IntPredicate allowed, IntPredicate heavy, Components component, int c) {
    int[] back = cheapestPath(g.to(e), g.from(e), allowed, heavy, component, c);
    if (back == null) {
      return null;
    }
    int[] cycle = new int[back.length + 1];
    cycle[0] = e;
    System.arraycopy(back, 0, cycle, 1, back.length);
    return cycle;
  }
}
