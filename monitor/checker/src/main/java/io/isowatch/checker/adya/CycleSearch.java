package io.isowatch.checker.adya;

import io.isowatch.checker.graph.Components;
import io.isowatch.checker.graph.Digraph;
import io.isowatch.checker.graph.PathFinder;
import io.isowatch.checker.level.Anomaly;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Finds, in each strongly connected component of the dependency graph, one cycle of each class
 * asked for, each class searched on its own (Adya, MIT 1999, §3–4; Elle, VLDB 2020, §4.3). A
 * cycle's class is read from its edges: G0 has only {@code ww} (and {@code so}) edges; G1c also
 * {@code wr} edges, at least one; G-single exactly one {@code rw}; G-nonadjacent two or more, no two
 * adjacent on the cycle; G2-item two or more, some two adjacent. Every cycle belongs to exactly one
 * class. A class is first searched without {@code so} edges and, only when that finds nothing and
 * session order is on, with them, so a witness holds an {@code so} edge only when it needs one.
 *
 * <ul>
 *   <li>G0, G1c: components of the {@code ww} (resp. non-{@code rw}) subgraph (iterative Tarjan);
 *       a cycle exists iff one of its {@code ww} (resp. {@code wr}) edges lies inside one; the
 *       shortest cycle through the first such edge. O(nodes + edges).
 *   <li>G-single: an {@code rw} edge {@code a -> b} with a non-{@code rw} path {@code b ~> a}, tried
 *       for each {@code rw} edge whose non-{@code rw} components are ordered so that {@code b} may
 *       reach {@code a}. O(edges) per try.
 *   <li>G2-item: two adjacent {@code rw} edges {@code a -> m -> d} and a path {@code d ~> a} avoiding
 *       {@code m}; a 2-cycle {@code a -> m -> a} closes at once. O(edges) per try.
 *   <li>G-nonadjacent: no polynomial method is known (simple cycles avoiding forbidden pairs of
 *       consecutive edges are NP-hard in general): first a breadth-first search per {@code rw} edge
 *       for a closed walk with the property, kept if it is a simple cycle; then a depth-first search
 *       over simple paths from each {@code rw} edge, which is the cycle's first {@code rw} edge by id,
 *       exponential in the worst case.
 * </ul>
 *
 * Tries are made near first ({@link #NEAR} nodes visited per candidate, {@link BoundedBfs}), then
 * without bound, since cycles in real histories are mostly short. All work is bounded per class and
 * component by {@link #BASE_WORK} plus 8 per node and edge of the component, at most {@link #WORK}
 * edge visits; a class whose search ran out is named in {@link #incomplete()} (the verdict is then
 * unknown, not a pass). Within the work the result is exact: a class is found iff some simple cycle
 * of that class exists in the component.
 */
final class CycleSearch {
  /** Edge visits allowed per class and component: at most this many. */
  static final long WORK = 20_000_000L;

  /**
   * Edge visits allowed per class and component: at least this many, plus 8 per node and edge. At
   * 1,000,000 the G-nonadjacent search ran out on 1 of about 10 PostgreSQL REPEATABLE READ
   * write-skew runs of the known-answer suite (200 committed, about 180 aborted transactions); at
   * 8,000,000, none of 8 runs.
   */
  static final long BASE_WORK = 8_000_000L;

  /** Nodes (states) a first, near search visits per candidate edge. */
  static final int NEAR = 64;

  /** A cycle found: its class and its edge ids in order. */
  record Found(Anomaly anomaly, int[] cycle) {}

  private final DependencyGraph dg;
  private final Digraph g;
  private final boolean so;
  private final PathFinder paths;
  private final BoundedBfs bfs;
  private final NonadjacentDfs dfs;
  private final IntPredicate allEdges;
  private final Components full;
  private final Components[] cache = new Components[4];
  private final int[] compEdgeStart;
  private final int[] compEdges;
  private final EnumSet<Anomaly> incomplete = EnumSet.noneOf(Anomaly.class);
  private final List<Found> found = new ArrayList<>();
  private long work;
  private long limit;
  private boolean exhausted;

  private CycleSearch(DependencyGraph dg, boolean so) {
    this.dg = dg;
    this.g = dg.g;
    this.so = so;
    this.paths = new PathFinder(g);
    this.bfs = new BoundedBfs(dg);
    this.allEdges = all(so);
    this.full = Components.of(g, allEdges);
    this.dfs = new NonadjacentDfs(dg, full);
    int m = g.edgeCount();
    compEdgeStart = new int[full.count() + 1];
    for (int e = 0; e < m; e++) {
      if (internal(e)) {
        compEdgeStart[full.of(g.from(e)) + 1]++;
      }
    }
    for (int c = 0; c < full.count(); c++) {
      compEdgeStart[c + 1] += compEdgeStart[c];
    }
    int[] fill = Arrays.copyOf(compEdgeStart, full.count());
    compEdges = new int[compEdgeStart[full.count()]];
    for (int e = 0; e < m; e++) {
      if (internal(e)) {
        compEdges[fill[full.of(g.from(e))]++] = e;
      }
    }
  }

  /**
   * @param so whether {@code so} edges take part
   * @param wanted the cycle classes to search for
   * @return the search, run: {@link #found()} in component order, classes in the order G0, G1c,
   *     G-single, G-nonadjacent, G2-item within a component
   */
  static CycleSearch run(DependencyGraph dg, boolean so, Set<Anomaly> wanted) {
    CycleSearch s = new CycleSearch(dg, so);
    Anomaly[] classes = {Anomaly.G0, Anomaly.G1C, Anomaly.G_SINGLE, Anomaly.G_NONADJACENT, Anomaly.G2_ITEM};
    for (int c = s.full.count() - 1; c >= 0; c--) {
      if (s.compEdgeStart[c] == s.compEdgeStart[c + 1]) {
        continue;
      }
      for (Anomaly a : classes) {
        if (wanted.contains(a)) {
          s.search(a, c);
        }
      }
    }
    return s;
  }

  /** @return the cycles found */
  List<Found> found() {
    return found;
  }

  /** @return the classes whose search ran out of work in some component without finding a cycle */
  Set<Anomaly> incomplete() {
    return incomplete;
  }

  private boolean internal(int e) {
    int a = g.from(e);
    return a != g.to(e) && full.of(a) == full.of(g.to(e)) && allEdges.test(e);
  }

  private IntPredicate all(boolean withSo) {
    return withSo ? e -> true : e -> dg.type(e) != DependencyGraph.SO;
  }

  private IntPredicate nonRw(boolean withSo) {
    return e -> dg.type(e) != DependencyGraph.RW && (withSo || dg.type(e) != DependencyGraph.SO);
  }

  private IntPredicate versionOnly(boolean withSo) {
    return e -> dg.type(e) == DependencyGraph.WW || (withSo && dg.type(e) == DependencyGraph.SO);
  }

  private Components components(boolean nonRw, boolean withSo) {
    int i = (nonRw ? 2 : 0) + (withSo ? 1 : 0);
    if (cache[i] == null) {
      cache[i] = Components.of(g, nonRw ? nonRw(withSo) : versionOnly(withSo));
    }
    return cache[i];
  }

  private void search(Anomaly a, int c) {
    int[] cycle = null;
    work = 0;
    limit = Math.min(WORK, BASE_WORK + 8L * (full.size(c) + compEdgeStart[c + 1] - compEdgeStart[c]));
    for (boolean withSo : so ? new boolean[] {false, true} : new boolean[] {false}) {
      exhausted = false;
      cycle = find(a, c, withSo);
      if (cycle != null) {
        break;
      }
    }
    if (cycle != null) {
      found.add(new Found(a, cycle));
    } else if (exhausted) {
      incomplete.add(a);
    }
  }

  private int[] find(Anomaly a, int c, boolean withSo) {
    switch (a) {
      case G0:
        return throughFirst(c, DependencyGraph.WW, components(false, withSo), versionOnly(withSo));
      case G1C:
        return throughFirst(c, DependencyGraph.WR, components(true, withSo), nonRw(withSo));
      case G_SINGLE:
        return single(c, withSo);
      case G2_ITEM:
        return adjacent(c, withSo);
      default:
        return nonadjacent(c, withSo);
    }
  }

  /** The shortest cycle through the first edge of {@code type} that lies inside a component of {@code sub}. */
  private int[] throughFirst(int c, byte type, Components sub, IntPredicate allowed) {
    for (int i = compEdgeStart[c]; i < compEdgeStart[c + 1]; i++) {
      int e = compEdges[i];
      if (dg.type(e) == type && allowed.test(e) && sub.of(g.from(e)) == sub.of(g.to(e))) {
        return paths.cheapestCycleThrough(e, allowed, x -> false, sub, sub.of(g.from(e)));
      }
    }
    return null;
  }

  /** Charges the last bounded search; false once the work is spent. */
  private boolean spend() {
    work += bfs.visited;
    if (work > limit) {
      exhausted = true;
    }
    return !exhausted;
  }

  private int[] single(int c, boolean withSo) {
    Components sub = components(true, withSo);
    IntPredicate nonRw = nonRw(withSo);
    for (int cap : new int[] {NEAR, Integer.MAX_VALUE}) {
      for (int i = compEdgeStart[c]; i < compEdgeStart[c + 1]; i++) {
        int e = compEdges[i];
        // b can reach a over non-rw edges only if b's component is not below a's (Tarjan numbers sinks first)
        if (dg.type(e) != DependencyGraph.RW || sub.of(g.to(e)) < sub.of(g.from(e))) {
          continue;
        }
        int[] back = bfs.path(g.to(e), g.from(e), nonRw, full, c, -1, cap);
        if (!spend()) {
          return null;
        }
        if (back != null) {
          return prepend(e, back);
        }
      }
    }
    return null;
  }

  private int[] adjacent(int c, boolean withSo) {
    IntPredicate all = all(withSo);
    for (int i = compEdgeStart[c]; i < compEdgeStart[c + 1]; i++) {
      int e1 = compEdges[i];
      for (int j = dg.type(e1) == DependencyGraph.RW ? g.outStart(g.to(e1)) : 0,
          end = dg.type(e1) == DependencyGraph.RW ? g.outEnd(g.to(e1)) : 0; j < end; j++) {
        int e2 = g.outEdge(j);
        if (dg.type(e2) == DependencyGraph.RW && g.to(e2) == g.from(e1)) {
          return new int[] {e1, e2};
        }
      }
    }
    for (int cap : new int[] {NEAR, Integer.MAX_VALUE}) {
      for (int i = compEdgeStart[c]; i < compEdgeStart[c + 1]; i++) {
        int e1 = compEdges[i];
        if (dg.type(e1) != DependencyGraph.RW) {
          continue;
        }
        int a = g.from(e1);
        int m = g.to(e1);
        for (int j = g.outStart(m), end = g.outEnd(m); j < end; j++) {
          int e2 = g.outEdge(j);
          int d = g.to(e2);
          if (dg.type(e2) != DependencyGraph.RW || d == m || d == a || full.of(d) != c) {
            continue;
          }
          int[] back = bfs.path(d, a, all, full, c, m, cap);
          if (!spend()) {
            return null;
          }
          if (back != null) {
            return prepend(e1, prepend(e2, back));
          }
        }
      }
    }
    return null;
  }

  private static int[] prepend(int e, int[] rest) {
    int[] out = new int[rest.length + 1];
    out[0] = e;
    System.arraycopy(rest, 0, out, 1, rest.length);
    return out;
  }

  private int[] nonadjacent(int c, boolean withSo) {
    IntPredicate all = all(withSo);
    for (int i = compEdgeStart[c]; i < compEdgeStart[c + 1]; i++) {
      int e0 = compEdges[i];
      if (dg.type(e0) == DependencyGraph.RW) {
        int[] walk = bfs.nonadjacentWalk(e0, all, full, c, 4 * NEAR);
        if (!spend()) {
          return null;
        }
        if (walk != null && simple(walk)) {
          return walk;
        }
      }
    }
    for (int i = compEdgeStart[c]; i < compEdgeStart[c + 1]; i++) {
      int e0 = compEdges[i];
      if (dg.type(e0) == DependencyGraph.RW) {
        int[] cycle = dfs.cycleFrom(e0, all, limit - work);
        work += dfs.steps;
        if (cycle == NonadjacentDfs.OUT_OF_WORK) {
          exhausted = true;
          return null;
        }
        if (cycle != null) {
          return cycle;
        }
      }
    }
    return null;
  }

  private boolean simple(int[] cycle) {
    for (int i = 0; i < cycle.length; i++) {
      for (int j = i + 1; j < cycle.length; j++) {
        if (g.from(cycle[i]) == g.from(cycle[j])) {
          return false;
        }
      }
    }
    return true;
  }
}
