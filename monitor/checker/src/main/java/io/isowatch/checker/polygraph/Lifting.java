package io.isowatch.checker.polygraph;

import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * How a level reads the polygraph's edges as edges of the graph that must stay acyclic.
 *
 * <p><b>Serializable</b> (Adya, MIT 1999, §4.3; Cobra, OSDI 2020, §3.1): some choice makes {@code so ∪
 * wr ∪ ww ∪ rw} acyclic; each edge is itself, on nodes {@code 0..n-1}.
 *
 * <p><b>Snapshot isolation</b> (Cerone &amp; Gotsman, PODC 2016, Theorem 9; PolySI, VLDB 2023, §3,
 * Theorem 4): some choice makes {@code (so ∪ wr ∪ ww) ; rw?} acyclic, that is, no cycle of the
 * dependency graph has two consecutive {@code rw} edges once read cyclically. That is tested on a
 * graph of two layers, node {@code 2v} ("entered by a dependency edge, or anywhere") and {@code 2v+1}
 * ("entered by an {@code rw} edge"): a dependency edge {@code u -> v} becomes {@code 2u -> 2v} and
 * {@code 2u+1 -> 2v}; an {@code rw} edge {@code u -> v} becomes {@code 2u -> 2v+1}. A cycle of the
 * layered graph is a closed walk of the dependency graph with no two consecutive {@code rw} edges,
 * hence a cycle of {@code (so ∪ wr ∪ ww) ; rw?}; conversely every such cycle lifts.
 */
enum Lifting {
  /** One layer: every edge as it is. */
  SERIALIZABLE,
  /** Two layers, as above. */
  SNAPSHOT_ISOLATION;

  /** @return nodes of the layered graph for {@code nodes} polygraph nodes */
  int nodes(int nodes) {
    return this == SERIALIZABLE ? nodes : 2 * nodes;
  }

  /** @return how many layered edges stand for polygraph edge {@code e}: 1, or 2 for a dependency edge in two layers */
  int edges(Polygraph g, int e) {
    return this == SERIALIZABLE || g.type(e) == Polygraph.RW ? 1 : 2;
  }

  /** @return the source of layered edge {@code i} ({@code 0 <= i < edges(g, e)}) of polygraph edge {@code e} */
  int from(Polygraph g, int e, int i) {
    return this == SERIALIZABLE ? g.from(e) : 2 * g.from(e) + i;
  }

  /** @return the target of layered edge {@code i} of polygraph edge {@code e} */
  int to(Polygraph g, int e, int i) {
    if (this == SERIALIZABLE) {
      return g.to(e);
    }
    return g.type(e) == Polygraph.RW ? 2 * g.to(e) + 1 : 2 * g.to(e);
  }

  /**
   * Adds polygraph edge {@code e} to {@code graph} as its layered edges.
   *
   * @return {@code null} if added; else the labels (polygraph edges) of a cycle, after removing
   *     what of {@code e} was added, so the graph is as before the call
   */
  int[] add(Polygraph g, AcyclicGraph graph, int e) {
    for (int i = 0, n = edges(g, e); i < n; i++) {
      int[] cycle = graph.add(from(g, e, i), to(g, e, i), e);
      if (cycle != null) {
        for (int k = 0; k < i; k++) {
          graph.removeLast();
        }
        return cycle;
      }
    }
    return null;
  }

  /**
   * Whether adding polygraph edge {@code e} would close a cycle; the graph is not changed.
   *
   * @return {@code null} if not; else the labels of a cycle
   */
  int[] wouldClose(Polygraph g, AcyclicGraph graph, int e) {
    for (int i = 0, n = edges(g, e); i < n; i++) {
      int[] cycle = graph.wouldClose(from(g, e, i), to(g, e, i), e);
      if (cycle != null) {
        return cycle;
      }
    }
    return null;
  }

  /**
   * Adds polygraph edges for good, all at once ({@link AcyclicGraph#addAll}: Kahn's algorithm, ties
   * in the graph's order, so on a new graph the lowest node first, near the history's order).
   *
   * @return {@code null}, or the labels of a cycle they close (the graph then holds them all and is
   *     of no further use)
   */
  int[] addAll(Polygraph g, AcyclicGraph graph, IntArrayList edges) {
    IntArrayList us = new IntArrayList();
    IntArrayList vs = new IntArrayList();
    IntArrayList labels = new IntArrayList();
    for (int k = 0; k < edges.size(); k++) {
      int e = edges.getInt(k);
      for (int i = 0, n = edges(g, e); i < n; i++) {
        us.add(from(g, e, i));
        vs.add(to(g, e, i));
        labels.add(e);
      }
    }
    return graph.addAll(us, vs, labels);
  }
}
