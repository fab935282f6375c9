package io.isowatch.checker.awdit;

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

/** The saturation's edges and witnesses on the two read-committed cases. */
class SaturationEdgesTest {
  /** Reader reads y from t2, then x from t2 twice, then x from t1; t1 so t2, both write x. */
  static final String TWO_SLOTS = String.join("\n",
      "s1 T1: w x 1",
      "s1 T2: w x 2, w y 2",
      "s2 T3: r y 2, r x 2, r x 2, r x 1");

  /** Found by fuzzing: T8 must precede T7, and T7 --wr--> T8 closes a two-cycle. */
  static final String FUZZED = String.join("\n",
      "s1 T7: w x2 1, w x0 1",
      "s2 T8: w x1 1, r x0 1, w x0 2, w x0 3",
      "s0 T9: r x2 1, r x0 3, r x0 3, r x0 1");

  @Test
  void twoSlotCaseViolatesReadCommitted() {
    History h = TestHistories.parse(TWO_SLOTS);
    CheckResult r = new RcChecker().check(h);
    assertThat(r.verdict()).isEqualTo(Verdict.VIOLATED);
    assertThat(r.violations()).containsExactly(new Violation(Anomaly.COMMIT_ORDER_CYCLE, Level.READ_COMMITTED,
        new Witness(List.of(0, 1), List.of(), List.of(
            new Edge(0, 1, EdgeType.SO, Because.SESSION_ORDER, -1, History.NIL, -1),
            new Edge(1, 0, EdgeType.CO, Because.READ_EARLIER, h.key("x"), History.NIL, 2)))));
  }

  @Test
  void fuzzedCaseViolatesReadCommitted() {
    History h = TestHistories.parse(FUZZED);
    CheckResult r = new RcChecker().check(h);
    assertThat(r.verdict()).isEqualTo(Verdict.VIOLATED);
    assertThat(r.violations()).containsExactly(new Violation(Anomaly.COMMIT_ORDER_CYCLE, Level.READ_COMMITTED,
        new Witness(List.of(0, 1), List.of(), List.of(
            new Edge(0, 1, EdgeType.WR, Because.READS_FROM, h.key("x0"), 1, -1),
            new Edge(1, 0, EdgeType.CO, Because.READ_EARLIER, h.key("x0"), History.NIL, 2)))));
  }
}
