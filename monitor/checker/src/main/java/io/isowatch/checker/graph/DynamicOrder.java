package io.isowatch.checker.graph;

import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * A growing acyclic digraph with a topological order kept up to date as edges arrive, by the
 * algorithm of Pearce &amp; Kelly ("A dynamic topological sort algorithm for directed acyclic
 * graphs", ACM JEA 11, 2006): an edge {@code u -> v} that the order already respects costs O(1);
 * otherwise only the affected region (nodes ordered between {@code v} and {@code u}) is searched and
 * reordered. An edge that would close a cycle is not added; {@link #addEdge} returns the cycle.
 *
 * <p>Adjacency is kept as singly linked lists on int arrays (no object per node or edge). Edge ids
 * are dense and count rejected edges too, so callers can keep edge metadata by id. An edge can be
 * removed ({@link #removeEdge}): it is marked and skipped by every later search, in O(1); the order
 * stays topological, since removing an edge never invalidates one (Pearce &amp; Kelly, §2).
 *
 * <p>Positions are a permutation of {@code 0..nodeCount()-1}: a new node takes the next one, and a
 * reorder only permutes the positions of the nodes it moves (the forward and backward sets of the
 * affected region). A listener ({@link #onMoved}) is told each such node after the reorder, so a
 * caller can keep structures keyed by position up to date at the cost of the reorder itself.
 */
public final class DynamicOrder {
  private static final byte LINKED = 1;
  private static final byte REMOVED = 2;
  private final IntArrayList ord = new IntArrayList(); // node -> position
  private final IntArrayList headOut = new IntArrayList();
  private final IntArrayList headIn = new IntArrayList();
  private final IntArrayList from = new IntArrayList();
  private final IntArrayList to = new IntArrayList();
  private final IntArrayList nextOut = new IntArrayList();
  private final IntArrayList nextIn = new IntArrayList();
  private final IntArrayList mark = new IntArrayList();
  private final IntArrayList via = new IntArrayList();
  /** Per edge: 1 once linked into the adjacency lists, 2 once removed, 0 for a rejected edge. */
  private final ByteArrayList state = new ByteArrayList();
  private int epoch;
  private final IntArrayList stack = new IntArrayList();
  private final IntArrayList forward = new IntArrayList();
  private final IntArrayList backward = new IntArrayList();
  private IntConsumer moved = v -> {};

  /**
   * Sets what is told, after each reorder, every node whose position the reorder may have changed
   * (each once; the positions of all others are as before). Replaces the previous listener.
   */
  public void onMoved(IntConsumer listener) {
    this.moved = listener;
  }

  /** Makes sure nodes {@code 0..node} exist; new nodes go last in the order. */
  public void ensureNode(int node) {
    while (ord.size() <= node) {
      int v = ord.size();
      ord.add(v);
      headOut.add(-1);
      headIn.add(-1);
      mark.add(0);
      via.add(-1);
    }
  }

  /** @return the number of edge ids handed out, rejected edges included */
  public int edgeCount() {
    return from.size();
  }

  /** @return source node of edge {@code e} */
  public int from(int e) {
    return from.getInt(e);
  }

  /** @return target node of edge {@code e} */
  public int to(int e) {
    return to.getInt(e);
  }

  /**
   * Adds {@code u -> v} unless it closes a cycle. The edge id is {@link #edgeCount()} before the call.
   *
   * @return null if the edge was added, else the cycle's edge ids, starting with the new (not added)
   *     edge, each edge's target the next one's source
   */
  public int[] addEdge(int u, int v) {
    ensureNode(Math.max(u, v));
    int e = from.size();
    from.add(u);
    to.add(v);
    nextOut.add(-1);
    nextIn.add(-1);
    state.add((byte) 0);
    if (u == v) {
      return new int[] {e};
    }
    int ub = ord.getInt(u);
    int lb = ord.getInt(v);
    if (lb < ub) {
      int[] cycle = searchForward(e, v, u, ub);
      if (cycle != null) {
        return cycle;
      }
      searchBackward(u, lb);
      reorder();
    }
    nextOut.set(e, headOut.getInt(u));
    headOut.set(u, e);
    nextIn.set(e, headIn.getInt(v));
    headIn.set(v, e);
    state.set(e, LINKED);
    return null;
  }

  /**
   * Removes edge {@code e} (added or rejected): later searches skip it. O(1).
   *
   * @throws IndexOutOfBoundsException for an id never handed out
   */
  public void removeEdge(int e) {
    state.set(e, REMOVED);
  }

  /** @return whether edge {@code e} was added (not rejected) and not removed since */
  public boolean linked(int e) {
    return state.getByte(e) == LINKED;
  }

  /** @return the position of node {@code v} in the topological order (positions are distinct, not dense) */
  public int position(int v) {
    return ord.getInt(v);
  }

  /** @return the number of nodes */
  public int nodeCount() {
    return ord.size();
  }

  /** @return the first out-edge of {@code v} in its list, linked or removed, or -1 */
  public int firstOut(int v) {
    return headOut.getInt(v);
  }

  /** @return the out-edge after {@code e} in its source's list, or -1 */
  public int nextOut(int e) {
    return nextOut.getInt(e);
  }

  /** @return the first in-edge of {@code v} in its list, linked or removed, or -1 */
  public int firstIn(int v) {
    return headIn.getInt(v);
  }

  /** @return the in-edge after {@code e} in its target's list, or -1 */
  public int nextIn(int e) {
    return nextIn.getInt(e);
  }

  private int[] searchForward(int e, int v, int u, int ub) {
    epoch++;
    forward.clear();
    stack.clear();
    stack.add(v);
    mark.set(v, epoch);
    via.set(v, -1);
    while (!stack.isEmpty()) {
      int w = stack.popInt();
      forward.add(w);
      for (int f = headOut.getInt(w); f >= 0; f = nextOut.getInt(f)) {
        if (state.getByte(f) != LINKED) {
          continue;
        }
        int x = to.getInt(f);
        if (x == u) {
          via.set(u, f);
          return cycle(e, v, u);
        }
        if (mark.getInt(x) != epoch && ord.getInt(x) < ub) {
          mark.set(x, epoch);
          via.set(x, f);
          stack.add(x);
        }
      }
    }
    return null;
  }

  private int[] cycle(int e, int v, int u) {
    IntArrayList path = new IntArrayList();
    for (int x = u; x != v; x = from.getInt(via.getInt(x))) {
      path.add(via.getInt(x));
    }
    int[] c = new int[path.size() + 1];
    c[0] = e;
    for (int i = 0; i < path.size(); i++) {
      c[i + 1] = path.getInt(path.size() - 1 - i);
    }
    return c;
  }

  private void searchBackward(int u, int lb) {
    int fwdEpoch = epoch;
    epoch++;
    backward.clear();
    stack.clear();
    stack.add(u);
    mark.set(u, epoch);
    while (!stack.isEmpty()) {
      int w = stack.popInt();
      backward.add(w);
      for (int f = headIn.getInt(w); f >= 0; f = nextIn.getInt(f)) {
        if (state.getByte(f) != LINKED) {
          continue;
        }
        int x = from.getInt(f);
        if (mark.getInt(x) != epoch && mark.getInt(x) != fwdEpoch && ord.getInt(x) > lb) {
          mark.set(x, epoch);
          stack.add(x);
        }
      }
    }
  }

  /** Pearce–Kelly reorder: backward set first, then forward set, into the union of their positions. */
  private void reorder() {
    int[] b = sortByOrd(backward);
    int[] f = sortByOrd(forward);
    int[] slots = new int[b.length + f.length];
    int i = 0;
    for (int x : b) {
      slots[i++] = ord.getInt(x);
    }
    for (int x : f) {
      slots[i++] = ord.getInt(x);
    }
    Arrays.sort(slots);
    i = 0;
    for (int x : b) {
      ord.set(x, slots[i++]);
    }
    for (int x : f) {
      ord.set(x, slots[i++]);
    }
    for (int x : b) {
      moved.accept(x);
    }
    for (int x : f) {
      moved.accept(x);
    }
  }

  private int[] sortByOrd(IntArrayList nodes) {
    int[] a = nodes.toIntArray();
    IntArrays.quickSort(a, (x, y) -> Integer.compare(ord.getInt(x), ord.getInt(y)));
    return a;
  }
}
