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

  /**
   * Adds polygraph edge {@code e} to {@code graph} as its layered edges.
   *
   * @return {@code null} if added; else the labels (polygraph edges) of a cycle, after removing
   *     what of {@code e} was added, so the graph is as before the call
   */
  int[] add(Polygraph g, AcyclicGraph graph, int e) {
    int u = g.from(e);
    int v = g.to(e);
    if (this == SERIALIZABLE) {
      return graph.add(u, v, e);
    }
    if (g.type(e) == Polygraph.RW) {
      return graph.add(2 * u, 2 * v + 1, e);
    }
    int[] cycle = graph.add(2 * u, 2 * v, e);
    if (cycle != null) {
      return cycle;
    }
    cycle = graph.add(2 * u + 1, 2 * v, e);
    if (cycle != null) {
      graph.removeLast();
    }
    return cycle;
  }

  /**
   * Whether adding polygraph edge {@code e} would close a cycle; the graph is not changed.
   *
   * @return {@code null} if not; else the labels of a cycle
   */
  int[] wouldClose(Polygraph g, AcyclicGraph graph, int e) {
    int u = g.from(e);
    int v = g.to(e);
    if (this == SERIALIZABLE) {
      return graph.wouldClose(u, v, e);
    }
    if (g.type(e) == Polygraph.RW) {
      return graph.wouldClose(2 * u, 2 * v + 1, e);
    }
    int[] cycle = graph.wouldClose(2 * u, 2 * v, e);
    return cycle != null ? cycle : graph.wouldClose(2 * u + 1, 2 * v, e);
  }

  /**
   * Adds polygraph edges for good, all at once ({@link AcyclicGraph#addAll}).
   *
   * @return {@code null}, or the labels of a cycle they close (the graph then holds them all and is
   *     of no further use)
   */
  int[] addAll(Polygraph g, AcyclicGraph graph, IntArrayList edges) {
    IntArrayList us = new IntArrayList();
    IntArrayList vs = new IntArrayList();
    IntArrayList labels = new IntArrayList();
    for (int i = 0; i < edges.size(); i++) {
      int e = edges.getInt(i);
      int u = g.from(e);
      int v = g.to(e);
      if (this == SERIALIZABLE) {
        us.add(u);
        vs.add(v);
        labels.add(e);
      } else if (g.type(e) == Polygraph.RW) {
        us.add(2 * u);
        vs.add(2 * v + 1);
        labels.add(e);
      } else {
        us.add(2 * u);
        vs.add(2 * v);
        labels.add(e);
        us.add(2 * u + 1);
        vs.add(2 * v);
        labels.add(e);
      }
    }
    return graph.addAll(us, vs, labels);
  }

  /**
   * A topological order of the layered graph of the known edges, by Kahn's algorithm taking the
   * lowest node first (so, for the history's order, near it), or the nodes in index order if those
   * edges have a cycle (which inserting them then finds).
   */
  int[] initialOrder(Polygraph g) {
    int n = nodes(g.nodes());
    int[] outCount = new int[n + 1];
    int[] indegree = new int[n];
    int edges = 0;
    for (int e = 0; e < g.knownEdges(); e++) {
      edges += edges(g, e);
    }
    int[] src = new int[edges];
    int[] dst = new int[edges];
    int k = 0;
    for (int e = 0; e < g.knownEdges(); e++) {
      int u = g.from(e);
      int v = g.to(e);
      if (this == SERIALIZABLE) {
        src[k] = u;
        dst[k++] = v;
      } else if (g.type(e) == Polygraph.RW) {
        src[k] = 2 * u;
        dst[k++] = 2 * v + 1;
      } else {
        src[k] = 2 * u;
        dst[k++] = 2 * v;
        src[k] = 2 * u + 1;
        dst[k++] = 2 * v;
      }
    }
    for (int i = 0; i < edges; i++) {
      outCount[src[i] + 1]++;
      indegree[dst[i]]++;
    }
    for (int i = 0; i < n; i++) {
      outCount[i + 1] += outCount[i];
    }
    int[] adj = new int[edges];
    int[] fill = outCount.clone();
    for (int i = 0; i < edges; i++) {
      adj[fill[src[i]]++] = dst[i];
    }
    java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
    for (int v = 0; v < n; v++) {
      if (indegree[v] == 0) {
        ready.add(v);
      }
    }
    int[] order = new int[n];
    int done = 0;
    while (!ready.isEmpty()) {
      int v = ready.poll();
      order[done++] = v;
      for (int i = outCount[v]; i < outCount[v + 1]; i++) {
        if (--indegree[adj[i]] == 0) {
          ready.add(adj[i]);
        }
      }
    }
    if (done < n) {
      for (int v = 0; v < n; v++) {
        order[v] = v;
      }
    }
    return order;
  }

  /** @return how many layered edges {@link #add} adds for {@code e} */
  int edges(Polygraph g, int e) {
    return this == SERIALIZABLE || g.type(e) == Polygraph.RW ? 1 : 2;
  }
}
