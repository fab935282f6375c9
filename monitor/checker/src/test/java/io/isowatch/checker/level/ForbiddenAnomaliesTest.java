package io.isowatch.checker.level;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.LevelVerdicts;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One row of {@link ForbiddenAnomalies} per case: the row's weakest forbidding level, and on a
 * minimal history showing the anomaly, the exact verdict at all six levels when every check of
 * {@link LevelPlan} runs ({@link LevelVerdicts}). The same rows, with their sources, are the table of
 * {@code docs/levels.md}.
 */
class ForbiddenAnomaliesTest {
  /**
   * @param anomaly the row
   * @param weakest the row's weakest forbidding level
   * @param history a minimal history that shows it ({@link TestHistories})
   * @param verdicts the verdicts at read uncommitted, read committed, read atomic, causal, snapshot
   *     isolation and serializable: {@code C} consistent, {@code V} violated, {@code U} unknown
   */
  record Row(Anomaly anomaly, Level weakest, String history, String verdicts) {
    @Override
    public String toString() {
      return anomaly.id();
    }
  }

  static Stream<Row> rows() {
    return Stream.of(
        new Row(Anomaly.THIN_AIR_READ, Level.READ_COMMITTED,
            "s1 T1: w x 1\ns2 T2: r x 7", "CVVVVV"),
        new Row(Anomaly.ABORTED_READ, Level.READ_COMMITTED,
            "s1 T1: w x 1 | aborted\ns2 T2: r x 1", "CVVVVV"),
        new Row(Anomaly.FUTURE_READ, Level.READ_COMMITTED,
            "s1 T1: r x 1, w x 1", "CVVVVV"),
        new Row(Anomaly.NOT_MY_OWN_WRITE, Level.READ_COMMITTED,
            "s1 T1: w x 1\ns2 T2: w x 2, r x 1", "CVVVVV"),
        new Row(Anomaly.NOT_MY_LAST_WRITE, Level.READ_COMMITTED,
            "s1 T1: w x 1, w x 2, r x 1", "CVVVVV"),
        new Row(Anomaly.INTERMEDIATE_READ, Level.READ_COMMITTED,
            "s1 T1: w x 1, w x 2\ns2 T2: r x 1", "CVVVVV"),
        // the plain non-repeatable read of issue 16: allowed by read committed, not by read atomic
        new Row(Anomaly.NON_REPEATABLE_READ, Level.READ_ATOMIC,
            "s1 T1: w x 1\ns2 T2: r x _, r x _, r x 1", "CCVVVV"),
        new Row(Anomaly.COMMIT_ORDER_CYCLE, Level.READ_COMMITTED,
            "s1 T1: w x 1\ns1 T2: w x 2, w y 2\ns2 T3: r y 2, r x 1", "CVVVVV"),
        new Row(Anomaly.G0, Level.READ_UNCOMMITTED,
            "s1 T1: a x 1, a y 1\ns2 T2: a x 2, a y 2\ns3 T3: r x [1 2], r y [2 1]", "VVVVVV"),
        // Adya's PL-2 finds it, the axiomatic read committed does not: the level is violated
        new Row(Anomaly.G1C, Level.READ_COMMITTED,
            "s1 T1: a x 1, r y [1]\ns2 T2: a y 1, a x 2\ns3 T3: r x [1 2]", "CVVVVV"),
        // read skew through a causal chain: causal forbids it too (its own commit-order cycle)
        new Row(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION,
            "s1 T1: a x 1\ns2 T2: r x [1], a y 1\ns3 T3: r y [1], r x []", "CCCVVV"),
        // the long fork: causal allows it
        new Row(Anomaly.G_NONADJACENT, Level.SNAPSHOT_ISOLATION,
            "s1 T1: a x 1\ns2 T2: a y 1\ns3 T3: r x [1], r y []\ns4 T4: r y [1], r x []", "CCCCVV"),
        new Row(Anomaly.LOST_UPDATE, Level.SNAPSHOT_ISOLATION,
            "s1 T1: r x _, w x 1\ns2 T2: r x _, w x 2", "CCCCVV"),
        // write skew: snapshot isolation allows it
        new Row(Anomaly.G2_ITEM, Level.SERIALIZABLE,
            "s1 T1: r x [], r y [], a x 1\ns2 T2: r x [], r y [], a y 1", "CCCCCV"),
        new Row(Anomaly.INCOMPATIBLE_ORDER, Level.READ_COMMITTED,
            "s1 T1: a x 1\ns2 T2: a x 2\ns3 T3: r x [1 2]\ns4 T4: r x [2]", "CVVVVV"),
        new Row(Anomaly.DUPLICATE_ELEMENTS, Level.READ_UNCOMMITTED,
            "s1 T1: a x 1\ns2 T2: r x [1 1]", "VVVVVV"),
        new Row(Anomaly.INTERNAL, Level.READ_COMMITTED,
            "s1 T1: a x 1, r x []", "CVVVVV"),
        new Row(Anomaly.DIRTY_UPDATE, Level.READ_COMMITTED,
            "s1 T1: a x 1 | aborted\ns2 T2: a x 2\ns3 T3: r x [1 2]", "CVVVVV"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void eachRowHoldsOnItsMinimalHistory(Row row) {
    assertThat(ForbiddenAnomalies.weakestForbidding(row.anomaly())).isEqualTo(row.weakest());
    History h = TestHistories.parse(row.history());
    List<LevelPlan.Check> checks = LevelPlan.checks(List.of(Level.values()), LevelPlan.hasListAppend(h));
    List<CheckResult> results = new ArrayList<>();
    for (LevelPlan.Check c : checks) {
      results.add(c.batch(true).check(h));
    }
    assertThat(results.stream().flatMap(r -> r.violations().stream()).map(Violation::anomaly))
        .as("some check finds %s", row.anomaly()).contains(row.anomaly());
    LevelVerdicts verdicts = LevelVerdicts.of(checks, results, true);
    StringBuilder actual = new StringBuilder();
    for (Level l : Level.values()) {
      actual.append(verdicts.of(l).verdict().name().charAt(0));
    }
    assertThat(actual.toString()).isEqualTo(row.verdicts());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void aLevelForbidsWhatEveryWeakerLevelForbids(Row row) {
    for (Level l : Level.values()) {
      assertThat(ForbiddenAnomalies.forbids(l, row.anomaly())).isEqualTo(l.atLeast(row.weakest()));
    }
  }

  @Test
  void everyAnomalyHasARow() {
    assertThat(rows().map(Row::anomaly)).containsExactlyInAnyOrder(Anomaly.values());
  }
}
