package io.isowatch.checker.adya;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.SharedHistories;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.EdgeType;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Real register histories from {@code ../shared/histories/real/} (skipped when that folder is
 * absent): the MariaDB Galera lost update with its exact witness, and the verdict and the number of
 * violations of each anomaly at each level for the other register files.
 */
class RegisterRealHistoriesTest {
  private static final List<Level> LEVELS = List.of(
      Level.READ_UNCOMMITTED, Level.READ_COMMITTED, Level.SNAPSHOT_ISOLATION, Level.SERIALIZABLE);

  private static History read(String name) throws Exception {
    return HistoryFiles.read(SharedHistories.real(name), null, n -> {});
  }

  @Test
  void galeraLostUpdate() throws Exception {
    History h = read("mariadb-galera-lost-update.plume.txt");
    // Plume appends a session's transaction when the session starts its next one: T1, T2, T3, T8, T9, ...
    assertThat(List.of(h.label(2), h.label(3))).isEqualTo(List.of(3L, 8L));
    // T3 and T8 both read T2's write of 4 to key 0 (ops 4 and 6), then wrote 5 and 10 (ops 5 and 7)
    Violation lost = new Violation(Anomaly.LOST_UPDATE, Level.SNAPSHOT_ISOLATION,
        new Witness(List.of(2, 3), List.of(4, 5, 6, 7), List.of()));
    for (Level l : List.of(Level.READ_UNCOMMITTED, Level.READ_COMMITTED)) {
      assertThat(new AdyaChecker(l).check(h)).isEqualTo(new CheckResult(l, Verdict.CONSISTENT, List.of()));
    }
    assertThat(new AdyaChecker(Level.SNAPSHOT_ISOLATION).check(h))
        .isEqualTo(new CheckResult(Level.SNAPSHOT_ISOLATION, Verdict.VIOLATED, List.of(lost)));
    int key = h.key("0");
    // T8 read 4 (op 6) and missed T3's write of 5, which T3's read of 4 (op 4) puts after 4 (op 5);
    // T3 missed T8's write of 10 (op 7), which T8's own read of 4 puts after 4
    Violation skew = new Violation(Anomaly.G2_ITEM, Level.SERIALIZABLE, new Witness(
        List.of(3, 2), List.of(6, 4, 5, 7), List.of(
            new Edge(3, 2, EdgeType.RW, Because.ANTI_DEPENDENCY, key, 5, -1),
            new Edge(2, 3, EdgeType.RW, Because.ANTI_DEPENDENCY, key, 10, -1))));
    assertThat(new AdyaChecker(Level.SERIALIZABLE).check(h))
        .isEqualTo(new CheckResult(Level.SERIALIZABLE, Verdict.VIOLATED, List.of(lost, skew)));
  }

  /** @return per level, the verdict and the count of violations per anomaly */
  private static List<String> summary(History h) {
    return LEVELS.stream().map(l -> {
      CheckResult r = new AdyaChecker(l).check(h);
      Map<String, Integer> counts = new TreeMap<>();
      r.violations().forEach(v -> counts.merge(v.anomaly().id(), 1, Integer::sum));
      return l + " " + r.verdict() + " " + counts;
    }).toList();
  }

  @Test
  void dgraphCausal() throws Exception {
    // a causal violation the Adya levels cannot see; no write order of a contended key is revealed
    assertThat(summary(read("dgraph-causal.plume.txt"))).isEqualTo(List.of(
        "read-uncommitted CONSISTENT {}",
        "read-committed CONSISTENT {}",
        "snapshot-isolation UNKNOWN {}",
        "serializable UNKNOWN {}"));
  }

  @Test
  void antidote() throws Exception {
    assertThat(summary(read("antidote.plume.txt"))).isEqualTo(List.of(
        "read-uncommitted CONSISTENT {}",
        "read-committed VIOLATED {G1c=2, thin-air-read=15}",
        "snapshot-isolation VIOLATED {G-nonadjacent=2, G-single=2, G1c=2, lost-update=5, thin-air-read=15}",
        "serializable VIOLATED {G-nonadjacent=2, G-single=2, G1c=2, G2-item=2, lost-update=5, thin-air-read=15}"));
  }

  @Test
  void dgraphDbcop() throws Exception {
    // PolySI's snapshot isolation violation needs a search over write orders: unknown here
    assertThat(summary(read("dgraph-dbcop"))).isEqualTo(List.of(
        "read-uncommitted CONSISTENT {}",
        "read-committed CONSISTENT {}",
        "snapshot-isolation UNKNOWN {}",
        "serializable VIOLATED {G2-item=3}"));
  }
}
