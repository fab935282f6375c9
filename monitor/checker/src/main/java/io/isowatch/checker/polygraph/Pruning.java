package io.isowatch.checker.polygraph;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;

/**
 * Pruning (PolySI, Huang et al., VLDB 2023, §4.3; Cobra, Tan et al., OSDI 2020, §3.3): a constraint
 * one of whose alternatives closes a cycle with the graph as it stands cannot take that alternative,
 * so it takes the other, whose edges join the graph; repeated until nothing changes. A constraint both
 * of whose alternatives close a cycle makes the history unsatisfiable at once. Trial edges are added
 * to the {@link AcyclicGraph} and removed at once, so the graph's acyclicity test is the one the search
 * uses; an alternative is tried edge by edge, each edge against the graph without it being added
 * (a cycle that several edges of one alternative close only together is left to the search).
 *
 * <p>Each adopted alternative records the cycle its rival closed ({@link #rejectedCycle}): a forced
 * choice is explained by a cycle of known edges and earlier forced choices, which is what an
 * unsatisfiable answer's witness is built from. Cost per round: one trial per undecided constraint,
 * each a Pearce–Kelly forward search of the region between its edges' ends, none when the order
 * already respects an edge.
 */
final class Pruning {
  /** The constraint is still open (or, after a contradiction, the one with none left). */
  static final byte OPEN = -1;

  private final Polygraph g;
  private final Lifting lifting;
  private final AcyclicGraph graph;
  private final byte[] decided;
  private final int[][] rejectedCycle;
  private final IntArrayList adoptionOrder = new IntArrayList();
  private int contradiction = -1;
  private int[] contradictionCycle;
  private int rounds;
  private final boolean[] active;

  /**
   * @param graph holds the known edges; adopted alternatives are added to it for good
   * @param active which constraints take part ({@code null}: all); the others are left out, as if
   *     their pairs wrote no common key
   */
  Pruning(Polygraph g, Lifting lifting, AcyclicGraph graph, boolean[] active) {
    this.g = g;
    this.lifting = lifting;
    this.graph = graph;
    this.active = active;
    decided = new byte[g.constraints()];
    Arrays.fill(decided, OPEN);
    rejectedCycle = new int[g.constraints()][];
  }

  /**
   * Prunes to the fixpoint, or until a constraint has no alternative left.
   *
   * @return {@code false} if some constraint has none ({@link #contradiction})
   */
  boolean run() {
    IntArrayList batch = new IntArrayList();
    do {
      rounds++;
      batch.clear();
      for (int c = 0; c < g.constraints(); c++) {
        if (decided[c] != OPEN || (active != null && !active[c])) {
          continue;
        }
        int[] lowerFirst = trial(c, true);
        int[] higherFirst = trial(c, false);
        if (lowerFirst != null && higherFirst != null) {
          contradiction = c;
          rejectedCycle[c] = lowerFirst;
          contradictionCycle = higherFirst;
          return false;
        }
        if (lowerFirst != null || higherFirst != null) {
          boolean side = lowerFirst == null;
          decided[c] = (byte) (side ? 1 : 0);
          rejectedCycle[c] = side ? higherFirst : lowerFirst;
          adoptionOrder.add(c);
          batch.add(c);
        }
      }
      if (!adopt(batch)) {
        return false;
      }
    } while (!batch.isEmpty());
    return true;
  }

  /**
   * @return a cycle that one edge of the alternative closes with the graph, or {@code null}; the graph
   *     is not changed (a cycle that only several of its edges close together is left to the search)
   */
  private int[] trial(int c, boolean side) {
    int end = g.alternativeEnd(c, side);
    for (int i = g.alternativeStart(c, side); i < end; i++) {
      int[] cycle = lifting.wouldClose(g, graph, g.alternativeEdge(i));
      if (cycle != null) {
        return cycle;
      }
    }
    return null;
  }

  /**
   * Adds the alternatives a round adopted, all at once, and orders the graph anew. They were forced
   * against the graph at the round's start, which only grows, so each stays forced whatever the
   * others add. If together they close a cycle, the constraint adopted last on it has no alternative
   * left: its other one was rejected, and this one closes that cycle with known edges and choices
   * forced before it.
   *
   * @return {@code false} on such a cycle ({@link #contradiction})
   */
  private boolean adopt(IntArrayList batch) {
    IntArrayList edges = new IntArrayList();
    for (int i = 0; i < batch.size(); i++) {
      int c = batch.getInt(i);
      g.addAlternative(c, decided[c] == 1, edges);
    }
    int[] cycle = lifting.addAll(g, graph, edges);
    if (cycle == null) {
      return true;
    }
    int last = -1;
    int lastIndex = -1;
    for (int e : cycle) {
      int c = g.constraintOf(e);
      int at = c < 0 ? -1 : batch.indexOf(c);
      if (at > lastIndex) {
        lastIndex = at;
        last = c;
      }
    }
    contradiction = last;
    int[] lowerFirstCycle = decided[last] == 1 ? cycle : rejectedCycle[last];
    contradictionCycle = decided[last] == 1 ? rejectedCycle[last] : cycle;
    rejectedCycle[last] = lowerFirstCycle;
    decided[last] = OPEN;
    adoptionOrder.rem(last);
    return false;
  }

  /** @return {@link #OPEN}, 1 (lower node first) or 0 (higher node first) */
  byte decided(int c) {
    return decided[c];
  }

  /** @return for an adopted constraint, the cycle (edge labels) its other alternative closed */
  int[] rejectedCycle(int c) {
    return rejectedCycle[c];
  }

  /** @return the constraints adopted, in the order they were */
  IntArrayList adopted() {
    return adoptionOrder;
  }

  /** @return the constraint with no alternative left, or -1 */
  int contradiction() {
    return contradiction;
  }

  /**
   * @return for {@link #contradiction}: the cycle its "higher first" alternative closes ({@link
   *     #rejectedCycle} holds the other's)
   */
  int[] contradictionCycle() {
    return contradictionCycle;
  }

  /** @return rounds run */
  int rounds() {
    return rounds;
  }
}
