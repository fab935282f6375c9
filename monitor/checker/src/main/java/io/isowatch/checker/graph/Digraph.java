package io.isowatch.checker.graph;

import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * A directed multigraph on nodes {@code 0..nodeCount()-1}, edges numbered densely in insertion
 * order. Edges are stored as two int lists; out-adjacency is built in compressed sparse row form on
 * first use after the last insertion (adding an edge later rebuilds it). Callers keep edge
 * metadata (type, key, reason) in their own arrays indexed by edge id.
 */
public final class Digraph {
  private final int nodeCount;
  private final IntArrayList from = new IntArrayList();
  private final IntArrayList to = new IntArrayList();
  private int[] outStart;
  private int[] outEdges;

  /**
   * @param nodeCount number of nodes
   * @throws IllegalArgumentException if negative
   */
  public Digraph(int nodeCount) {
    if (nodeCount < 0) {
      throw new IllegalArgumentException("negative node count " + nodeCount);
    }
    this.nodeCount = nodeCount;
  }

  /**
   * Adds the edge {@code from -> to}.
   *
   * @return the edge id
   * @throws IndexOutOfBoundsException if a node is out of range
   */
  public int addEdge(int from, int to) {
    if (from < 0 || from >= nodeCount || to < 0 || to >= nodeCount) {
      throw new IndexOutOfBoundsException("edge " + from + " -> " + to + " outside 0.." + (nodeCount - 1));
    }
    this.from.add(from);
    this.to.add(to);
    outStart = null;
    return this.from.size() - 1;
  }

  /** @return the number of nodes */
  public int nodeCount() {
    return nodeCount;
  }

  /** @return the number of edges */
  public int edgeCount() {
    return from.size();
  }

  /** @return the source of edge {@code e} */
  public int from(int e) {
    return from.getInt(e);
  }

  /** @return the target of edge {@code e} */
  public int to(int e) {
    return to.getInt(e);
  }

  /** @return index of node {@code v}'s first out-edge in {@link #outEdge(int)} */
  public int outStart(int v) {
    index();
    return outStart[v];
  }

  /** @return one past the index of node {@code v}'s last out-edge */
  public int outEnd(int v) {
    index();
    return outStart[v + 1];
  }

  /** @return the edge id at position {@code i} of the out-adjacency (between outStart and outEnd) */
  public int outEdge(int i) {
    return outEdges[i];
  }

  private void index() {
    if (outStart != null) {
      return;
    }
    int m = from.size();
    int[] start = new int[nodeCount + 1];
    for (int e = 0; e < m; e++) {
      start[from.getInt(e) + 1]++;
    }
    for (int v = 0; v < nodeCount; v++) {
      start[v + 1] += start[v];
    }
    int[] fill = new int[nodeCount];
    int[] edges = new int[m];
    for (int e = 0; e < m; e++) {
      int v = from.getInt(e);
      edges[start[v] + fill[v]++] = e;
    }
    outEdges = edges;
    outStart = start;
  }
}
