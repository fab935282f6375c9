package io.isowatch.checker.adya;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.EdgeType;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each phenomenon from a minimal history: the exact violations (anomaly, weakest level broken,
 * transactions, evidence operations, cycle edges) at the levels that forbid it, and a clean verdict
 * at the level just below. Transaction ids are line numbers from 0; operation ids count operations
 * from 0 in the order written.
 */
class PhenomenaTest {
  private History h;

  private List<Violation> check(String text, Level level) {
    return check(text, level, true);
  }

  private List<Violation> check(String text, Level level, boolean so) {
    h = TestHistories.parse(text);
    CheckResult r = new AdyaChecker(level, so).check(h);
    assertThat(r).isEqualTo(CheckResult.of(level, r.violations()));
    return r.violations();
  }

  private Edge edge(int from, int to, EdgeType type, String key, long value) {
    Because because = switch (type) {
      case WW -> Because.VERSION_ORDER;
      case WR -> Because.READS_FROM;
      case RW -> Because.ANTI_DEPENDENCY;
      default -> Because.SESSION_ORDER;
    };
    return new Edge(from, to, type, because, type == EdgeType.SO ? -1 : h.key(key), value, -1);
  }

  private static Violation cycle(Anomaly a, Level broken, List<Integer> txns, List<Integer> ops, Edge... edges) {
    return new Violation(a, broken, new Witness(txns, ops, List.of(edges)));
  }

  private static Violation plain(Anomaly a, Level broken, List<Integer> txns, List<Integer> ops) {
    return new Violation(a, broken, new Witness(txns, ops, List.of()));
  }

  static final String G0 = String.join("\n",
      "s1 T1: a x 1, a y 1",
      "s2 T2: a x 2, a y 2",
      "s3 T3: r x [1 2], r y [2 1]");

  @Test
  void g0IsAWriteCycleBrokenAtReadUncommitted() {
    assertThat(check(G0, Level.READ_UNCOMMITTED)).containsExactly(cycle(Anomaly.G0, Level.READ_UNCOMMITTED,
        List.of(0, 1), List.of(0, 2, 3, 1),
        edge(0, 1, EdgeType.WW, "x", 2), edge(1, 0, EdgeType.WW, "y", 1)));
  }

  @Test
  void g1aReadOfAnAbortedAppend() {
    String text = "s1 T1: a x 1 | aborted\ns2 T2: r x [1]";
    assertThat(check(text, Level.READ_COMMITTED)).containsExactly(
        plain(Anomaly.ABORTED_READ, Level.READ_COMMITTED, List.of(1, 0), List.of(1, 0)));
    assertThat(check(text, Level.READ_UNCOMMITTED)).isEmpty();
  }

  @Test
  void g1bReadOfAnIntermediateAppend() {
    String text = "s1 T1: a x 1, a x 2\ns2 T2: r x [1]";
    assertThat(check(text, Level.READ_COMMITTED)).containsExactly(
        plain(Anomaly.INTERMEDIATE_READ, Level.READ_COMMITTED, List.of(1, 0), List.of(2, 0, 1)));
    assertThat(check(text, Level.READ_UNCOMMITTED)).isEmpty();
  }

  @Test
  void g1cCircularInformationFlow() {
    String text = "s1 T1: a x 1, r y [1]\ns2 T2: a y 1, r x [1]";
    assertThat(check(text, Level.READ_COMMITTED)).containsExactly(cycle(Anomaly.G1C, Level.READ_COMMITTED,
        List.of(1, 0), List.of(2, 1, 0, 3),
        edge(1, 0, EdgeType.WR, "y", 1), edge(0, 1, EdgeType.WR, "x", 1)));
    assertThat(check(text, Level.READ_UNCOMMITTED)).isEmpty();
  }

  static final String READ_SKEW = String.join("\n",
      "s1 T1: a x 1, a y 1",
      "s2 T2: r x [], r y [1]",
      "s3 T3: r x [1], r y [1]");

