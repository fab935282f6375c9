package io.isowatch.checker.reference;

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

/** The reference checker on hand-made histories whose answers were worked out on paper. */
class ReferenceCheckerTest {
  private static final int INIT = Witness.INIT;
  private static final List<Level> LEVELS = List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL);

  private static CheckResult check(String text, Level level) {
    return new ReferenceChecker(level).check(TestHistories.parse(text));
  }

  private static Violation basic(Anomaly a, List<Integer> txns, List<Integer> ops) {
    return new Violation(a, Level.READ_COMMITTED, new Witness(txns, ops, List.of()));
  }

  private static Edge so(int from, int to) {
    return new Edge(from, to, EdgeType.SO, Because.SESSION_ORDER, -1, History.NIL, -1);
  }

  private static Edge co(int from, int to, Because why, int key, long value, int via) {
    return new Edge(from, to, EdgeType.CO, why, key, value, via);
  }

  private static void assertEveryLevel(String text, Violation expected) {
    for (Level level : LEVELS) {
      assertThat(check(text, level)).isEqualTo(new CheckResult(level, Verdict.VIOLATED, List.of(expected)));
    }
  }

  private static void assertConsistentEverywhere(String text) {
    for (Level level : LEVELS) {
      assertThat(check(text, level)).isEqualTo(new CheckResult(level, Verdict.CONSISTENT, List.of()));
    }
  }

  @Test
  void basicAxiomsOnePerKind() {
    assertEveryLevel("s1 T1: r x 5", basic(Anomaly.THIN_AIR_READ, List.of(0), List.of(0)));
    assertEveryLevel("s1 T1: w x 1 | aborted\ns2 T2: r x 1", basic(Anomaly.ABORTED_READ, List.of(1, 0), List.of(1, 0)));
    assertEveryLevel("s1 T1: r x 1, w x 1", basic(Anomaly.FUTURE_READ, List.of(0), List.of(0, 1)));
    assertEveryLevel("s1 T1: w x 1\ns2 T2: w x 2, r x 1", basic(Anomaly.NOT_MY_OWN_WRITE, List.of(1, 0), List.of(2, 0)));
    assertEveryLevel("s1 T1: w x 1, r x _", basic(Anomaly.NOT_MY_OWN_WRITE, List.of(0), List.of(1)));
    assertEveryLevel("s1 T1: w x 1, w x 2, r x 1", basic(Anomaly.NOT_MY_LAST_WRITE, List.of(0), List.of(2, 0)));
    assertEveryLevel("s1 T1: w x 1, w x 2\ns2 T2: r x 1", basic(Anomaly.INTERMEDIATE_READ, List.of(1, 0), List.of(2, 0)));
    assertEveryLevel("s1 T1: a k 1, a k 2\ns2 T2: r k [1]", basic(Anomaly.INTERMEDIATE_READ, List.of(1, 0), List.of(2, 0)));
  }

  @Test
  void nonRepeatableReadIsAllowedAtReadCommittedOnly() {
    String text = "s1 T1: w x 1\ns2 T2: r x _, r x 1";
    assertThat(check(text, Level.READ_COMMITTED)).isEqualTo(new CheckResult(Level.READ_COMMITTED, Verdict.CONSISTENT, List.of()));
    for (Level level : List.of(Level.READ_ATOMIC, Level.CAUSAL)) {
      assertThat(check(text, level)).isEqualTo(new CheckResult(level, Verdict.VIOLATED, List.of(
          new Violation(Anomaly.NON_REPEATABLE_READ, Level.READ_ATOMIC, new Witness(List.of(1, INIT, 0), List.of(1, 2), List.of())),
          new Violation(Anomaly.COMMIT_ORDER_CYCLE, Level.READ_ATOMIC, new Witness(List.of(0, INIT), List.of(), List.of(
              co(0, INIT, Because.READ_FROM_WRITER, 0, History.NIL, 1), so(INIT, 0)))))));
    }
  }

  @Test
  void twoSlotCaseBreaksReadCommitted() {
    String text = "s1 T1: w x 1\ns1 T2: w y 2, w x 2\ns2 T3: r y 2, r x 2, r x 2, r x 1";
    Violation cycle = new Violation(Anomaly.COMMIT_ORDER_CYCLE, Level.READ_COMMITTED, new Witness(List.of(0, 1), List.of(),
        List.of(so(0, 1), co(1, 0, Because.READ_EARLIER, 0, 1, 2))));
    assertThat(check(text, Level.READ_COMMITTED)).isEqualTo(new CheckResult(Level.READ_COMMITTED, Verdict.VIOLATED, List.of(cycle)));
    Violation nonRepeatable = new Violation(Anomaly.NON_REPEATABLE_READ, Level.READ_ATOMIC,
        new Witness(List.of(2, 1, 0), List.of(4, 5, 6), List.of()));
    assertThat(check(text, Level.CAUSAL)).isEqualTo(new CheckResult(Level.CAUSAL, Verdict.VIOLATED, List.of(nonRepeatable, cycle)));
  }

  @Test
  void fuzzedT7T8T9CaseBreaksReadCommitted() {
    String text = "s1 T7: w x2 1, w x0 1\ns2 T8: w x1 1, r x0 1, w x0 2, w x0 3\ns0 T9: r x2 1, r x0 3, r x0 3, r x0 1";
    Violation cycle = new Violation(Anomaly.COMMIT_ORDER_CYCLE, Level.READ_COMMITTED, new Witness(List.of(0, 1), List.of(),
        List.of(new Edge(0, 1, EdgeType.WR, Because.READS_FROM, 1, 1, -1), co(1, 0, Because.READ_EARLIER, 1, 1, 2))));
    assertThat(check(text, Level.READ_COMMITTED)).isEqualTo(new CheckResult(Level.READ_COMMITTED, Verdict.VIOLATED, List.of(cycle)));
  }

  @Test
  void fracturedReadBreaksReadAtomicNotReadCommitted() {
    String text = "s0 T0: w x 0, w y 0\ns1 T1: w x 1, w y 1\ns2 T2: r y 0, r x 1";
    assertThat(check(text, Level.READ_COMMITTED)).isEqualTo(new CheckResult(Level.READ_COMMITTED, Verdict.CONSISTENT, List.of()));
    Violation cycle = new Violation(Anomaly.COMMIT_ORDER_CYCLE, Level.READ_ATOMIC, new Witness(List.of(0, 1), List.of(),
        List.of(co(0, 1, Because.READ_EARLIER, 0, 1, 2), co(1, 0, Because.READ_FROM_WRITER, 1, 0, 2))));
    assertThat(check(text, Level.READ_ATOMIC)).isEqualTo(new CheckResult(Level.READ_ATOMIC, Verdict.VIOLATED, List.of(cycle)));
    assertThat(check(text, Level.CAUSAL)).isEqualTo(new CheckResult(Level.CAUSAL, Verdict.VIOLATED, List.of(cycle)));
  }

  @Test
  void staleReadAfterCausalChainBreaksCausalOnly() {
    String text = "s1 T0: w x 0\ns1 T1: w x 1\ns2 T2: r x 1, w y 1\ns3 T3: r y 1, r x 0";
    assertThat(check(text, Level.READ_COMMITTED)).isEqualTo(new CheckResult(Level.READ_COMMITTED, Verdict.CONSISTENT, List.of()));
    assertThat(check(text, Level.READ_ATOMIC)).isEqualTo(new CheckResult(Level.READ_ATOMIC, Verdict.CONSISTENT, List.of()));
    assertThat(check(text, Level.CAUSAL)).isEqualTo(new CheckResult(Level.CAUSAL, Verdict.VIOLATED, List.of(
        new Violation(Anomaly.COMMIT_ORDER_CYCLE, Level.CAUSAL, new Witness(List.of(0, 1), List.of(),
            List.of(so(0, 1), co(1, 0, Because.CAUSAL_PAST, 0, 0, 3)))))));
  }

  @Test
  void serialHistoriesAreConsistent() {
    assertConsistentEverywhere("s1 T1: w x 1, w y 1\ns2 T2: r x 1, r y 1\ns2 T3: w x 2\ns1 T4: r x 2, r y 1");
    assertConsistentEverywhere("s1 T1: w x 1 | unknown\ns2 T2: r x 1");
    assertConsistentEverywhere("s1 T1: r x 7 | unknown\ns2 T2: r x 3 | aborted");
    assertConsistentEverywhere("s1 T1: a k 1, a k 2\ns2 T2: r k [1 2], r k [1 2]\ns3 T3: r k []");
  }

  @Test
  void graphHoldsOnlyEdgesWhosePremiseHoldsAtItsLevel() {
    History h = TestHistories.parse("s1 T1: w x 1\ns2 T2: r x _, r x 1\ns2 T3: w y 1");
    ReferenceGraph rc = new ReferenceChecker(Level.READ_COMMITTED).graph(h);
    ReferenceGraph ra = new ReferenceChecker(Level.READ_ATOMIC).graph(h);
    Edge fromWriter = co(0, INIT, Because.READ_FROM_WRITER, 0, History.NIL, 1);
    Edge readEarlier = co(0, INIT, Because.READ_EARLIER, 0, History.NIL, 1);
    Edge wrongWr = new Edge(0, 2, EdgeType.WR, Because.READS_FROM, 0, 1, -1);
    assertThat(List.of(rc.holds(fromWriter), ra.holds(fromWriter), ra.holds(readEarlier), ra.holds(so(1, 2)),
        ra.holds(so(2, 1)), ra.holds(so(INIT, 2)), ra.holds(new Edge(0, 1, EdgeType.WR, Because.READS_FROM, 0, 1, -1)),
        ra.holds(wrongWr))).isEqualTo(List.of(false, true, false, true, false, true, true, false));
  }
}
