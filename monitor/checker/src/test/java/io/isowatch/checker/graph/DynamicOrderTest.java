package io.isowatch.checker.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** {@link DynamicOrder}'s positions and its reorder listener. */
class DynamicOrderTest {
  /**
   * On random edges between 2–60 nodes: positions stay a permutation of {@code 0..n-1}, every
   * linked edge goes up, and every node whose position an {@code addEdge} changed was told to the
   * listener during that call (each once).
   */
  @Property(tries = 300)
  void positionsStayAPermutationAndEveryMoveIsTold(@ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int n = 2 + rnd.nextInt(59);
    DynamicOrder order = new DynamicOrder();
    order.ensureNode(n - 1);
    Set<Integer> told = new HashSet<>();
    int[] calls = {0};
    order.onMoved(v -> {
      calls[0]++;
      told.add(v);
    });
    for (int step = 0; step < 4 * n; step++) {
      int[] before = new int[n];
      for (int v = 0; v < n; v++) {
        before[v] = order.position(v);
      }
      told.clear();
      calls[0] = 0;
      int u = rnd.nextInt(n);
      int v = rnd.nextInt(n);
      if (order.addEdge(u, v) == null && rnd.nextInt(4) == 0) {
        order.removeEdge(order.edgeCount() - 1);
      }
      assertThat(calls[0]).as("seed %d: each moved node told once", seed).isEqualTo(told.size());
      boolean[] seen = new boolean[n];
      for (int x = 0; x < n; x++) {
        int p = order.position(x);
        assertThat(seen[p]).as("seed %d: position %d twice", seed, p).isFalse();
        seen[p] = true;
        if (p != before[x]) {
          assertThat(told).as("seed %d: node %d moved untold", seed, x).contains(x);
        }
      }
      for (int e = 0; e < order.edgeCount(); e++) {
        if (order.linked(e)) {
          assertThat(order.position(order.from(e))).isLessThan(order.position(order.to(e)));
        }
      }
    }
  }
}