  @Test
  void gSingleReadSkewPassesReadCommittedFailsSnapshotIsolation() {
    assertThat(check(READ_SKEW, Level.READ_COMMITTED)).isEmpty();
    Violation v = cycle(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION, List.of(1, 0), List.of(2, 0, 1, 3),
        edge(1, 0, EdgeType.RW, "x", 1), edge(0, 1, EdgeType.WR, "y", 1));
    assertThat(check(READ_SKEW, Level.SNAPSHOT_ISOLATION)).containsExactly(v);
    assertThat(check(READ_SKEW, Level.SERIALIZABLE)).containsExactly(v);
  }

  static final String LONG_FORK = String.join("\n",
      "s1 T1: a x 1",
      "s2 T2: a y 1",
      "s3 T3: r x [1], r y []",
      "s4 T4: r x [], r y [1]");

  @Test
  void gNonadjacentLongForkPassesReadCommittedFailsSnapshotIsolation() {
    assertThat(check(LONG_FORK, Level.READ_COMMITTED)).isEmpty();
    Violation v = cycle(Anomaly.G_NONADJACENT, Level.SNAPSHOT_ISOLATION, List.of(2, 1, 3, 0),
        List.of(3, 1, 5, 4, 0, 2),
        edge(2, 1, EdgeType.RW, "y", 1), edge(1, 3, EdgeType.WR, "y", 1),
        edge(3, 0, EdgeType.RW, "x", 1), edge(0, 2, EdgeType.WR, "x", 1));
    assertThat(check(LONG_FORK, Level.SNAPSHOT_ISOLATION)).containsExactly(v);
    assertThat(check(LONG_FORK, Level.SERIALIZABLE)).containsExactly(v);
  }

  static final String WRITE_SKEW = String.join("\n",
      "s1 T1: r x [], r y [], a x 1",
      "s2 T2: r x [], r y [], a y 1");

  @Test
  void g2ItemWriteSkewPassesSnapshotIsolationFailsSerializable() {
    assertThat(check(WRITE_SKEW, Level.SNAPSHOT_ISOLATION)).isEmpty();
    assertThat(check(WRITE_SKEW, Level.SERIALIZABLE)).containsExactly(
        cycle(Anomaly.G2_ITEM, Level.SERIALIZABLE, List.of(0, 1), List.of(1, 5, 3, 2),
            edge(0, 1, EdgeType.RW, "y", 1), edge(1, 0, EdgeType.RW, "x", 1)));
  }

  @Test
  void componentWithTwoClassesReportsEach() {
    String text = String.join("\n",
        "s1 T1: r x [], r y [], a x 1, a z 1",
        "s2 T2: r x [], r y [], a y 1, r z [1]");
    assertThat(check(text, Level.SERIALIZABLE)).containsExactly(
        cycle(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION, List.of(1, 0), List.of(4, 2, 3, 7),
            edge(1, 0, EdgeType.RW, "x", 1), edge(0, 1, EdgeType.WR, "z", 1)),
        cycle(Anomaly.G2_ITEM, Level.SERIALIZABLE, List.of(0, 1), List.of(1, 6, 4, 2),
            edge(0, 1, EdgeType.RW, "y", 1), edge(1, 0, EdgeType.RW, "x", 1)));
  }

  @Test
  void lostUpdateAndItsGSingleCycle() {
    String text = String.join("\n",
        "s1 T1: r x [], a x 1",
        "s2 T2: r x [], a x 2",
        "s3 T3: r x [1 2]");
    assertThat(check(text, Level.READ_COMMITTED)).isEmpty();
    assertThat(check(text, Level.SNAPSHOT_ISOLATION)).containsExactly(
        plain(Anomaly.LOST_UPDATE, Level.SNAPSHOT_ISOLATION, List.of(0, 1), List.of(0, 1, 2, 3)),
        cycle(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION, List.of(1, 0), List.of(2, 1, 3),
            edge(1, 0, EdgeType.RW, "x", 1), edge(0, 1, EdgeType.WW, "x", 2)));
  }

