package io.isowatch.bench.family;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SerialRegisterHistoriesTest {
  private static final SerialRegisterHistories.Shape SHAPE = SerialRegisterHistories.Shape.standard(2_000);

  /** Every column of a history, one string per transaction with its operations. */
  static List<String> dump(History h) {
    List<String> out = new ArrayList<>();
    for (int t = 0; t < h.txnCount(); t++) {
      StringBuilder sb = new StringBuilder();
      sb.append('T').append(h.label(t)).append(' ').append(h.sessionName(h.sessionOf(t)))
          .append(' ').append(h.status(t));
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        sb.append(", ").append(h.opKind(op)).append(' ').append(h.keyName(h.opKey(op)))
            .append(' ').append(h.opValue(op));
      }
      out.add(sb.toString());
    }
    return out;
  }

  @Test
  void standardShapeClampsTheKeySpace() {
    assertThat(SerialRegisterHistories.Shape.standard(2_000))
        .isEqualTo(new SerialRegisterHistories.Shape(2_000, 10_000, 0.5, 1.5));
    assertThat(SerialRegisterHistories.Shape.standard(500_000))
        .isEqualTo(new SerialRegisterHistories.Shape(500_000, 50_000, 0.5, 1.5));
    assertThat(SerialRegisterHistories.Shape.standard(5_000_000))
        .isEqualTo(new SerialRegisterHistories.Shape(5_000_000, 100_000, 0.5, 1.5));
  }

  @Test
  void sameSeedGivesTheSameHistoryAndAnotherSeedAnother() {
    List<String> a = dump(SerialRegisterHistories.generate(SHAPE, 7));
    List<String> b = dump(SerialRegisterHistories.generate(SHAPE, 7));
    List<String> c = dump(SerialRegisterHistories.generate(SHAPE, 8));
    assertThat(b).isEqualTo(a);
    assertThat(c).isNotEqualTo(a);
  }

  @Test
  void countsAreExact() {
    History h = SerialRegisterHistories.generate(SHAPE, 7);
    assertThat(new int[] {h.txnCount(), h.opCount(), h.sessionCount(), h.keyCount()})
        .containsExactly(2_000, 16_000, 50, 10_000);
    for (int t = 0; t < h.txnCount(); t++) {
      assertThat(h.committed(t)).isTrue();
    }
  }

  @Test
  void readsSeeOwnWritesElseTheLatestCommittedWrite() {
    History h = SerialRegisterHistories.generate(new SerialRegisterHistories.Shape(3, 1, 0.5, 1.0), 3);
    // one key: each read returns the transaction's own last write, else the last committed one (9)
    assertThat(dump(h)).containsExactly(
        "T0 s17 COMMITTED, 1 k0 1, 0 k0 1, 0 k0 1, 0 k0 1, 1 k0 2, 0 k0 2, 1 k0 3, 0 k0 3",
        "T1 s37 COMMITTED, 1 k0 4, 1 k0 5, 0 k0 5, 1 k0 6, 0 k0 6, 1 k0 7, 1 k0 8, 1 k0 9",
        "T2 s18 COMMITTED, 0 k0 9, 0 k0 9, 0 k0 9, 1 k0 10, 0 k0 10, 1 k0 11, 1 k0 12, 1 k0 13");
  }

  @Test
  void historiesAreConsistentAtEveryLevel() {
    History h = SerialRegisterHistories.generate(SHAPE, 11);
    for (Level level : List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL)) {
      assertThat(Checkers.forLevel(level).check(h)).isEqualTo(new CheckResult(level, Verdict.CONSISTENT, List.of()));
    }
  }

  @Test
  void badShapesAreRejected() {
    assertThatThrownBy(() -> new SerialRegisterHistories.Shape(0, 10, 0.5, 1.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bad shape: 0 transactions, 10 keys, read fraction 0.5, skew 1.0");
  }
}
