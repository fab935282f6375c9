package io.isowatch.checker.graph;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Cheapest paths: fewest heavy edges first, then fewest edges. */
class PathFinderTest {
  @Test
  void fewestEdgesAmongEquallyCheapPaths() {
    // s=0 -> a=1 -> t=3 (2 edges) and s -> b=2 -> c=4 -> t (3 edges), all weight 0;
    // b is added last, so a last-in-first-out search would reach t through it first
    Digraph g = new Digraph(5);
    int sa = g.addEdge(0, 1);
    g.addEdge(0, 2);
    int at = g.addEdge(1, 3);
    g.addEdge(2, 4);
    g.addEdge(4, 3);
    assertThat(new PathFinder(g).cheapestPath(0, 3, e -> true, e -> false, null, 0)).containsExactly(sa, at);
  }

  @Test
  void fewerHeavyEdgesBeatFewerEdges() {
    // 0 -> 1 heavy (1 edge, cost 1) versus 0 -> 2 -> 3 -> 1 light (3 edges, cost 0)
    Digraph g = new Digraph(4);
    g.addEdge(0, 1);
    int a = g.addEdge(0, 2);
    int b = g.addEdge(2, 3);
    int c = g.addEdge(3, 1);
    assertThat(new PathFinder(g).cheapestPath(0, 1, e -> true, e -> e == 0, null, 0)).containsExactly(a, b, c);
    assertThat(new PathFinder(g).cheapestCycleThrough(a, e -> true, e -> false, null, 0)).isNull();
  }
}