  @Test
  void incompatibleOrderNamesBothReads() {
    String text = String.join("\n",
        "s1 T1: a x 1",
        "s2 T2: a x 2",
        "s3 T3: r x [1 2]",
        "s4 T4: r x [2]");
    assertThat(check(text, Level.READ_UNCOMMITTED)).isEmpty();
    assertThat(check(text, Level.READ_COMMITTED)).containsExactly(
        plain(Anomaly.INCOMPATIBLE_ORDER, Level.READ_COMMITTED, List.of(3, 2), List.of(3, 2)));
  }

  @Test
  void duplicateElements() {
    assertThat(check("s1 T1: a x 1\ns2 T2: r x [1 1]", Level.READ_UNCOMMITTED)).containsExactly(
        plain(Anomaly.DUPLICATE_ELEMENTS, Level.READ_UNCOMMITTED, List.of(1), List.of(1)));
  }

  @Test
  void internalInconsistency() {
    String text = "s1 T1: a x 1\ns2 T2: r x [1], a x 2, r x [1]";
    assertThat(check(text, Level.READ_UNCOMMITTED)).isEmpty();
    assertThat(check(text, Level.READ_COMMITTED)).containsExactly(
        plain(Anomaly.INTERNAL, Level.READ_COMMITTED, List.of(1), List.of(3, 1, 2)));
  }

  @Test
  void dirtyUpdateOverAnAbortedAppend() {
    String text = "s1 T1: a x 1 | aborted\ns2 T2: a x 2\ns3 T3: r x [1 2]";
    assertThat(check(text, Level.READ_COMMITTED)).containsExactly(
        plain(Anomaly.ABORTED_READ, Level.READ_COMMITTED, List.of(2, 0), List.of(2, 0)),
        plain(Anomaly.DIRTY_UPDATE, Level.READ_COMMITTED, List.of(1, 0), List.of(1, 0, 2)));
  }

  @Test
  void readYourWritesFailureNeedsSessionOrder() {
    String text = "s1 T1: a x 1\ns1 T2: r x []";
    assertThat(check(text, Level.SNAPSHOT_ISOLATION)).containsExactly(
        cycle(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION, List.of(1, 0), List.of(1, 0),
            edge(1, 0, EdgeType.RW, "x", 1), edge(0, 1, EdgeType.SO, null, History.NIL)));
    assertThat(check(text, Level.SERIALIZABLE, false)).isEmpty();
  }

  @Test
  void aCycleWithoutSessionOrderIsPreferred() {
    // the read skew again, with T1 and T2 in one session: the witness needs no so edge
    String text = READ_SKEW.replace("s2 T2", "s1 T2");
    assertThat(check(text, Level.SNAPSHOT_ISOLATION)).containsExactly(
        cycle(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION, List.of(1, 0), List.of(2, 0, 1, 3),
            edge(1, 0, EdgeType.RW, "x", 1), edge(0, 1, EdgeType.WR, "y", 1)));
  }

  @Test
  void unknownOutcomeTransactionTakesPartThroughItsObservedAppendsOnly() {
    // T1's outcome is unknown: its append was read, so it is a node; its own read is not checked
    String text = String.join("\n",
        "s1 T1: a x 1, r z [9] | unknown",
        "s2 T2: r x [1], r y []",
        "s3 T3: a y 1, r x []");
    assertThat(check(text, Level.SNAPSHOT_ISOLATION)).isEmpty();
    assertThat(check(text, Level.SERIALIZABLE)).containsExactly(
        cycle(Anomaly.G2_ITEM, Level.SERIALIZABLE, List.of(1, 2, 0), List.of(3, 4, 5, 0, 2),
            edge(1, 2, EdgeType.RW, "y", 1), edge(2, 0, EdgeType.RW, "x", 1), edge(0, 1, EdgeType.WR, "x", 1)));
  }
}
