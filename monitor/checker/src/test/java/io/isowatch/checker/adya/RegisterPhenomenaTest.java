package io.isowatch.checker.adya;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
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
import org.junit.jupiter.api.Test;

/**
 * Register histories (reads and writes only, no version order in the reads): what the Adya checker
 * recovers without a version order, and the {@code unknown} verdict where it cannot decide.
 * Transaction ids are line numbers from 0; operation ids count operations from 0 in the order
 * written.
 */
class RegisterPhenomenaTest {
  private History h;

  private CheckResult check(String text, Level level) {
    h = TestHistories.parse(text);
    return new AdyaChecker(level).check(h);
  }

  private static CheckResult result(Level level, Verdict verdict, Violation... violations) {
    return new CheckResult(level, verdict, List.of(violations));
  }

  private Edge edge(int from, int to, EdgeType type, String key, long value) {
    Because because = type == EdgeType.WR ? Because.READS_FROM : Because.ANTI_DEPENDENCY;
    return new Edge(from, to, type, because, h.key(key), value, -1);
  }

  private static Violation violation(Anomaly a, Level broken, List<Integer> txns, List<Integer> ops, Edge... edges) {
    return new Violation(a, broken, new Witness(txns, ops, List.of(edges)));
  }

  static final String LOST_UPDATE_INITIAL = String.join("\n",
      "s1 T1: r x _, w x 1",
      "s2 T2: r x _, w x 2");

  @Test
  void lostUpdateOnTheInitialValue() {
    // both read the initial value of x and both wrote x; which write came first is not known
    Violation lost = violation(Anomaly.LOST_UPDATE, Level.SNAPSHOT_ISOLATION, List.of(0, 1), List.of(0, 1, 2, 3));
    assertThat(check(LOST_UPDATE_INITIAL, Level.READ_COMMITTED))
        .isEqualTo(result(Level.READ_COMMITTED, Verdict.CONSISTENT));
    assertThat(check(LOST_UPDATE_INITIAL, Level.SNAPSHOT_ISOLATION))
        .isEqualTo(result(Level.SNAPSHOT_ISOLATION, Verdict.VIOLATED, lost));
    // each read the initial value the other's write replaced: two adjacent anti-dependencies
    assertThat(check(LOST_UPDATE_INITIAL, Level.SERIALIZABLE)).isEqualTo(result(Level.SERIALIZABLE, Verdict.VIOLATED,
        lost,
        violation(Anomaly.G2_ITEM, Level.SERIALIZABLE, List.of(1, 0), List.of(2, 1, 0, 3),
            edge(1, 0, EdgeType.RW, "x", 1), edge(0, 1, EdgeType.RW, "x", 2))));
  }

  @Test
  void lostUpdateOnAWrittenVersion() {
    String text = String.join("\n",
        "s1 T1: w x 1",
        "s2 T2: r x 1, w x 2",
        "s3 T3: r x 1, w x 3");
    assertThat(check(text, Level.SNAPSHOT_ISOLATION)).isEqualTo(result(Level.SNAPSHOT_ISOLATION, Verdict.VIOLATED,
        violation(Anomaly.LOST_UPDATE, Level.SNAPSHOT_ISOLATION, List.of(1, 2), List.of(1, 2, 3, 4))));
  }

  static final String UNORDERED = String.join("\n",
      "s1 T1: w x 1",
      "s2 T2: w x 2",
      "s3 T3: r x 2");

  @Test
  void unorderedWritesGiveUnknownAboveReadCommitted() {
    // nothing shows whether T1's write of x came before T2's: T3 may have missed T1's (rw T3 -> T1)
    for (Level l : List.of(Level.READ_UNCOMMITTED, Level.READ_COMMITTED)) {
      assertThat(check(UNORDERED, l)).isEqualTo(result(l, Verdict.CONSISTENT));
    }
    for (Level l : List.of(Level.SNAPSHOT_ISOLATION, Level.SERIALIZABLE)) {
      assertThat(check(UNORDERED, l)).isEqualTo(new CheckResult(l, Verdict.UNKNOWN, List.of(),
          "the version order of 1 register key is not recovered from the reads, and " + l.cliName()
              + " needs it to rule out anti-dependency cycles; the polygraph check searches the orders the"
              + " reads leave open (docs/levels.md, \"Register histories\")"));
    }
  }

  @Test
  void writesFollowReadsRecoverTheOrder() {
    // T2 read T1's x then wrote x: 1 before 2, the whole order of x
    String text = String.join("\n",
        "s1 T1: w x 1",
        "s2 T2: r x 1, w x 2",
        "s3 T3: r x 2");
    assertThat(check(text, Level.SERIALIZABLE)).isEqualTo(result(Level.SERIALIZABLE, Verdict.CONSISTENT));
  }

  static final String WFR_G_SINGLE = String.join("\n",
      "s1 T1: w x 1",
      "s2 T2: r x 1, w x 2, w y 2",
      "s3 T3: r y 2, r x 1");

