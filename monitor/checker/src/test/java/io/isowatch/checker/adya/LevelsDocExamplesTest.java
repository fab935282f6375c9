package io.isowatch.checker.adya;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.awdit.RcChecker;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two examples of {@code docs/levels.md} on Adya's PL-2 (read committed on the dependency
 * graph) and the axiomatic read committed (AWDIT's saturation): a version-order cycle that both
 * now see (the axioms read lists element by element), and a history where only the axioms fail.
 */
class LevelsDocExamplesTest {
  /** The list order puts T1's append of x before T2's, and T1 read T2's y: G1c, and a cycle of ww and wr for the axioms. */
  static final String VERSION_ORDER_CYCLE = String.join("\n",
      "s1 T1: a x 1, r y [1]",
      "s2 T2: a y 1, a x 2",
      "s3 T3: r x [1 2]");

  /** T3 saw T2's y but not its x; T4 saw T1's z, then T2's x: a commit-order cycle for the axioms only. */
  static final String AXIOMS_ONLY = String.join("\n",
      "s1 T1: a x 1, a z 1",
      "s2 T2: a x 2, a y 1",
      "s3 T3: r y [1], r x [1]",
      "s4 T4: r z [1], r x [1 2]");

  private static List<Anomaly> adya(String text) {
    return new AdyaChecker(Level.READ_COMMITTED).check(TestHistories.parse(text)).violations().stream()
        .map(Violation::anomaly).toList();
  }

  private static List<Anomaly> axioms(String text) {
    History h = TestHistories.parse(text);
    return new RcChecker().check(h).violations().stream().map(Violation::anomaly).toList();
  }

  @Test
  void versionOrderCycleBreaksPl2AndAxiomaticRc() {
    assertThat(adya(VERSION_ORDER_CYCLE)).containsExactly(Anomaly.G1C);
    assertThat(axioms(VERSION_ORDER_CYCLE)).containsExactly(Anomaly.COMMIT_ORDER_CYCLE);
  }

  @Test
  void observedWriterThenOlderVersionBreaksAxiomaticRcOnly() {
    assertThat(adya(AXIOMS_ONLY)).isEmpty();
    assertThat(axioms(AXIOMS_ONLY)).containsExactly(Anomaly.COMMIT_ORDER_CYCLE);
    assertThat(new AdyaChecker(Level.SNAPSHOT_ISOLATION).check(TestHistories.parse(AXIOMS_ONLY)).verdict())
        .isEqualTo(Verdict.VIOLATED);
  }
}
