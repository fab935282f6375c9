package io.isowatch.checker.awdit;

import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.EdgeType;
import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

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

  /** Records the meaning of the next edge id. */
  void add(EdgeType t, Because b, int k, long v, int viaTxn) {
    type.add((byte) t.ordinal());
    because.add((byte) b.ordinal());
    key.add(k);
    value.add(v);
    via.add(viaTxn);
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
