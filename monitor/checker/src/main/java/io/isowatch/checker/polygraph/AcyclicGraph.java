package io.isowatch.checker.polygraph;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;

/**
 * A digraph kept acyclic under edge insertions and last-in-first-out removals, with a topological
 * order maintained by Pearce &amp; Kelly's algorithm ("A dynamic topological sort algorithm for
 * directed acyclic graphs", ACM JEA 11, 2006): an edge the order already respects costs O(1); for
 * another, only the nodes ordered between its ends are searched and reordered. An edge that would
 * close a cycle is refused and the cycle is returned. This is the acyclicity theory of the
 * polygraph solver (as MonoSAT's graph theory is Cobra's and PolySI's): the search adds the edges of
 * a choice as it assigns it and removes them, newest first, as it backtracks.
 *
 * <p>Invariant: for every present edge {@code u -> v}, {@code pos[u] < pos[v]}. Removing an edge keeps
 * it, so removal only pops adjacency. Removals must come in the reverse order of insertions
 * ({@link #removeLast}); the solver's trail guarantees that. Every edge carries a label (the
 * polygraph edge it stands for), which is what a returned cycle lists.
 *
 * <p>Adjacency is one growable int array per node and direction (target, label interleaved); no
 * object per edge.
 */
final class AcyclicGraph {
  private final int[] pos;
  private final int[] nodeAt;
  private final int[][] out;
  private final int[] outSize;
  private final int[][] in;
  private final int[] inSize;
  private final int[] mark;
  private final int[] parentLabel;
  private final int[] parentNode;
  private int epoch;
  private final IntArrayList stack = new IntArrayList();
  private final IntArrayList forward = new IntArrayList();
  private final IntArrayList backward = new IntArrayList();
  private final IntArrayList added = new IntArrayList();

  /** @param nodes the number of nodes, {@code 0..nodes-1}, initially in index order */
  AcyclicGraph(int nodes) {
    this(identity(nodes));
  }

  /**
   * @param order the nodes {@code 0..order.length-1} in their initial order, each once: a
   *     topological order of the edges to come saves their reordering
   */
  AcyclicGraph(int[] order) {
    int nodes = order.length;
    pos = new int[nodes];
    nodeAt = order.clone();
    for (int i = 0; i < nodes; i++) {
      pos[order[i]] = i;
    }
    out = new int[nodes][];
    in = new int[nodes][];
    outSize = new int[nodes];
    inSize = new int[nodes];
    mark = new int[nodes];
    parentLabel = new int[nodes];
    parentNode = new int[nodes];
  }

