package io.isowatch.enginesim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.Checker;
import io.isowatch.checker.Checkers;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import io.isowatch.enginesim.engine.Engines;
import io.isowatch.enginesim.run.Simulation;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Each named scenario shows its anomaly on an engine that allows it, at a pinned schedule seed. */
class ScenariosTest {
  /** @return the first schedule seed below 100 whose history the checker reports {@code a} for, -1 if none */
  private static long first(List<List<List<ProgramOp>>> programs, Level engine, Supplier<Checker> checker, Anomaly a) {
    for (long seed = 0; seed < 100; seed++) {
      for (Violation v : checker.get().check(Simulation.run(Engines.create(engine), programs, seed)).violations()) {
        if (v.anomaly() == a) {
          return seed;
        }
      }
    }
    return -1;
  }

  private static Checker adya(Level l) {
    return Checkers.adya(l, true);
  }

  @Test
  void writeSkewCommitsBothUnderSnapshotIsolationOnly() {
    assertThat(first(Scenarios.writeSkew(), Level.SNAPSHOT_ISOLATION, () -> adya(Level.SERIALIZABLE), Anomaly.G2_ITEM))
        .isEqualTo(0);
    assertThat(first(Scenarios.writeSkew(), Level.SERIALIZABLE, () -> adya(Level.SERIALIZABLE), Anomaly.G2_ITEM))
        .isEqualTo(-1);
  }

  @Test
  void readSkewIsAFracturedReadAndAGSingleAtReadCommitted() {
    assertThat(first(Scenarios.readSkew(), Level.READ_COMMITTED, () -> Checkers.forLevel(Level.READ_ATOMIC),
        Anomaly.COMMIT_ORDER_CYCLE)).isEqualTo(3);
    assertThat(first(Scenarios.readSkew(), Level.READ_COMMITTED, () -> adya(Level.SERIALIZABLE), Anomaly.G_SINGLE))
        .isEqualTo(3);
    assertThat(first(Scenarios.readSkew(), Level.READ_ATOMIC, () -> Checkers.forLevel(Level.READ_ATOMIC),
        Anomaly.COMMIT_ORDER_CYCLE)).isEqualTo(-1);
  }

  @Test
  void lostUpdateBelowSnapshotIsolationOnly() {
    assertThat(first(Scenarios.lostUpdate(), Level.READ_COMMITTED, () -> adya(Level.SNAPSHOT_ISOLATION),
        Anomaly.LOST_UPDATE)).isEqualTo(2);
    assertThat(first(Scenarios.lostUpdate(), Level.CAUSAL, () -> adya(Level.SNAPSHOT_ISOLATION), Anomaly.LOST_UPDATE))
        .isEqualTo(0);
    assertThat(first(Scenarios.lostUpdate(), Level.SNAPSHOT_ISOLATION, () -> adya(Level.SNAPSHOT_ISOLATION),
        Anomaly.LOST_UPDATE)).isEqualTo(-1);
  }

  /** Snapshot isolation never forks; the causal store did not show the fork within 100 seeds either. */
  @Test
  void longForkIsNeverSeenAtSnapshotIsolation() {
    assertThat(first(Scenarios.longFork(), Level.SNAPSHOT_ISOLATION, () -> adya(Level.SNAPSHOT_ISOLATION),
        Anomaly.G_NONADJACENT)).isEqualTo(-1);
  }

  @Test
  void scenariosHaveTheirTextbookShape() {
    assertThat(Scenarios.writeSkew()).isEqualTo(List.of(
        List.of(List.of(ProgramOp.read("x"), ProgramOp.read("y"), ProgramOp.write("x", 1))),
        List.of(List.of(ProgramOp.read("x"), ProgramOp.read("y"), ProgramOp.write("y", 1)))));
    assertThat(Scenarios.longFork()).hasSize(4);
  }
}
