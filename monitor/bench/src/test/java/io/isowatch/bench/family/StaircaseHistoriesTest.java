package io.isowatch.bench.family;

import static io.isowatch.bench.family.SerialRegisterHistoriesTest.dump;
import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class StaircaseHistoriesTest {
  @Test
  void smallStaircaseOperationByOperation() {
    History h = StaircaseHistories.generate(new StaircaseHistories.Shape(2, 3, 4, 1, 2));
    assertThat(dump(h)).containsExactly(
        "T0 w0 COMMITTED, 1 k0 1, 1 k1 1, 1 k2 1, 1 k3 1",
        "T1 w0 COMMITTED, 1 k1 2, 1 k2 2",
        "T2 w0 COMMITTED, 1 k2 3",
        "T3 r0 COMMITTED, 0 k0 1, 0 k1 2, 0 k2 3, 0 k3 1",
        "T4 r1 COMMITTED, 0 k0 1, 0 k1 2, 0 k2 3, 0 k3 1");
    assertThat(new StaircaseHistories.Shape(2, 3, 4, 1, 2).ops()).isEqualTo(15);
  }

  @Test
  void wideReaderShapeAndCounts() {
    StaircaseHistories.Shape shape = StaircaseHistories.Shape.wideReader(10_000, 8);
    assertThat(shape).isEqualTo(new StaircaseHistories.Shape(1, 8, 1818, 8, 1));
    assertThat(shape.writes()).isEqualTo(8175);
    assertThat(shape.ops()).isEqualTo(9993);
    History h = StaircaseHistories.generate(shape);
    assertThat(new int[] {h.txnCount(), h.opCount(), h.sessionCount(), h.keyCount()})
        .containsExactly(9, 9993, 9, 1818);
  }

  @Test
  void gridShapeAndCounts() {
    StaircaseHistories.Shape shape = StaircaseHistories.Shape.grid(10_000);
    assertThat(shape).isEqualTo(new StaircaseHistories.Shape(81, 81, 81, 4, 4));
    assertThat(shape.ops()).isEqualTo(9882);
    History h = StaircaseHistories.generate(shape);
    assertThat(new int[] {h.txnCount(), h.opCount(), h.sessionCount(), h.keyCount()})
        .containsExactly(162, 9882, 8, 81);
  }

  @Test
  void staircasesAreConsistentAtEveryLevel() {
    for (StaircaseHistories.Shape shape : List.of(
        StaircaseHistories.Shape.wideReader(5_000, 8), StaircaseHistories.Shape.grid(5_000))) {
      History h = StaircaseHistories.generate(shape);
      for (Level level : List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL)) {
        assertThat(Checkers.forLevel(level).check(h))
            .as("%s at %s", shape, level)
            .isEqualTo(new CheckResult(level, Verdict.CONSISTENT, List.of()));
      }
    }
  }

  @Test
  void familiesAreDeterministicAndParseTheirNames() {
    assertThat(dump(Family.READER_GRID.generate(3_000, 1))).isEqualTo(dump(Family.READER_GRID.generate(3_000, 2)));
    assertThat(dump(Family.REGISTER.generate(300, 5))).isEqualTo(dump(Family.REGISTER.generate(300, 5)));
    assertThat(List.of(Family.parse("register"), Family.parse("Wide_Reader"), Family.parse("reader-grid")))
        .containsExactly(Family.REGISTER, Family.WIDE_READER, Family.READER_GRID);
  }
}