  private static int[] identity(int n) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    return a;
  }

  /**
   * Adds {@code u -> v} unless it closes a cycle.
   *
   * @param label what the edge stands for, returned in cycles
   * @return {@code null} if added; otherwise the labels of a cycle through the new edge, the new
   *     edge's label first, then the path from {@code v} back to {@code u} in order
   */
  int[] add(int u, int v, int label) {
    if (u == v) {
      return new int[] {label};
    }
    if (pos[u] > pos[v]) {
      int[] cycle = reorder(u, v, label);
      if (cycle != null) {
        return cycle;
      }
    }
    out[u] = push(out[u], outSize[u], v, label);
    outSize[u] += 2;
    in[v] = push(in[v], inSize[v], u, label);
    inSize[v] += 2;
    added.add(u);
    added.add(v);
    return null;
  }

  /**
   * Whether {@code u -> v} would close a cycle, without adding it: a search forward from {@code v}
   * among the nodes ordered before {@code u} (none when {@code v} is ordered after {@code u}).
   *
   * @return {@code null} if it would not; else the cycle's labels as {@link #add} gives them
   */
  int[] wouldClose(int u, int v, int label) {
    if (u == v) {
      return new int[] {label};
    }
    if (pos[u] < pos[v]) {
      return null;
    }
    return forward(u, v, false) ? cycle(u, v, label) : null;
  }

  /**
   * Adds edges for good, all at once, and orders the graph anew (Kahn's algorithm, ties in the old
   * order): O(V log V + E), cheaper than reordering edge by edge when many break the order. Must come
   * before any edge that will be removed.
   *
   * @return {@code null}, or the labels of a cycle the edges close, in order (the graph then holds
   *     them all and is of no further use)
   */
  int[] addAll(IntArrayList us, IntArrayList vs, IntArrayList labels) {
    for (int i = 0; i < us.size(); i++) {
      int u = us.getInt(i);
      int v = vs.getInt(i);
      out[u] = push(out[u], outSize[u], v, labels.getInt(i));
      outSize[u] += 2;
      in[v] = push(in[v], inSize[v], u, labels.getInt(i));
      inSize[v] += 2;
      added.add(u);
      added.add(v);
    }
    int n = pos.length;
    int[] indegree = new int[n];
    for (int x = 0; x < n; x++) {
      indegree[x] = inSize[x] / 2;
    }
    java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>(
        (a, b) -> Integer.compare(pos[a], pos[b]));
    for (int x = 0; x < n; x++) {
      if (indegree[x] == 0) {
        ready.add(x);
      }
    }
    int[] order = new int[n];
    int done = 0;
    while (!ready.isEmpty()) {
      int x = ready.poll();
      order[done++] = x;
      int[] a = out[x];
      for (int i = 0, m = outSize[x]; i < m; i += 2) {
        if (--indegree[a[i]] == 0) {
          ready.add(a[i]);
        }
      }
    }
    if (done < n) {
      return leftCycle(indegree);
    }
    for (int i = 0; i < n; i++) {
      place(order[i], i);
    }
    return null;
  }

  /**
   * A cycle among the nodes Kahn's algorithm could not order: from any of them, step back along an
   * in-edge from another such node until a node repeats.
   */
  private int[] leftCycle(int[] indegree) {
    int start = 0;
    while (indegree[start] == 0) {
      start++;
    }
    int stamp = ++epoch;
    IntArrayList walk = new IntArrayList();
    IntArrayList walkLabels = new IntArrayList();
    int x = start;
    while (mark[x] != stamp) {
      mark[x] = stamp;
      walk.add(x);
      int[] a = in[x];
      int i = 0;
      while (indegree[a[i]] == 0) {
        i += 2;
      }
      walkLabels.add(a[i + 1]);
      x = a[i];
    }
    // walk: start <- ... ; the cycle is from the first occurrence of x back to x, reversed.
    int from = walk.indexOf(x);
    int len = walk.size() - from;
    int[] cycle = new int[len];
    for (int k = 0; k < len; k++) {
      cycle[k] = walkLabels.getInt(walk.size() - 1 - k);
    }
    return cycle;
  }

  /** Removes the edge added last; the order stays topological. */
  void removeLast() {
    int v = added.popInt();
    int u = added.popInt();
    outSize[u] -= 2;
    inSize[v] -= 2;
  }

  private static int[] push(int[] a, int size, int node, int label) {
    if (a == null) {
      a = new int[4];
    } else if (size + 2 > a.length) {
      a = Arrays.copyOf(a, a.length * 2);
    }
    a[size] = node;
    a[size + 1] = label;
    return a;
  }

  /**
   * Pearce–Kelly: {@code pos[v] < pos[u]}. Searches forward from {@code v} among nodes ordered at
   * most {@code pos[u]}; reaching {@code u} is a cycle. Otherwise searches backward from {@code u}
   * among nodes ordered at least {@code pos[v]} and gives the backward set the lowest of the union's
   * positions.
   */
  private int[] reorder(int u, int v, int label) {
    if (forward(u, v, true)) {
      return cycle(u, v, label);
    }
    int lb = pos[v];
    int bwd = ++epoch;
    backward.clear();
    stack.add(u);
    mark[u] = bwd;
    while (!stack.isEmpty()) {
      int x = stack.popInt();
      backward.add(x);
      int[] a = in[x];
      for (int i = 0, n = inSize[x]; i < n; i += 2) {
        int y = a[i];
        if (mark[y] != bwd && pos[y] > lb) {
          mark[y] = bwd;
          stack.add(y);
        }
      }
    }
    sortByPos(backward);
    sortByPos(forward);
    int total = backward.size() + forward.size();
    int[] slots = new int[total];
    int k = 0;
    for (int i = 0; i < backward.size(); i++) {
      slots[k++] = pos[backward.getInt(i)];
    }
    for (int i = 0; i < forward.size(); i++) {
      slots[k++] = pos[forward.getInt(i)];
    }
    Arrays.sort(slots);
    k = 0;
    for (int i = 0; i < backward.size(); i++) {
      place(backward.getInt(i), slots[k++]);
    }
    for (int i = 0; i < forward.size(); i++) {
      place(forward.getInt(i), slots[k++]);
    }
    return null;
  }

  /**
   * The forward search of Pearce–Kelly from {@code v}, among nodes ordered before {@code u}.
   *
   * @param record whether to fill {@link #forward} with the nodes visited (for the reorder)
   *
   * @return whether it reached {@code u} (the parent links then lead back to {@code v})
   */
  private boolean forward(int u, int v, boolean record) {
    int ub = pos[u];
    int fwd = ++epoch;
    forward.clear();
    stack.clear();
    stack.add(v);
    mark[v] = fwd;
    parentNode[v] = -1;
    while (!stack.isEmpty()) {
      int x = stack.popInt();
      if (record) {
        forward.add(x);
      }
      int[] a = out[x];
      for (int i = 0, n = outSize[x]; i < n; i += 2) {
        int y = a[i];
        if (y == u) {
          parentNode[u] = x;
          parentLabel[u] = a[i + 1];
          stack.clear();
          return true;
        }
        if (mark[y] != fwd && pos[y] < ub) {
          mark[y] = fwd;
          parentNode[y] = x;
          parentLabel[y] = a[i + 1];
          stack.add(y);
        }
      }
    }
    return false;
  }

  private void place(int node, int p) {
    pos[node] = p;
    nodeAt[p] = node;
  }

  private void sortByPos(IntArrayList nodes) {
    int[] a = nodes.elements();
    int n = nodes.size();
    long[] keyed = new long[n];
    for (int i = 0; i < n; i++) {
      keyed[i] = ((long) pos[a[i]] << 32) | a[i];
    }
    Arrays.sort(keyed);
    for (int i = 0; i < n; i++) {
      a[i] = (int) keyed[i];
    }
  }

  /** The new edge's label, then the labels of the path v -> ... -> u found by the forward search. */
  private int[] cycle(int u, int v, int label) {
    IntArrayList path = new IntArrayList();
    for (int x = u; x != v; x = parentNode[x]) {
      path.add(parentLabel[x]);
    }
    int[] c = new int[path.size() + 1];
    c[0] = label;
    for (int i = 0; i < path.size(); i++) {
      c[i + 1] = path.getInt(path.size() - 1 - i);
    }
    return c;
  }
}