  @Test
  void gSingleThroughWritesFollowReads() {
    // T2 read x = 1 and wrote x = 2, so 2 follows 1; T3 read T2's y yet x = 1: it missed T2's x
    assertThat(check(WFR_G_SINGLE, Level.READ_COMMITTED)).isEqualTo(result(Level.READ_COMMITTED, Verdict.CONSISTENT));
    assertThat(check(WFR_G_SINGLE, Level.SNAPSHOT_ISOLATION)).isEqualTo(result(Level.SNAPSHOT_ISOLATION,
        Verdict.VIOLATED,
        // evidence: T3's read of x, T2's read of x (which puts its write after 1), T2's writes, T3's read of y
        violation(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION, List.of(2, 1), List.of(5, 1, 2, 3, 4),
            edge(2, 1, EdgeType.RW, "x", 2), edge(1, 2, EdgeType.WR, "y", 2))));
  }

  static final String READ_SKEW = String.join("\n",
      "s1 T1: w x 1, w y 1",
      "s2 T2: r y 1, r x _");

  @Test
  void readSkewThroughTheInitialValue() {
    // T2 read T1's y but the initial x, which every write of x follows
    assertThat(check(READ_SKEW, Level.READ_COMMITTED)).isEqualTo(result(Level.READ_COMMITTED, Verdict.CONSISTENT));
    assertThat(check(READ_SKEW, Level.SNAPSHOT_ISOLATION)).isEqualTo(result(Level.SNAPSHOT_ISOLATION,
        Verdict.VIOLATED,
        violation(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION, List.of(1, 0), List.of(3, 0, 1, 2),
            edge(1, 0, EdgeType.RW, "x", 1), edge(0, 1, EdgeType.WR, "y", 1))));
  }

  @Test
  void readSkewAcrossAListKeyAndARegisterKey() {
    String text = String.join("\n",
        "s1 T1: a l 1, w x 1",
        "s2 T2: r l [1], r x _");
    assertThat(check(text, Level.SNAPSHOT_ISOLATION)).isEqualTo(result(Level.SNAPSHOT_ISOLATION,
        Verdict.VIOLATED,
        violation(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION, List.of(1, 0), List.of(3, 1, 0, 2),
            edge(1, 0, EdgeType.RW, "x", 1), edge(0, 1, EdgeType.WR, "l", 1))));
  }

  @Test
  void incrementalFormReportsARegisterLostUpdateOnceAndAThinAirReadAtTheEnd() {
    h = TestHistories.parse(LOST_UPDATE_INITIAL + "\ns3 T3: r x 9");
    IncrementalAdya inc = new IncrementalAdya(h, Level.SNAPSHOT_ISOLATION, true);
    Violation lost = violation(Anomaly.LOST_UPDATE, Level.SNAPSHOT_ISOLATION, List.of(0, 1), List.of(0, 1, 2, 3));
    Violation thin = violation(Anomaly.THIN_AIR_READ, Level.READ_COMMITTED, List.of(2), List.of(4));
    assertThat(List.of(inc.accept(0), inc.accept(1), inc.accept(2), inc.finish()))
        .containsExactly(List.of(), List.of(lost), List.of(), List.of(thin));
  }

  @Test
  void readsThatNeedNoVersionOrder() {
    assertThat(check("s1 T1: w x 1 | aborted\ns2 T2: r x 1", Level.READ_COMMITTED)).isEqualTo(
        result(Level.READ_COMMITTED, Verdict.VIOLATED,
            violation(Anomaly.ABORTED_READ, Level.READ_COMMITTED, List.of(1, 0), List.of(1, 0))));
    assertThat(check("s1 T1: w x 1, w x 2\ns2 T2: r x 1", Level.READ_COMMITTED)).isEqualTo(
        result(Level.READ_COMMITTED, Verdict.VIOLATED,
            violation(Anomaly.INTERMEDIATE_READ, Level.READ_COMMITTED, List.of(1, 0), List.of(2, 0, 1))));
    assertThat(check("s1 T1: w x 1, r x _", Level.READ_COMMITTED)).isEqualTo(
        result(Level.READ_COMMITTED, Verdict.VIOLATED,
            violation(Anomaly.INTERNAL, Level.READ_COMMITTED, List.of(0), List.of(1, 0))));
    assertThat(check("s1 T1: w x 1\ns2 T2: r x 1, r x _", Level.READ_COMMITTED)).isEqualTo(
        result(Level.READ_COMMITTED, Verdict.CONSISTENT));
    assertThat(check("s1 T1: w x 1\ns2 T2: r x 1, r x _", Level.SERIALIZABLE).violations()).contains(
        violation(Anomaly.NON_REPEATABLE_READ, Level.READ_ATOMIC, List.of(1), List.of(2, 1)));
    assertThat(check("s1 T1: r x 1, w x 1", Level.READ_COMMITTED)).isEqualTo(
        result(Level.READ_COMMITTED, Verdict.VIOLATED,
            violation(Anomaly.FUTURE_READ, Level.READ_COMMITTED, List.of(0), List.of(0, 1))));
    assertThat(check("s1 T1: r x 5", Level.READ_COMMITTED)).isEqualTo(
        result(Level.READ_COMMITTED, Verdict.VIOLATED,
            violation(Anomaly.THIN_AIR_READ, Level.READ_COMMITTED, List.of(0), List.of(0))));
  }
}
