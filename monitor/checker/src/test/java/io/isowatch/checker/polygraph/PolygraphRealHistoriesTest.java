package io.isowatch.checker.polygraph;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.finding.Findings;
import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.SharedHistories;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
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
        "VIOLATED CASES core 3 Stats[nodes=7, knownEdges=8, constraints=15, pruned=12, searched=0, rounds=2,"
            + " conflicts=0]",
        "VIOLATED CASES core 2 Stats[nodes=7, knownEdges=8, constraints=15, pruned=11, searched=0, rounds=1,"
            + " conflicts=0]"));
  }

  @Test
  void galeraLostUpdateWitnessListsEveryOrderOfItsThreeWriters() throws Exception {
    History h = HistoryFiles.read(SharedHistories.shared("real/mariadb-galera-lost-update.plume.txt"), null, n -> {});
    CheckResult r = new PolygraphChecker(Level.SNAPSHOT_ISOLATION).check(h);
    assertThat(r.violations()).extracting(v -> v.anomaly().id() + " " + v.weakestLevelBroken().cliName())
        .containsExactly("lost-update snapshot-isolation");
    List<String> lines = Findings.of(h, r.violations().get(0)).lines();
    assertThat(lines).hasSize(1 + 3 + 8 * 3);
    assertThat(lines.subList(0, 7)).containsExactly(
        "no order of the writes of T2 and T3, T2 and T8, T3 and T8 avoids a cycle (8 cases)",
        "T2 (session 1): w(0)=3 w(0)=4",
        "T3 (session 1): r(0)=4 w(0)=5",
        "T8 (session 2): r(0)=4 w(0)=10",
        "case 1 of 8: if T2's writes come before T3's, T2's before T8's and T3's before T8's: cycle T3 -> T8 -> T3",
        "  ww: this case puts T8's write of key 0 = 10 after T3's write of key 0 = 5",
        "  rw: T8 read key 0 = 4 from T2, and this case puts T3's write of key 0 = 5 after T2's");
  }

  @Test
  void dgraphIsNotSnapshotIsolation() throws Exception {
    assertThat(List.of(decide("real/dgraph-dbcop", Level.SNAPSHOT_ISOLATION),
        decide("real/dgraph-causal.plume.txt", Level.SNAPSHOT_ISOLATION))).isEqualTo(List.of(
        "VIOLATED CASES core 1 Stats[nodes=480, knownEdges=8347, constraints=10153, pruned=3183, searched=0,"
            + " rounds=1, conflicts=0]",
        "VIOLATED CASES core 1 Stats[nodes=481, knownEdges=5343, constraints=10633, pruned=4223, searched=0,"
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
        "VIOLATED CASES core 1 Stats[nodes=2000, knownEdges=16432, constraints=11138, pruned=6369, searched=0,"
            + " rounds=1, conflicts=0]"));
  }
}
