package io.isowatch.checker.awdit;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link IncrementalChecker#accept} reports a cycle of {@code so ∪ wr} as soon as the transaction
 * that closes it is accepted, without {@link IncrementalChecker#finish()} (a stream never
 * finishes), and keeps waiting for a writer that has not been accepted.
 */
class CycleReleaseTest {
  /** T1 and T2 read each other's writes: the second one accepted closes the wr cycle. */
  @Test
  void aWriteReadCycleIsReportedByTheAcceptThatClosesIt() {
    History h = TestHistories.parse("s1 T1: w y 1, r x 2\ns2 T2: r y 1, w x 2");
    IncrementalChecker c = new IncrementalChecker(h, Level.READ_COMMITTED);
    assertThat(c.accept(0)).isEmpty();
    List<Violation> found = c.accept(1);
    assertThat(found).hasSize(1);
    assertThat(found.get(0).anomaly()).isEqualTo(Anomaly.COMMIT_ORDER_CYCLE);
    assertThat(found.get(0).weakestLevelBroken()).isEqualTo(Level.READ_COMMITTED);
    assertThat(found.get(0).witness().txns()).containsExactlyInAnyOrder(0, 1);
    assertThat(c.finish()).isEmpty();
  }

  /** T1 reads a value of T2, which is later in T1's own session: so ∪ wr cycle T1 → T2 → T1. */
  @Test
  void aReadOfALaterTransactionOfTheSessionIsReportedWithoutFinish() {
    History h = TestHistories.parse("s1 T1: r x 2\ns1 T2: w x 2");
    IncrementalChecker c = new IncrementalChecker(h, Level.CAUSAL);
    assertThat(c.accept(0)).isEmpty();
    List<Violation> found = c.accept(1);
    assertThat(found).extracting(Violation::anomaly).containsExactly(Anomaly.COMMIT_ORDER_CYCLE);
    assertThat(found.get(0).witness().txns()).containsExactlyInAnyOrder(0, 1);
    assertThat(c.finish()).isEmpty();
  }

  /**
   * T1 and T2 read each other, but T1 also reads z from T3, not accepted yet: the cycle may not be
   * released (T3's saturation could still add edges), so it waits for T3, then closes.
   */
  @Test
  void aCycleWaitingAlsoForAWriterYetToArriveStaysHeldUntilItArrives() {
    History h = TestHistories.parse("s1 T1: w y 1, r x 2, r z 3\ns2 T2: r y 1, w x 2\ns3 T3: w z 3");
    IncrementalChecker c = new IncrementalChecker(h, Level.READ_COMMITTED);
    assertThat(c.accept(0)).isEmpty();
    assertThat(c.accept(1)).isEmpty();
    List<Violation> found = c.accept(2);
    assertThat(found).extracting(Violation::anomaly).containsExactly(Anomaly.COMMIT_ORDER_CYCLE);
    assertThat(found.get(0).witness().txns()).containsExactlyInAnyOrder(0, 1);
    assertThat(c.finish()).isEmpty();
  }

  /** A read of a value no accepted transaction wrote is still held, and is a thin-air read at finish. */
  @Test
  void aReadOfAMissingWriterIsStillHeldUntilFinish() {
    History h = TestHistories.parse("s1 T1: r x 7\ns1 T2: w y 1");
    IncrementalChecker c = new IncrementalChecker(h, Level.READ_COMMITTED);
    assertThat(c.accept(0)).isEmpty();
    assertThat(c.accept(1)).isEmpty();
    assertThat(c.finish()).extracting(Violation::anomaly).containsExactly(Anomaly.THIN_AIR_READ);
  }
}
