package io.isowatch.bench.family;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class FamilyTest {
  @Test
  void listAppendIsParsedSizedInTransactionsAndCheckedAtSnapshotIsolationAndSerializable() {
    assertThat(Family.parse("List_Append")).isEqualTo(Family.LIST_APPEND);
    assertThat(Family.LIST_APPEND.sizedInTransactions()).isTrue();
    assertThat(Family.LIST_APPEND.levels()).isEqualTo(EnumSet.of(Level.SNAPSHOT_ISOLATION, Level.SERIALIZABLE));
    History h = Family.LIST_APPEND.generate(400, 1);
    assertThat(new int[] {h.txnCount(), h.opCount(), h.sessionCount(), h.keyCount()})
        .containsExactly(400, 3_200, 50, 100);
  }

  @Test
  void registerShapedFamiliesAreCheckedAtTheAxiomaticLevels() {
    EnumSet<Level> axiomatic = EnumSet.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL);
    assertThat(Family.REGISTER.levels()).isEqualTo(axiomatic);
    assertThat(Family.WIDE_READER.levels()).isEqualTo(axiomatic);
    assertThat(Family.READER_GRID.levels()).isEqualTo(axiomatic);
    assertThat(new boolean[] {Family.REGISTER.sizedInTransactions(), Family.WIDE_READER.sizedInTransactions(),
        Family.READER_GRID.sizedInTransactions()}).containsExactly(true, false, false);
  }
}
