package io.isowatch.enginesim.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.enginesim.engine.Fault;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every fault switch is caught by the checker within its documented number of seeds. */
class FaultCaseTest {
  @Test
  void everyFaultIsCaughtWithinItsBound() {
    Map<FaultCase, Long> first = new EnumMap<>(FaultCase.class);
    for (FaultCase f : FaultCase.values()) {
      first.put(f, f.firstCaught(LadderRun.CONTENDED, f.seedBound()));
    }

    assertThat(first).containsExactly(
        Map.entry(FaultCase.FRACTURED_VISIBILITY, 3L),
        Map.entry(FaultCase.LOST_UPDATE, 4L),
        Map.entry(FaultCase.STALE_SNAPSHOT, 2L),
        Map.entry(FaultCase.ABORTED_WRITE_VISIBLE, 0L));
    for (FaultCase f : FaultCase.values()) {
      assertThat(first.get(f)).as("%s", f).isBetween(0L, f.seedBound() - 1L);
      assertThat(f.seedBound()).isEqualTo(10);
    }
  }

  @Test
  void everyFaultSwitchHasACase() {
    Map<Fault, Anomaly> expected = new EnumMap<>(Fault.class);
    for (FaultCase f : FaultCase.values()) {
      expected.put(f.fault(), f.expected());
    }

    assertThat(expected).containsExactly(
        Map.entry(Fault.FRACTURED_VISIBILITY, Anomaly.COMMIT_ORDER_CYCLE),
        Map.entry(Fault.LOST_UPDATE, Anomaly.LOST_UPDATE),
        Map.entry(Fault.STALE_SNAPSHOT, Anomaly.G_SINGLE),
        Map.entry(Fault.ABORTED_WRITE_VISIBLE, Anomaly.ABORTED_READ));
  }
}
