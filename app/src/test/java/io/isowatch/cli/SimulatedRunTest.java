package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The simulated runs of {@code isowatch demo} and {@code replay --sim}, and their offline verdicts. */
class SimulatedRunTest {
  /** Every level's run satisfies that level offline, and is list-append exactly at SI and SER. */
  @ParameterizedTest
  @EnumSource(Level.class)
  void everyLevelsRunSatisfiesItsLevel(Level level) {
    History h = SimulatedRun.history(level, 200, 1);
    assertThat(h.txnCount()).isEqualTo(200);
    assertThat(LevelPlan.hasListAppend(h)).isEqualTo(level.atLeast(Level.SNAPSHOT_ISOLATION));
    assertThat(SimulatedRun.offlineViolations(h, level)).isEmpty();
  }

  /** The run of {@code DemoCommandTest}: write skews only, found at serializable. */
  @Test
  void theDemoRunHasOnlyG2ItemsAtSerializable() {
    History h = SimulatedRun.history(Level.SNAPSHOT_ISOLATION, 300, 1);
    assertThat(h.txnCount()).isEqualTo(304);
    assertThat(SimulatedRun.offlineViolations(h, Level.SERIALIZABLE)).isEqualTo(Map.of("G2-item (serializable)", 13));
    assertThat(SimulatedRun.offlineViolations(h, Level.SNAPSHOT_ISOLATION)).isEmpty();
  }

  /** The same seed gives the same history. */
  @Test
  void aRunIsAFunctionOfItsSeed() {
    History a = SimulatedRun.history(Level.CAUSAL, 80, 5);
    History b = SimulatedRun.history(Level.CAUSAL, 80, 5);
    assertThat(a.txnCount()).isEqualTo(b.txnCount());
    for (int op = 0; op < a.opCount(); op++) {
      assertThat(a.opValue(op)).isEqualTo(b.opValue(op));
      assertThat(a.opKey(op)).isEqualTo(b.opKey(op));
    }
  }
}
