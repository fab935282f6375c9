package io.isowatch.checker.polygraph;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.SharedHistories;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The polygraph checker on the real histories of {@code ../shared/histories/} (skipped when absent,
 * failing under {@code CI=true}): the verdicts the other tools' authors report, the counts behind
 * them, each proof re-checked against the history ({@link ProofVerifier}) and each commit order
 * against the definition ({@link CommitOrders#verify}).
 */
class PolygraphRealHistoriesTest {
  private static String decide(String relative, Level level) throws Exception {
    History h = HistoryFiles.read(SharedHistories.shared(relative), null, n -> {});
    PolygraphAnswer a = new PolygraphChecker(level).solve(h);
    if (a.verdict() == Verdict.VIOLATED) {
      assertThat(ProofVerifier.check(h, a.proof(), level, true)).isNull();
      return a.verdict() + " " + a.proof().kind() + " core " + a.proof().core().size() + " " + a.stats();
    }
    assertThat(CommitOrders.verify(h, a.commitOrder(), level, true)).isNull();
    return a.verdict() + " " + a.stats();
  }

  @Test
  void galeraLostUpdateIsNotSnapshotIsolation() throws Exception {
    String f = "real/mariadb-galera-lost-update.plume.txt";
    assertThat(List.of(decide(f, Level.SNAPSHOT_ISOLATION), decide(f, Level.SERIALIZABLE))).isEqualTo(List.of(
        "VIOLATED PRUNING core 3 Stats[nodes=7, knownEdges=8, constraints=15, pruned=12, searched=0, rounds=2,"
            + " conflicts=0]",
        "VIOLATED PRUNING core 2 Stats[nodes=7, knownEdges=8, constraints=15, pruned=11, searched=0, rounds=1,"
            + " conflicts=0]"));
  }

  @Test
  void dgraphIsNotSnapshotIsolation() throws Exception {
    assertThat(List.of(decide("real/dgraph-dbcop", Level.SNAPSHOT_ISOLATION),
        decide("real/dgraph-causal.plume.txt", Level.SNAPSHOT_ISOLATION))).isEqualTo(List.of(
        "VIOLATED PRUNING core 1 Stats[nodes=480, knownEdges=8347, constraints=10153, pruned=3183, searched=0,"
            + " rounds=1, conflicts=0]",
        "VIOLATED PRUNING core 1 Stats[nodes=481, knownEdges=5343, constraints=10633, pruned=4223, searched=0,"
            + " rounds=1, conflicts=0]"));
  }

  @Test
  void aSearchThatRunsOutOfItsBudgetIsUnknownWithTheNumbers() throws Exception {
    History h = HistoryFiles.read(SharedHistories.shared("polysi/20_100_15_10000_0.5_uniform/hist-00000"), null,
        n -> {});
    PolygraphAnswer a = new PolygraphChecker(Level.SNAPSHOT_ISOLATION, true, 1, 1_000_000).solve(h);
    assertThat(a.verdict()).isEqualTo(Verdict.UNKNOWN);
    assertThat(a.reason()).isEqualTo("the search ran out of its budget of 1 conflict with 850 of 11138 constraints"
        + " left after pruning (--solver-budget)");
  }

  @Test
  void polysiBenchmarkHistoryIsSnapshotIsolationButNotSerializable() throws Exception {
    String f = "polysi/20_100_15_10000_0.5_uniform/hist-00000";
    assertThat(List.of(decide(f, Level.SNAPSHOT_ISOLATION), decide(f, Level.SERIALIZABLE))).isEqualTo(List.of(
        "CONSISTENT Stats[nodes=2000, knownEdges=16432, constraints=11138, pruned=10288, searched=850, rounds=4,"
            + " conflicts=153]",
        "VIOLATED PRUNING core 1 Stats[nodes=2000, knownEdges=16432, constraints=11138, pruned=6369, searched=0,"
            + " rounds=1, conflicts=0]"));
  }
}
