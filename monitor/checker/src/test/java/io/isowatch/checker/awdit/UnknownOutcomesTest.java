package io.isowatch.checker.awdit;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.junit.jupiter.api.Test;

/**
 * A transaction of unknown outcome counts as committed only when a transaction that counts read one
 * of its writes, to a fixpoint ({@link io.isowatch.checker.history.CountedOutcomes}): the verdicts of read committed, read atomic
 * and causal, batch and incremental, on the smallest history of the finding (register seed 562 of
 * {@code VerdictVectorPropertyTest}) and on variants where the transaction is read from.
 */
class UnknownOutcomesTest {
  /** T2 may have aborted; then T3's read of the initial value is fine at every level. */
  private static final String UNOBSERVED = """
      s0 T1: r x _
      s0 T2: w x 1 | unknown
      s0 T3: r x _
      """;

  @Test
  void anUnobservedTransactionOfUnknownOutcomeRaisesNoViolation() {
    History h = TestHistories.parse(UNOBSERVED);
    for (Level level : new Level[] {Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL}) {
      assertThat(FastVersusReferenceTest.fast(level).check(h).verdict()).as("batch %s", level)
          .isEqualTo(Verdict.CONSISTENT);
      assertThat(BatchVersusIncrementalTest.incremental(h, level, BatchVersusIncrementalTest.historyOrder(h))
          .verdict()).as("incremental %s", level).isEqualTo(Verdict.CONSISTENT);
    }
  }

  /**
   * A committed T4 reads T2's write, so T2 committed: T2 precedes T3 in session order and writes x,
   * T3 read x from the initial state, a read atomic (and causal) cycle; read committed holds. The
   * incremental checker fed T4 last has processed T3 with T2 not yet counted: it finds nothing, the
   * documented "fewer, never more".
   */
  @Test
  void aReadFromTransactionOfUnknownOutcomeCountsAsCommitted() {
    History h = TestHistories.parse(UNOBSERVED + "s1 T4: r x 1\n");
    assertThat(FastVersusReferenceTest.fast(Level.READ_COMMITTED).check(h).verdict()).isEqualTo(Verdict.CONSISTENT);
    assertThat(FastVersusReferenceTest.fast(Level.READ_ATOMIC).check(h).verdict()).isEqualTo(Verdict.VIOLATED);
    assertThat(FastVersusReferenceTest.fast(Level.CAUSAL).check(h).verdict()).isEqualTo(Verdict.VIOLATED);
    IntArrayList lastReader = BatchVersusIncrementalTest.historyOrder(h);
    assertThat(BatchVersusIncrementalTest.incremental(h, Level.READ_ATOMIC, lastReader).verdict())
        .isEqualTo(Verdict.CONSISTENT);
  }

  /**
   * T2 is read only by T4, itself of unknown outcome, read by committed T5: T4 counts, so T2 does
   * (the fixpoint). The incremental checker agrees when the readers arrive first (T5, T4, then
   * session s0), each read waiting for its writer; fed in history order, T2 is processed before T5
   * shows it committed, and it finds nothing (fewer, never more).
   */
  @Test
  void countingIsAFixpointThroughReadersOfUnknownOutcome() {
    History h = TestHistories.parse("""
        s0 T1: r x _
        s0 T2: w x 1 | unknown
        s1 T4: r x 1, w y 1 | unknown
        s2 T5: r y 1
        s0 T3: r x _
        """);
    assertThat(FastVersusReferenceTest.fast(Level.READ_ATOMIC).check(h).verdict()).isEqualTo(Verdict.VIOLATED);
    IntArrayList readersFirst = IntArrayList.of(3, 2, 0, 1, 4);
    assertThat(BatchVersusIncrementalTest.incremental(h, Level.READ_ATOMIC, readersFirst).verdict())
        .isEqualTo(Verdict.VIOLATED);
    assertThat(BatchVersusIncrementalTest.incremental(h, Level.READ_ATOMIC, BatchVersusIncrementalTest.historyOrder(h))
        .verdict()).isEqualTo(Verdict.CONSISTENT);
  }
}
