package io.isowatch.checker.awdit;

import io.isowatch.checker.graph.Components;
import io.isowatch.checker.graph.Digraph;
import io.isowatch.checker.graph.PathFinder;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.ForbiddenAnomalies;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import it.unimi.dsi.fastutil.ints.Int2ObjectLinkedOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Finds the cycles of a saturated commit-order graph {@code so ∪ wr ∪ co'}: one witness per
 * strongly connected component with more than one node, the cheapest cycle found through a bounded
 * set of candidate edges of the component, cost = number of inferred {@code co} edges, ties broken
 * by length. O(nodes + edges) for the components, plus O(candidates × component size) per cyclic
 * component.
 */
final class CommitOrderCycles {
  /** Candidate edges tried per component, of each kind (observed, inferred). */
  static final int CANDIDATES = 16;

  private CommitOrderCycles() {}

  /**
   * @param h the history, for the support of causal-past edges
   * @param g the graph, nodes = transactions + 1, node 0 = INIT
   * @param table the meaning of each edge of {@code g}
   * @return one {@link Anomaly#COMMIT_ORDER_CYCLE} violation per cyclic component, in component order
   */
  static List<Violation> find(History h, Digraph g, EdgeTable table) {
    Components comps = Components.of(g, e -> true);
    Int2ObjectLinkedOpenHashMap<IntArrayList[]> candidates = new Int2ObjectLinkedOpenHashMap<>();
    for (int e = 0, m = g.edgeCount(); e < m; e++) {
      int c = comps.of(g.from(e));
      if (c != comps.of(g.to(e)) || comps.size(c) < 2) {
        continue;
      }
      IntArrayList[] lists = candidates.get(c);
      if (lists == null) {
        lists = new IntArrayList[] {new IntArrayList(), new IntArrayList()};
        candidates.put(c, lists);
      }
      IntArrayList l = lists[table.inferred(e) ? 1 : 0];
      if (l.size() < CANDIDATES) {
        l.add(e);
      }
    }
    PathFinder paths = new PathFinder(g);
    List<Violation> out = new ArrayList<>();
    for (var entry : candidates.int2ObjectEntrySet()) {
      int c = entry.getIntKey();
      int[] best = null;
      int bestCost = Integer.MAX_VALUE;
      for (IntArrayList l : entry.getValue()) {
        for (int i = 0; i < l.size(); i++) {
          int[] cycle = paths.cheapestCycleThrough(l.getInt(i), e -> true, table::inferred, comps, c);
          if (cycle == null) {
            continue;
          }
          int cost = 0;
          for (int e : cycle) {
            cost += table.inferred(e) ? 1 : 0;
          }
          if (best == null || cost < bestCost || (cost == bestCost && cycle.length < best.length)) {
            best = cycle;
            bestCost = cost;
          }
        }
      }
      out.add(violation(h, g::from, g::to, table, best));
    }
    return out;
  }

  /**
   * @param h the history, for the support of causal-past edges
   * @param from source node of an edge id
   * @param to target node of an edge id
   * @param cycle edge ids of a cycle, each edge's target the next one's source
   * @return the violation with the cycle as witness (plus, for each causal-past edge, the {@code so}/{@code
   *     wr} path that puts its source in its reader's causal past), naming the strongest premise its
   *     edges need
   */
  static Violation violation(History h, IntUnaryOperator from, IntUnaryOperator to, EdgeTable table, int[] cycle) {
    List<Integer> txns = new ArrayList<>();
    List<Edge> edges = new ArrayList<>();
    List<Edge> support = new ArrayList<>();
    Level level = ForbiddenAnomalies.weakestForbidding(Anomaly.COMMIT_ORDER_CYCLE);
    for (int e : cycle) {
      txns.add(from.applyAsInt(e) - 1);
      Edge edge = table.toEdge(e, from.applyAsInt(e), to.applyAsInt(e));
      edges.add(edge);
      if (edge.because() == Because.CAUSAL_PAST) {
        support.addAll(CausalChain.path(h, edge.from(), edge.via()));
      }
      Level needed = table.because(e).level();
      if (needed.compareTo(level) > 0) {
        level = needed;
      }
    }
    return new Violation(Anomaly.COMMIT_ORDER_CYCLE, level, new Witness(txns, List.of(), edges, support));
  }
}
