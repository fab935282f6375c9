package io.isowatch.checker.adya;

import io.isowatch.checker.graph.CutCover;
import io.isowatch.checker.graph.DynamicOrder;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.Int2LongOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
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
 * <p><b>Affected region.</b> A cycle through a new edge {@code a -> b} is a path {@code b ~> a}. Walk
 * the cycle and look at the positions it visits: linked edges go up in the order, so every step down
 * is a pending edge, and every cut between two consecutive positions that the cycle spans is crossed
 * downwards by one of its pending edges. So the positions a cycle spans lie inside one <em>run</em>
 * of cuts each covered by some pending edge's span ({@code [pos(to), pos(from)]}), kept in a {@link
 * CutCover}: a new edge whose own span ({@code [pos(a), pos(b)]} either way round) is not covered
 * throughout closes no cycle and costs no search; otherwise the strongly connected component of the
 * edge is searched only within the covered run around it (forward from {@code b}, then backward from
 * {@code a} among the nodes reached; {@link #regions}). A node whose component may have split is
 * searched within the run around its position. Without pending edges nothing is covered and no
 * search runs at all.
 *
 * <p><b>Why not the global extremes.</b> This class first bounded every search by the lowest pending
 * target and the highest pending source, found by a pass over all pending edges. Every write skew the
 * window holds leaves a pending edge as long as its transactions stay, so with W = 10^6 that pass
 * ran over tens of thousands of edges per transaction, and the bounds spanned the whole window. The
 * cover is updated where the spans change: when an edge becomes or stops being pending (O(log n)),
 * and when a Pearce–Kelly reorder moves a node ({@link DynamicOrder#onMoved}), for the pending edges
 * at that node (positions only permute among the moved nodes, so no other span changes). Cost per
 * transaction: its edges, the Pearce–Kelly regions, O(log n) per pending edge touched, and the
 * searches within the runs around its edges: the nodes reachable from {@code b} up to the run's end,
 * none of it a pass over the pending edges. When cycles overlap all along the order, the run is
 * long, and an edge into an old transaction (a key's edges redrawn long after) searches forward to
 * its end; edges into recent transactions, as a stream's mostly are, reach only the few transactions
 * after them (docs/PERFORMANCE.md, "Violations that accumulate").
 *
 * <p>Somewhat over 400 lines: the edge bookkeeping, the cover, the component search and the
 * drawing-order sort all work on the same per-edge arrays and pending lists.
 */
final class LiveDependencies {
  private final DynamicOrder order = new DynamicOrder();
  /**
   * Scratch of {@link #replace}, kept between calls: per bucket the first drawn edge of its chain
   * (valid where {@code headStamp} is the call's stamp), per drawn edge the next in its chain and
   * whether an old edge matched it. Equal signatures are the same edge.
   */
  private int[] head = new int[0];
  private int[] headStamp = new int[0];
  private int[] next = new int[0];
  private boolean[] kept = new boolean[0];
  private int drawStamp;
  private final ByteArrayList type = new ByteArrayList();
  private final IntArrayList op = new IntArrayList();
  private final LongArrayList value = new LongArrayList();
  /** Per edge: its index in the slice that last drew it (0 for {@code so}), which orders the edges of one key or read. */
  private final IntArrayList rank = new IntArrayList();
  private final IntOpenHashSet pending = new IntOpenHashSet();
  private final Int2ObjectOpenHashMap<IntArrayList> pendingOut = new Int2ObjectOpenHashMap<>();
  private final Int2ObjectOpenHashMap<IntArrayList> pendingIn = new Int2ObjectOpenHashMap<>();
  /** Per pending edge: the span it covers in {@link #cover}, {@code pos(to) << 32 | pos(from)} when last covered. */
  private final Int2LongOpenHashMap span = new Int2LongOpenHashMap();
  /** The cuts of the order covered by pending edges' spans (the class comment's runs). */
  private final CutCover cover = new CutCover();
  /** Scratch of {@link #bounds}: the run found, low and high position. */
  private int runLow;
  private int runHigh;
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
    order.onMoved(this::moved);
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
   * and again stay (same id), the others are removed, the new ones added. An old edge is matched
   * with the first drawn edge of the same signature (source, target, type, operation, element) not
   * matched yet, through a chained hash table on primitive arrays reused from call to call (a
   * record and a hash-map entry per edge, twice, were a fifth of the window's CPU on list-append:
   * docs/PERFORMANCE.md, "List-append with bounded lists").
   */
  void replace(IntArrayList keys, KeySlice slice) {
    int n = slice.from.size();
    int buckets = Integer.highestOneBit(Math.max(2 * n, 16) - 1) << 1;
    if (head.length < buckets) {
      head = new int[buckets];
      headStamp = new int[buckets];
    }
    if (next.length < n) {
      next = new int[Math.max(n, 2 * next.length)];
      kept = new boolean[next.length];
    }
    if (drawStamp == Integer.MAX_VALUE) {
      Arrays.fill(headStamp, 0);
      drawStamp = 0;
    }
    int stamp = ++drawStamp;
    int mask = buckets - 1;
    for (int i = n - 1; i >= 0; i--) { // chains in ascending i: a match takes the first unmatched
      int b = bucket(slice.from.getInt(i), slice.to.getInt(i), slice.type.getByte(i),
          slice.op.getInt(i), slice.value.getLong(i), mask);
      next[i] = headStamp[b] == stamp ? head[b] : -1;
      head[b] = i;
      headStamp[b] = stamp;
      kept[i] = false;
    }
    for (int i = 0; i < keys.size(); i++) {
      IntArrayList old = keyEdges.get(keys.getInt(i));
      if (old == null) {
        continue;
      }
      int still = 0;
      for (int j = 0; j < old.size(); j++) {
        int e = old.getInt(j);
        int at = drawnAs(e, slice, stamp, mask);
        if (at >= 0) {
          kept[at] = true;
          rank.set(e, at);
          old.set(still++, e);
        } else {
          remove(e);
        }
      }
      old.size(still);
    }
    for (int i = 0; i < n; i++) {
      if (!kept[i]) {
        int e = add(slice.from.getInt(i), slice.to.getInt(i), slice.type.getByte(i), slice.op.getInt(i),
            slice.value.getLong(i), i);
        keyEdges.computeIfAbsent(h.opKey(slice.op.getInt(i)), k -> new IntArrayList()).add(e);
      }
    }
  }

  private static int bucket(int from, int to, byte t, int o, long v, int mask) {
    long x = (((long) from << 32) | (to & 0xFFFFFFFFL)) * 0x9E3779B97F4A7C15L;
    x ^= (((long) o << 8) | (t & 0xFF)) * 0xC2B2AE3D27D4EB4FL;
    x ^= v * 0x165667B19E3779F9L;
    x ^= x >>> 29;
    return (int) (x ^ (x >>> 32)) & mask;
  }

  /** @return the first drawn edge not matched yet with old edge {@code e}'s signature, or -1 */
  private int drawnAs(int e, KeySlice slice, int stamp, int mask) {
    int from = order.from(e);
    int to = order.to(e);
    byte t = type.getByte(e);
    int o = op.getInt(e);
    long v = value.getLong(e);
    int b = bucket(from, to, t, o, v, mask);
    for (int i = headStamp[b] == stamp ? head[b] : -1; i >= 0; i = next[i]) {
      if (!kept[i] && slice.from.getInt(i) == from && slice.to.getInt(i) == to
          && slice.type.getByte(i) == t && slice.op.getInt(i) == o && slice.value.getLong(i) == v) {
        return i;
      }
    }
    return -1;
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
      cover(e);
    }
    added.add(e);
    return e;
  }

  private void remove(int e) {
    int a = order.from(e);
    int b = order.to(e);
    if (!pending.isEmpty() && bounds(a, b)) {
      int[] old = component(a, b, runLow, runHigh);
      if (old != null) {
        split.addElements(split.size(), old);
      }
    }
    order.removeEdge(e);
    if (pending.remove(e)) {
      pendingOut.get(a).rem(e);
      pendingIn.get(b).rem(e);
      uncover(e);
    }
  }

  /** Covers pending edge {@code e}'s span (from its target's position to its source's) and records it. */
  private void cover(int e) {
    int p = order.position(order.to(e));
    int q = order.position(order.from(e));
    cover.add(p, q, 1);
    span.put(e, ((long) p << 32) | q);
  }

  /** Removes pending edge {@code e}'s span, as last covered, from the cover. */
  private void uncover(int e) {
    long s = span.remove(e);
    cover.add((int) (s >>> 32), (int) s, -1);
  }

  /** After a reorder moved node {@code x}: the spans of the pending edges at it are covered anew. */
  private void moved(int x) {
    IntArrayList out = pendingOut.get(x);
    for (int j = 0; out != null && j < out.size(); j++) {
      uncover(out.getInt(j));
      cover(out.getInt(j));
    }
    IntArrayList in = pendingIn.get(x);
    for (int j = 0; in != null && j < in.size(); j++) {
      uncover(in.getInt(j));
      cover(in.getInt(j));
    }
  }

  /**
   * Finds the covered run where a cycle through an edge between {@code a} and {@code b} (either
   * way, or through node {@code a} when {@code a == b}) must lie, into {@link #runLow} and {@link
   * #runHigh}.
   *
   * @return false if no such cycle can exist: the cuts between the two positions are not all
   *     covered, or the run is a single position
   */
  private boolean bounds(int a, int b) {
    int p = Math.min(order.position(a), order.position(b));
    int q = Math.max(order.position(a), order.position(b));
    if (!cover.covered(p, q)) {
      return false;
    }
    runLow = cover.runStart(p);
    runHigh = cover.runEnd(q);
    return runLow < runHigh;
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
    int round = ++epoch;
    for (int i = 0; i < added.size(); i++) {
      int e = added.getInt(i);
      int a = order.from(e);
      int b = order.to(e);
      if (live(e) && (regionMark.getInt(a) != round || regionMark.getInt(b) != round) && bounds(a, b)) {
        region(component(a, b, runLow, runHigh), round, out);
      }
    }
    for (int i = 0; i < split.size(); i++) {
      int x = split.getInt(i);
      if (regionMark.getInt(x) != round && bounds(x, x)) {
        region(component(x, x, runLow, runHigh), round, out);
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
