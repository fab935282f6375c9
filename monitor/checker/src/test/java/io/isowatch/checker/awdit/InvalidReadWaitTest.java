package io.isowatch.checker.awdit;

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
 * Regression cases found by {@link FastVersusReferenceTest} (minimised): a read that breaks a basic
 * axiom has no wr edge (semantics.md §3), so it must not make its transaction wait for its writer.
 * Here each such read points forward in session order (or into a wr cycle); when the scheduler
 * waited on it, the transactions stayed stuck until {@code finish()}, which adds their edges without
 * saturation, and the {@code co'} edge of the expected cycle went missing (205, 304 and 315 of
 * 20,000 histories at RC, RA and CC before the fix; every one disappeared once such reads were
 * removed from the history).
 */
class InvalidReadWaitTest {
  private static final long NIL = History.NIL;

  private static Violation initCycle(Level weakest, Because why, int via) {
    return new Violation(Anomaly.COMMIT_ORDER_CYCLE, weakest, new Witness(List.of(Witness.INIT, 0), List.of(),
        List.of(new Edge(Witness.INIT, 0, EdgeType.SO, Because.SESSION_ORDER, -1, NIL, -1),
            new Edge(0, Witness.INIT, EdgeType.CO, why, 0, NIL, via))));
  }

  /** T1 reads T3's x after writing x; T2 reads the initial x although its predecessor T1 wrote x. */
  @Test
  void notMyOwnWriteFromALaterTransactionOfTheSession() {
    History h = TestHistories.parse("s1 T1: w x 1, r x 3\ns1 T2: r x _\ns1 T3: w x 3");
    Violation own = new Violation(Anomaly.NOT_MY_OWN_WRITE, Level.READ_COMMITTED,
        new Witness(List.of(0, 2), List.of(1, 0, 3), List.of()));
    assertThat(new RaChecker().check(h)).isEqualTo(CheckResult.of(Level.READ_ATOMIC,
        List.of(own, initCycle(Level.READ_ATOMIC, Because.SESSION_PREDECESSOR, 1))));
  }

  /** T1 reads aborted T3's x; T2 reads the initial y although its predecessor T1 wrote y. */
  @Test
  void abortedReadFromALaterTransactionOfTheSession() {
    History h = TestHistories.parse("s1 T1: w y 1, r x 9\ns1 T2: r y _\ns1 T3: w x 9 | aborted");
    Violation aborted = new Violation(Anomaly.ABORTED_READ, Level.READ_COMMITTED,
        new Witness(List.of(0, 2), List.of(1, 3), List.of()));
    assertThat(new RaChecker().check(h)).isEqualTo(CheckResult.of(Level.READ_ATOMIC,
        List.of(aborted, initCycle(Level.READ_ATOMIC, Because.SESSION_PREDECESSOR, 1))));
  }

  /** T1 and T2 read each other (T1's read is not-my-own-write); T3 reads y from T1, then the initial y. */
  @Test
  void notMyOwnWriteInAReadCycleBreaksReadCommitted() {
    History h = TestHistories.parse("s1 T1: w y 1, w x 1, r x 2\ns2 T2: r y 1, w x 2\ns3 T3: r y 1, r y _");
    Violation own = new Violation(Anomaly.NOT_MY_OWN_WRITE, Level.READ_COMMITTED,
        new Witness(List.of(0, 1), List.of(2, 1, 4), List.of()));
    assertThat(new RcChecker().check(h)).isEqualTo(CheckResult.of(Level.READ_COMMITTED,
        List.of(own, initCycle(Level.READ_COMMITTED, Because.READ_EARLIER, 2))));
  }
}
