package io.isowatch.checker.awdit;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.reference.ReferenceChecker;
import io.isowatch.checker.reference.ReferenceGraph;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.Violation;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every commit-order cycle the fast checkers report, batch and incremental, is a closed cycle of the
 * level's graph as {@code notes/semantics.md} defines it: each edge holds for the reason it gives
 * ({@link ReferenceGraph#holds}), the transactions are the edges' sources, and the weakest level
 * broken is the strongest level its reasons need.
 *
 * <p>Not checked: that the batch witness has the fewest inferred edges of any cycle, and that there
 * is one cycle per strongly connected component of the reference graph. AWDIT's saturation adds a
 * subset of {@code co'} (enough for acyclicity to coincide), so the fast graph's components and
 * cheapest cycles may legitimately differ from those of the full {@code co'}.
 */
class WitnessValidityTest {
  @ParameterizedTest
  @EnumSource(value = Level.class, names = {"READ_COMMITTED", "READ_ATOMIC", "CAUSAL"})
  void batchWitnessesAreCyclesOfTheGraph(Level level) {
    SeedRuns.Outcome outcome = SeedRuns.run(h -> problem(level, new ReferenceChecker(level).graph(h),
        FastVersusReferenceTest.fast(level).check(h).violations()));
    assertThat(outcome.failing()).withFailMessage("%s", outcome).isEqualTo(0);
  }

  @ParameterizedTest
  @EnumSource(value = Level.class, names = {"READ_COMMITTED", "READ_ATOMIC", "CAUSAL"})
  void incrementalWitnessesAreCyclesOfTheGraph(Level level) {
    SeedRuns.Outcome outcome = SeedRuns.run(h -> problem(level, new ReferenceChecker(level).graph(h),
        BatchVersusIncrementalTest.incremental(h, level, BatchVersusIncrementalTest.historyOrder(h)).violations()));
    assertThat(outcome.failing()).withFailMessage("%s", outcome).isEqualTo(0);
  }

  /** @return the first thing wrong with the cycle witnesses, or {@code null} */
  static String problem(Level level, ReferenceGraph g, List<Violation> violations) {
    for (Violation v : violations) {
      if (v.anomaly() != Anomaly.COMMIT_ORDER_CYCLE) {
        continue;
      }
      List<Edge> edges = v.witness().edges();
      Level needed = Level.READ_COMMITTED;
      for (int i = 0; i < edges.size(); i++) {
        Edge e = edges.get(i);
        if (e.to() != edges.get((i + 1) % edges.size()).from() || v.witness().txns().get(i) != e.from()) {
          return level + ": witness is no closed cycle: " + v;
        }
        if (!g.holds(e)) {
          return level + ": edge does not hold: " + e;
        }
        needed = e.because().level().compareTo(needed) > 0 ? e.because().level() : needed;
      }
      if (edges.isEmpty() || v.witness().txns().size() != edges.size() || v.weakestLevelBroken() != needed) {
        return level + ": witness or weakest level wrong: " + v;
      }
    }
    return null;
  }
}
