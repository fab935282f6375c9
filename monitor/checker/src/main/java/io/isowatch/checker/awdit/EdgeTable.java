package io.isowatch.checker.awdit;

import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.EdgeType;
import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;

/**
 * What each edge of the commit-order graph means, by edge id, on primitive lists (two ints, a long
 * and two bytes per edge). Graph nodes are transactions shifted by one: node 0 is the initial
 * transaction {@code INIT}, node {@code t + 1} is transaction {@code t}.
 */
final class EdgeTable {
  private static final EdgeType[] TYPES = EdgeType.values();
  private static final Because[] REASONS = Because.values();

  private final ByteArrayList type = new ByteArrayList();
  private final ByteArrayList because = new ByteArrayList();
  private final IntArrayList key = new IntArrayList();
  private final LongArrayList value = new LongArrayList();
  private final IntArrayList via = new IntArrayList();
  /**
   * Inferred and version-order edges by source node, then target node, so that each pair is stored once. One small
   * table per source keeps the lookups of a reader's many edges from one writer in cache.
   */
  private final ObjectArrayList<Int2IntOpenHashMap> inferredFrom = new ObjectArrayList<>();

  private void add(EdgeType t, Because b, int k, long v, int viaTxn) {
    type.add((byte) t.ordinal());
    because.add((byte) b.ordinal());
    key.add(k);
    value.add(v);
    via.add(viaTxn);
  }

  /**
   * Records an edge unless it is an inferred ({@code co}) or version-order ({@code ww}) edge between
   * a pair of nodes that has one of these already; then the stored edge keeps whichever reason (and
   * type) needs the weaker level (many readers can force the
   * same commit-order edge: storing each once keeps the graph at the number of distinct pairs).
   *
   * @param nextId the id the edge gets if it is new (the graph's edge count)
   * @return whether the edge is new, so that the caller adds it to its graph
   */
  boolean addOnce(int nextId, int fromNode, int toNode, EdgeType t, Because b, int k, long v, int viaTxn) {
    if (t == EdgeType.CO || t == EdgeType.WW) {
      while (inferredFrom.size() <= fromNode) {
        inferredFrom.add(null);
      }
      Int2IntOpenHashMap targets = inferredFrom.get(fromNode);
      if (targets == null) {
        targets = new Int2IntOpenHashMap(4);
        targets.defaultReturnValue(-1);
        inferredFrom.set(fromNode, targets);
      }
      int e = targets.putIfAbsent(toNode, nextId);
      if (e >= 0) {
        if (b.level().compareTo(because(e).level()) < 0) {
          type.set(e, (byte) t.ordinal());
          because.set(e, (byte) b.ordinal());
          key.set(e, k);
          value.set(e, v);
          via.set(e, viaTxn);
        }
        return false;
      }
    }
    add(t, b, k, v, viaTxn);
    return true;
  }

  boolean inferred(int e) {
    return type.getByte(e) == EdgeType.CO.ordinal();
  }

  Because because(int e) {
    return REASONS[because.getByte(e)];
  }

  /**
   * @param e edge id
   * @param fromNode source node (0 = INIT)
   * @param toNode target node
   * @return the edge as a witness record, transactions as ids ({@link
   *     io.isowatch.checker.witness.Witness#INIT} for the initial transaction)
   */
  Edge toEdge(int e, int fromNode, int toNode) {
    return new Edge(fromNode - 1, toNode - 1, TYPES[type.getByte(e)], REASONS[because.getByte(e)],
        key.getInt(e), value.getLong(e), via.getInt(e));
  }
}
