package io.isowatch.checker.adya;

import io.isowatch.checker.graph.DynamicOrder;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.objects.Object2ObjectOpenHashMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The dependency graph of the incremental Adya check ({@link IncrementalAdya}), kept up to date edge
 * by edge: Adya's direct serialization graph (Adya, MIT 1999, §3) with the edges of each key as
 * {@link KeySlice} last drew them, plus {@code so}, and a topological order of it maintained by
 * Pearce &amp; Kelly's algorithm ({@link DynamicOrder}; ACM JEA 11, 2006).
 *
 * <p><b>Invariant.</b> Every live edge is either linked in the order, or <em>pending</em>: rejected
 * by the order because it closed a cycle when it came. The graph is the union of both. Replacing a
 * key's edges ({@link #replace}) removes the edges no longer drawn (a longer read placed unobserved
 * appends, or changed the key's order) and adds the new ones; removing never breaks the order.
 *
 * <p><b>Affected region.</b> A cycle through a new edge {@code a -> b} is a path {@code b ~> a}. On
 * such a path, the node of highest position is {@code a} or the source of an edge that goes down in
 * the order, which is a pending edge (linked edges go up); likewise its lowest node is {@code b} or
 * a pending edge's target. So the search from {@code b} visits only positions between {@code
 * min(pos(b), lowest pending target)} and {@code max(pos(a), highest pending source)}; without
 * pending edges the graph is acyclic and no search runs at all. The strongly connected component of
 * the edge is the part of that forward set that reaches {@code a} backwards ({@link #regions}).
 * Cost: O(1) per edge the order already respects, the Pearce–Kelly region otherwise; with pending
 * edges, the forward set of each new edge within those bounds, plus O(pending edges) per round.
 */
final class LiveDependencies {
  /** A drawn edge as {@link KeySlice} describes it: equal signatures are the same edge. */
  private record Signature(int from, int to, byte type, int op, long value) {}

  private final DynamicOrder order = new DynamicOrder();
  private final ByteArrayList type = new ByteArrayList();
  private final IntArrayList op = new IntArrayList();
  private final LongArrayList value = new LongArrayList();
  /** Per edge: its index in the slice that last drew it (0 for {@code so}), which orders the edges of one key or read. */
  private final IntArrayList rank = new IntArrayList();
  private final IntOpenHashSet pending = new IntOpenHashSet();
  private final Int2ObjectOpenHashMap<IntArrayList> pendingOut = new Int2ObjectOpenHashMap<>();
  private final Int2ObjectOpenHashMap<IntArrayList> pendingIn = new Int2ObjectOpenHashMap<>();
  /** Per key, the ids of its live edges. */
  private final Int2ObjectOpenHashMap<IntArrayList> keyEdges = new Int2ObjectOpenHashMap<>();
  /** Edges added since the last {@link #regions} call. */
  private final IntArrayList added = new IntArrayList();
  /** Nodes of components that lost an internal edge since the last {@link #regions} call (they may have split). */
  private final IntArrayList split = new IntArrayList();
  private final History h;
  /** Per node: the epoch of the last forward, backward and region marks. */
  private final IntArrayList forwardMark = new IntArrayList();
  private final IntArrayList backwardMark = new IntArrayList();
  private final IntArrayList regionMark = new IntArrayList();
  /** Per node: its index in the region being built. */
  private final IntArrayList local = new IntArrayList();
  private int epoch;
  private final IntArrayList stack = new IntArrayList();
  private final IntArrayList forward = new IntArrayList();

  /** @param h the history whose transactions are the nodes and whose operations the edges cite */
  LiveDependencies(History h) {
    this.h = h;
  }

  /** Adds transaction {@code t} as a node, last in the order; nodes come in increasing order. */
  void node(int t) {
    order.ensureNode(t);
    while (forwardMark.size() <= t) {
      forwardMark.add(0);
      backwardMark.add(0);
      regionMark.add(0);
      local.add(-1);
    }
  }

  /** Adds the {@code so} edge {@code from -> to}; such edges stay. */
  void addSessionEdge(int from, int to) {
    add(from, to, DependencyGraph.SO, -1, History.NIL, 0);
  }

  /**
   * Makes the edges of each key in {@code keys} those {@code slice} drew for it: edges drawn before
   * and again stay (same id), the others are removed, the new ones added.
   */
  void replace(IntArrayList keys, KeySlice slice) {
    Object2ObjectOpenHashMap<Signature, IntArrayList> drawn = new Object2ObjectOpenHashMap<>();
    for (int i = slice.from.size() - 1; i >= 0; i--) {
      drawn.computeIfAbsent(signature(slice, i), x -> new IntArrayList()).add(i);
    }
    boolean[] kept = new boolean[slice.from.size()];
    for (int i = 0; i < keys.size(); i++) {
      IntArrayList old = keyEdges.get(keys.getInt(i));
      if (old == null) {
        continue;
      }
      IntArrayList still = new IntArrayList(old.size());
      for (int j = 0; j < old.size(); j++) {
        int e = old.getInt(j);
        IntArrayList same = drawn.get(signature(e));
        if (same != null && !same.isEmpty()) {
          int at = same.popInt();
          kept[at] = true;
          rank.set(e, at);
          still.add(e);
        } else {
          remove(e);
        }
      }
      keyEdges.put(keys.getInt(i), still);
    }
    for (int i = 0; i < kept.length; i++) {
      if (!kept[i]) {
        int e = add(slice.from.getInt(i), slice.to.getInt(i), slice.type.getByte(i), slice.op.getInt(i),
            slice.value.getLong(i), i);
        keyEdges.computeIfAbsent(h.opKey(slice.op.getInt(i)), k -> new IntArrayList()).add(e);
      }
    }
  }

  private static Signature signature(KeySlice slice, int i) {
    return new Signature(slice.from.getInt(i), slice.to.getInt(i), slice.type.getByte(i), slice.op.getInt(i),
        slice.value.getLong(i));
  }

  private Signature signature(int e) {
    return new Signature(order.from(e), order.to(e), type.getByte(e), op.getInt(e), value.getLong(e));
  }

  private int add(int from, int to, byte t, int o, long v, int r) {
    int e = order.edgeCount();
    rank.add(r);
    type.add(t);
    op.add(o);
    value.add(v);
    if (order.addEdge(from, to) != null) {
      pending.add(e);
      pendingOut.computeIfAbsent(from, x -> new IntArrayList()).add(e);
      pendingIn.computeIfAbsent(to, x -> new IntArrayList()).add(e);
    }
    added.add(e);
    return e;
  }

  private void remove(int e) {
    if (!pending.isEmpty()) {
      int a = order.from(e);
      int b = order.to(e);
      int[] old = component(a, b, Math.min(low(), order.position(b)), Math.max(high(), order.position(a)));
      if (old != null) {
        split.addElements(split.size(), old);
      }
    }
    order.removeEdge(e);
    if (pending.remove(e)) {
      pendingOut.get(order.from(e)).rem(e);
      pendingIn.get(order.to(e)).rem(e);
    }
  }

  private boolean live(int e) {
    return order.linked(e) || pending.contains(e);
  }

  /**
   * The strongly connected components that hold an edge added since the last call, each once, as
   * graphs for {@link CycleSearch}; none while the graph is acyclic (no pending edge).
   *
   * @return one graph per such component, over its transactions, with all its internal edges
   */
  List<DependencyGraph> regions() {
    List<DependencyGraph> out = new ArrayList<>();
    if (pending.isEmpty()) {
      added.clear();
      split.clear();
      return out;
    }
    int low = low();
    int high = high();
    int round = ++epoch;
    for (int i = 0; i < added.size(); i++) {
      int e = added.getInt(i);
      int a = order.from(e);
      int b = order.to(e);
      if (live(e) && (regionMark.getInt(a) != round || regionMark.getInt(b) != round)) {
        region(component(a, b, Math.min(low, order.position(b)), Math.max(high, order.position(a))), round, out);
      }
    }
    for (int i = 0; i < split.size(); i++) {
      int x = split.getInt(i);
      if (regionMark.getInt(x) != round) {
        int pos = order.position(x);
        region(component(x, x, Math.min(low, pos), Math.max(high, pos)), round, out);
      }
    }
    added.clear();
    split.clear();
    return out;
  }

  private void region(int[] nodes, int round, List<DependencyGraph> out) {
    if (nodes == null || nodes.length < 2) {
      return;
    }
    for (int x : nodes) {
      regionMark.set(x, round);
    }
    out.add(graph(nodes));
  }

  /** @return the lowest position of a pending edge's target */
  private int low() {
    int low = Integer.MAX_VALUE;
    for (int e : pending) {
      low = Math.min(low, order.position(order.to(e)));
    }
    return low;
  }

  /** @return the highest position of a pending edge's source */
  private int high() {
    int high = Integer.MIN_VALUE;
    for (int e : pending) {
      high = Math.max(high, order.position(order.from(e)));
    }
    return high;
  }

  /**
   * @return the nodes of the strongly connected component holding {@code a} and {@code b}, ascending,
   *     searched within positions [lo, hi], or null if {@code b} does not reach {@code a}
   */
  private int[] component(int a, int b, int lo, int hi) {
    int fwd = ++epoch;
    forward.clear();
    stack.clear();
    stack.add(b);
    forwardMark.set(b, fwd);
    boolean reached = false;
    while (!stack.isEmpty()) {
      int x = stack.popInt();
      forward.add(x);
      reached |= x == a;
      for (int f = order.firstOut(x); f >= 0; f = order.nextOut(f)) {
        if (order.linked(f)) {
          visitForward(order.to(f), lo, hi, fwd);
        }
      }
      IntArrayList p = pendingOut.get(x);
      for (int j = 0; p != null && j < p.size(); j++) {
        visitForward(order.to(p.getInt(j)), lo, hi, fwd);
      }
    }
    if (!reached) {
      return null;
    }
    int back = ++epoch;
    IntArrayList nodes = new IntArrayList();
    stack.clear();
    stack.add(a);
    backwardMark.set(a, back);
    while (!stack.isEmpty()) {
      int x = stack.popInt();
      nodes.add(x);
      for (int f = order.firstIn(x); f >= 0; f = order.nextIn(f)) {
        if (order.linked(f)) {
          visitBackward(order.from(f), fwd, back);
        }
      }
      IntArrayList p = pendingIn.get(x);
      for (int j = 0; p != null && j < p.size(); j++) {
        visitBackward(order.from(p.getInt(j)), fwd, back);
      }
    }
    int[] sorted = nodes.toIntArray();
    Arrays.sort(sorted);
    return sorted;
  }

  private void visitForward(int x, int lo, int hi, int fwd) {
    int pos = order.position(x);
    if (forwardMark.getInt(x) != fwd && pos >= lo && pos <= hi) {
      forwardMark.set(x, fwd);
      stack.add(x);
    }
  }

  private void visitBackward(int x, int fwd, int back) {
    if (forwardMark.getInt(x) == fwd && backwardMark.getInt(x) != back) {
      backwardMark.set(x, back);
      stack.add(x);
    }
  }

  /**
   * Sorts edges in the order the batch checker's {@link DependencyGraph} draws them, so that the
   * cycle search, which tries edges in id order, finds the same cycles: the {@code ww} edges key by
   * key, then the edges of committed reads (their {@code wr}, then the {@code rw} of list reads)
   * transaction by transaction and read by read, then register keys' {@code rw} edges key by key,
   * then {@code so} session by session; inside one key or read, as the slice drew them.
   */
  private void sortAsDrawn(IntArrayList edges) {
    int[] ids = edges.toIntArray();
    IntArrays.quickSort(ids, (x, y) -> {
      int c = Long.compare(drawnRank(x), drawnRank(y));
      return c != 0 ? c : Integer.compare(rank.getInt(x), rank.getInt(y));
    });
    edges.clear();
    edges.addElements(0, ids);
  }

  /** @return the part of edge {@code e}'s place in the batch drawing order that {@link #rank} does not give */
  private long drawnRank(int e) {
    byte t = type.getByte(e);
    if (t == DependencyGraph.SO) {
      int from = order.from(e);
      return (3L << 60) | ((long) h.sessionOf(from) << 30) | h.sessionIndex(from);
    }
    int o = op.getInt(e);
    if (t == DependencyGraph.WW) {
      return h.opKey(o);
    }
    if (t == DependencyGraph.RW && h.opKind(o) == OpKind.READ) {
      return (2L << 60) | h.opKey(o);
    }
    return (1L << 60) | ((long) h.opTxn(o) << 30) | (o - h.opStart(h.opTxn(o)));
  }

  /** @return the graph over {@code nodes} (ascending transaction ids) with every live edge between two of them */
  private DependencyGraph graph(int[] nodes) {
    for (int i = 0; i < nodes.length; i++) {
      local.set(nodes[i], i);
    }
    IntArrayList from = new IntArrayList();
    IntArrayList to = new IntArrayList();
    ByteArrayList types = new ByteArrayList();
    IntArrayList ops = new IntArrayList();
    LongArrayList values = new LongArrayList();
    IntArrayList edges = new IntArrayList();
    for (int x : nodes) {
      for (int f = order.firstOut(x); f >= 0; f = order.nextOut(f)) {
        if (order.linked(f)) {
          edges.add(f);
        }
      }
      IntArrayList p = pendingOut.get(x);
      if (p != null) {
        edges.addAll(p);
      }
    }
    sortAsDrawn(edges);
    for (int i = 0; i < edges.size(); i++) {
      int f = edges.getInt(i);
      int y = order.to(f);
      if (Arrays.binarySearch(nodes, y) >= 0) {
        from.add(local.getInt(order.from(f)));
        to.add(local.getInt(y));
        types.add(type.getByte(f));
        ops.add(op.getInt(f));
        values.add(value.getLong(f));
      }
    }
    return new DependencyGraph(h, nodes, from, to, types, ops, values);
  }
}
