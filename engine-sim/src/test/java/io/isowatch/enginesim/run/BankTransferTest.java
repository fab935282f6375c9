package io.isowatch.enginesim.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.WitnessRenderer;
import io.isowatch.enginesim.engine.Engines;
import org.junit.jupiter.api.Test;

/**
 * The bank's invariant (total balance never below 0) breaks under snapshot isolation exactly when
 * the checker reports G2-item, and holds under serializable, which aborts one withdrawal (SSI's pivot, Cahill et al., SIGMOD 2008, §3).
 */
class BankTransferTest {
  @Test
  void snapshotIsolationBreaksTheInvariantNextToAG2ItemWitness() {
    BankTransfer.Outcome o = BankTransfer.run(Engines.create(Level.SNAPSHOT_ISOLATION));
    CheckResult ser = Checkers.adya(Level.SERIALIZABLE, true).check(o.history());

    assertThat(o.x()).isEqualTo(-50);
    assertThat(o.y()).isEqualTo(-50);
    assertThat(o.invariantHolds()).isFalse();
    assertThat(ser.violations()).extracting(Violation::anomaly).containsExactly(Anomaly.G2_ITEM);
    assertThat(ser.violations().get(0).witness().txns()).containsExactlyInAnyOrder(0, 1);
    assertThat(Checkers.adya(Level.SNAPSHOT_ISOLATION, true).check(o.history()).violations()).isEmpty();
    assertThat(new WitnessRenderer(o.history()).summary(ser.violations().get(0))).isEqualTo("cycle T2 -> T1 -> T2 (2 edges)");
  }

  @Test
  void serializableAbortsOneWithdrawalAndKeepsTheInvariant() {
    BankTransfer.Outcome o = BankTransfer.run(Engines.create(Level.SERIALIZABLE));

    // s0 commits first and is the pivot (rw in from s1, which read x; rw out to s1, which wrote y)
    assertThat(o.history().sessionName(o.history().sessionOf(0))).isEqualTo("s0");
    assertThat(o.history().status(0)).isEqualTo(TxnStatus.ABORTED);
    assertThat(o.history().status(1)).isEqualTo(TxnStatus.COMMITTED);
    assertThat(o.x()).isEqualTo(100);
    assertThat(o.y()).isEqualTo(-50);
    assertThat(o.invariantHolds()).isTrue();
    assertThat(Checkers.adya(Level.SERIALIZABLE, true).check(o.history()).violations()).isEmpty();
  }

  @Test
  void balancesAreDecodedFromUniqueRegisterValues() {
    assertThat(BankTransfer.balance(History.NIL)).isEqualTo(100);
    assertThat(BankTransfer.balance(950_001)).isEqualTo(-50);
  }
}
