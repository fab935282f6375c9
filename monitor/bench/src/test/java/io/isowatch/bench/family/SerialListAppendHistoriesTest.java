package io.isowatch.bench.family;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SerialListAppendHistoriesTest {
  private static final SerialListAppendHistories.Shape SHAPE = SerialListAppendHistories.Shape.standard(2_000);

  /** One string per transaction: label, session, status, then each operation (lists in brackets). */
  static List<String> dump(History h) {
    List<String> out = new ArrayList<>();
    for (int t = 0; t < h.txnCount(); t++) {
      StringBuilder sb = new StringBuilder();
      sb.append('T').append(h.label(t)).append(' ').append(h.sessionName(h.sessionOf(t)))
          .append(' ').append(h.status(t));
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        sb.append(", ");
        if (h.opKind(op) == OpKind.READ_LIST) {
          sb.append("r ").append(h.keyName(h.opKey(op))).append(" [");
          for (int i = 0; i < h.listLength(op); i++) {
            sb.append(i == 0 ? "" : " ").append(h.listElement(op, i));
          }
          sb.append(']');
        } else {
          sb.append("a ").append(h.keyName(h.opKey(op))).append(' ').append(h.opValue(op));
        }
      }
      out.add(sb.toString());
    }
    return out;
  }

  @Test
  void standardShapeHasAQuarterAsManyKeysAsTransactions() {
    assertThat(SerialListAppendHistories.Shape.standard(2_000))
        .isEqualTo(new SerialListAppendHistories.Shape(2_000, 500, 0.5));
    assertThat(SerialListAppendHistories.Shape.standard(3))
        .isEqualTo(new SerialListAppendHistories.Shape(3, 1, 0.5));
  }

  @Test
  void sameSeedGivesTheSameHistoryAndAnotherSeedAnother() {
    List<String> a = dump(SerialListAppendHistories.generate(SHAPE, 7));
    List<String> b = dump(SerialListAppendHistories.generate(SHAPE, 7));
    List<String> c = dump(SerialListAppendHistories.generate(SHAPE, 8));
    assertThat(b).isEqualTo(a);
    assertThat(c).isNotEqualTo(a);
  }

  @Test
  void countsAreExact() {
    History h = SerialListAppendHistories.generate(SHAPE, 7);
    assertThat(new int[] {h.txnCount(), h.opCount(), h.sessionCount(), h.keyCount()})
        .containsExactly(2_000, 16_000, 50, 500);
    for (int t = 0; t < h.txnCount(); t++) {
      assertThat(h.committed(t)).isTrue();
    }
  }

  @Test
  void readsReturnTheCommittedListFollowedByTheTransactionsOwnAppends() {
    History h = SerialListAppendHistories.generate(new SerialListAppendHistories.Shape(3, 1, 0.5), 3);
    // one key: a read returns the committed list followed by the transaction's own appends
    assertThat(dump(h)).containsExactly(
        "T0 s17 COMMITTED, r k0 [], a k0 1, a k0 2, a k0 3, r k0 [1 2 3], a k0 4, r k0 [1 2 3 4], a k0 5",
        "T1 s37 COMMITTED, r k0 [1 2 3 4 5], r k0 [1 2 3 4 5], a k0 6, r k0 [1 2 3 4 5 6], a k0 7,"
            + " r k0 [1 2 3 4 5 6 7], r k0 [1 2 3 4 5 6 7], r k0 [1 2 3 4 5 6 7]",
        "T2 s18 COMMITTED, a k0 8, a k0 9, a k0 10, r k0 [1 2 3 4 5 6 7 8 9 10], a k0 11,"
            + " r k0 [1 2 3 4 5 6 7 8 9 10 11], r k0 [1 2 3 4 5 6 7 8 9 10 11], r k0 [1 2 3 4 5 6 7 8 9 10 11]");
  }

  @Test
  void historiesAreConsistentAtSnapshotIsolationAndSerializable() {
    History h = SerialListAppendHistories.generate(SHAPE, 11);
    for (Level level : List.of(Level.SNAPSHOT_ISOLATION, Level.SERIALIZABLE)) {
      assertThat(Checkers.forLevel(level).check(h)).isEqualTo(new CheckResult(level, Verdict.CONSISTENT, List.of()));
    }
  }

  @Test
  void badShapesAreRejected() {
    assertThatThrownBy(() -> new SerialListAppendHistories.Shape(10, 0, 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bad shape: 10 transactions, 0 keys, append fraction 0.5, at most 0 appends per key");
    assertThatThrownBy(() -> SerialListAppendHistories.Shape.rotating(10, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("at most 0 appends per key: give at least 1");
  }

  @Test
  void aFullListRetiresItsKeyAndItsSlotMovesOnToAFreshOne() {
    History h = SerialListAppendHistories.generate(new SerialListAppendHistories.Shape(2, 1, 0.5, 3), 3);
    // the same draws as the unbounded shape above: the fourth append goes to k1, and so on
    assertThat(dump(h)).containsExactly(
        "T0 s17 COMMITTED, r k0 [], a k0 1, a k0 2, a k0 3, r k0 [1 2 3], a k1 1, r k1 [1], a k1 2",
        "T1 s37 COMMITTED, r k1 [1 2], r k1 [1 2], a k1 3, r k1 [1 2 3], a k2 1,"
            + " r k2 [1], r k2 [1], r k2 [1]");
  }

  @Test
  void rotatingHistoriesBoundEveryListAndAreConsistentAtSerializable() {
    History h = SerialListAppendHistories.generate(SerialListAppendHistories.Shape.rotating(2_000, 8), 11);
    for (int op = 0; op < h.opCount(); op++) {
      if (h.opKind(op) == OpKind.READ_LIST) {
        assertThat(h.listLength(op)).isLessThanOrEqualTo(8);
      }
    }
    assertThat(h.keyCount()).isGreaterThan(1_000);
    for (Level level : List.of(Level.SNAPSHOT_ISOLATION, Level.SERIALIZABLE)) {
      assertThat(Checkers.forLevel(level).check(h)).isEqualTo(new CheckResult(level, Verdict.CONSISTENT, List.of()));
    }
  }
}
