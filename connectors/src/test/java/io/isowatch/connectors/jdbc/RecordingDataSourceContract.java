package io.isowatch.connectors.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import io.isowatch.connectors.privacy.KeyedHash;
import io.isowatch.connectors.probe.Dialect;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * What the recording data source must do on every database it supports: the write skew of {@link
 * WriteSkew} convicts REPEATABLE READ of G2-item in the offline checker and SERIALIZABLE of
 * nothing; statements outside the understood shapes run unchanged and are counted.
 */
abstract class RecordingDataSourceContract {
  private static final KeyedHash HASH = KeyedHash.withSecret(WriteSkew.SECRET);

  /** @return the database's own data source */
  abstract DataSource realDataSource() throws SQLException;

  /** @return the SQLSTATE with which the database aborts one transaction of the write skew at SERIALIZABLE */
  abstract String serializationFailure();

  /** @return the probe's dialect for the database, whose list-append statements the tests issue */
  abstract Dialect dialect();

  /**
   * @return the SQLSTATE with which the database refuses, at REPEATABLE READ, an append to a list
   *     changed since the transaction's snapshot
   */
  abstract String writeConflict();

  @Test
  void listWriteSkewAtRepeatableReadIsRecordedAsAppendsAndTheCheckerFindsG2Item() throws Exception {
    ListAppendSkew skew = new ListAppendSkew(realDataSource(), dialect(), "lists_rr");
    skew.setUp();

    assertThat(skew.run(Connection.TRANSACTION_REPEATABLE_READ, 1, 2)).containsExactly(null, null);
    skew.readBoth(Connection.TRANSACTION_REPEATABLE_READ);

    String k1 = HASH.key("lists_rr/1");
    String k2 = HASH.key("lists_rr/2");
    List<Transaction> txns = skew.recorded;
    assertThat(txns).hasSize(3).allMatch(t -> t.getStatus() == TxnStatus.COMMITTED);
    Operation emptyAt1 = new Operation(OpKind.READ, k1, List.of());
    Operation emptyAt2 = new Operation(OpKind.READ, k2, List.of());
    assertThat(txns.subList(0, 2)).extracting(Transaction::getOps).containsExactlyInAnyOrder(
        List.of(emptyAt1, emptyAt2, new Operation(OpKind.APPEND, k1, HASH.value(10))),
        List.of(emptyAt1, emptyAt2, new Operation(OpKind.APPEND, k2, HASH.value(20))));
    assertThat(txns.get(2).getOps()).containsExactly(
        new Operation(OpKind.READ, k1, List.of(HASH.value(10))), new Operation(OpKind.READ, k2, List.of(HASH.value(20))));

    CheckResult serializable = Checkers.adya(Level.SERIALIZABLE, true).check(skew.history.history());
    assertThat(serializable.verdict()).isEqualTo(Verdict.VIOLATED);
    assertThat(serializable.violations()).extracting(Violation::anomaly).containsExactly(Anomaly.G2_ITEM);
    CheckResult snapshot = Checkers.adya(Level.SNAPSHOT_ISOLATION, true).check(skew.history.history());
    assertThat(snapshot.verdict()).isEqualTo(Verdict.CONSISTENT);
    assertThat(snapshot.violations()).isEmpty();
    assertThat(skew.registry.find(RecordingDataSource.UNRECORDED).counters()).isEmpty();
  }

  @Test
  void listLostUpdateAtRepeatableReadIsRefusedAndTheCheckerFindsNothing() throws Exception {
    ListAppendSkew skew = new ListAppendSkew(realDataSource(), dialect(), "lists_lost");
    skew.setUp();

    List<String> outcomes = skew.run(Connection.TRANSACTION_REPEATABLE_READ, 1, 1);
    assertThat(outcomes).containsExactlyInAnyOrder(null, writeConflict());
    long winner = HASH.value(outcomes.get(0) == null ? 10 : 20);
    skew.readBoth(Connection.TRANSACTION_REPEATABLE_READ);

    String k1 = HASH.key("lists_lost/1");
    String k2 = HASH.key("lists_lost/2");
    Operation emptyAt1 = new Operation(OpKind.READ, k1, List.of());
    Operation emptyAt2 = new Operation(OpKind.READ, k2, List.of());
    List<Transaction> txns = skew.recorded;
    assertThat(txns).hasSize(3);
    // the loser's rollback and the winner's commit are recorded by two threads, in either order
    assertThat(txns.subList(0, 2)).extracting(Transaction::getStatus, Transaction::getOps).containsExactlyInAnyOrder(
        tuple(TxnStatus.COMMITTED, List.of(emptyAt1, emptyAt2, new Operation(OpKind.APPEND, k1, winner))),
        tuple(TxnStatus.ABORTED, List.of(emptyAt1, emptyAt2)));
    assertThat(txns.get(2).getStatus()).isEqualTo(TxnStatus.COMMITTED);
    assertThat(txns.get(2).getOps()).isEqualTo(List.of(new Operation(OpKind.READ, k1, List.of(winner)), emptyAt2));

    for (Level level : List.of(Level.SNAPSHOT_ISOLATION, Level.SERIALIZABLE)) {
      CheckResult result = Checkers.adya(level, true).check(skew.history.history());
      assertThat(result.violations()).as(level.name()).isEmpty();
      assertThat(result.verdict()).as(level.name()).isEqualTo(Verdict.CONSISTENT);
    }
    assertThat(skew.registry.find(RecordingDataSource.UNRECORDED).counters()).isEmpty();
  }

  @Test
  void repeatableReadLetsTheWriteSkewThroughAndTheCheckerFindsG2Item() throws Exception {
    WriteSkew ws = new WriteSkew(realDataSource(), "doctors_rr");
    ws.setUp();

    assertThat(ws.run(Connection.TRANSACTION_REPEATABLE_READ)).containsExactly(null, null);
    assertThat(ws.onCall()).isZero();

    String k1 = HASH.key("doctors_rr/1");
    String k2 = HASH.key("doctors_rr/2");
    List<Transaction> txns = ws.recorded;
    assertThat(txns).hasSize(4).allMatch(t -> t.getStatus() == TxnStatus.COMMITTED);
    assertThat(txns.get(0).getOps()).extracting(Operation::getKind, Operation::getKey)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(OpKind.WRITE, k1));
    assertThat(txns.get(1).getOps()).extracting(Operation::getKind, Operation::getKey)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(OpKind.WRITE, k2));
    Object setup1 = txns.get(0).getOps().get(0).getValue();
    Object setup2 = txns.get(1).getOps().get(0).getValue();
    for (Transaction skew : txns.subList(2, 4)) {
      Operation write = skew.getOps().get(2);
      assertThat(skew.getOps().subList(0, 2)).containsExactly(
          new Operation(OpKind.READ, k1, setup1), new Operation(OpKind.READ, k2, setup2));
      assertThat(write.getKind()).isEqualTo(OpKind.WRITE);
      assertThat(write.getValue()).isNotIn(setup1, setup2);
    }
    assertThat(txns.subList(2, 4)).extracting(t -> t.getOps().get(2).getKey()).containsExactlyInAnyOrder(k1, k2);

    CheckResult serializable = Checkers.adya(Level.SERIALIZABLE, true).check(ws.history.history());
    assertThat(serializable.verdict()).isEqualTo(Verdict.VIOLATED);
    assertThat(serializable.violations()).extracting(Violation::anomaly).containsExactly(Anomaly.G2_ITEM);
    CheckResult snapshot = Checkers.adya(Level.SNAPSHOT_ISOLATION, true).check(ws.history.history());
    assertThat(snapshot.verdict()).isEqualTo(Verdict.CONSISTENT);
    assertThat(ws.registry.find(RecordingDataSource.UNRECORDED).counters()).isEmpty();
  }

  @Test
  void serializableCommitsOneOfTheTwoAndTheCheckerFindsNothing() throws Exception {
    WriteSkew ws = new WriteSkew(realDataSource(), "doctors_ser");
    ws.setUp();

    List<String> outcomes = ws.run(Connection.TRANSACTION_SERIALIZABLE);
    assertThat(outcomes).containsExactlyInAnyOrder(null, serializationFailure());
    assertThat(ws.onCall()).isEqualTo(1);

    assertThat(ws.recorded).extracting(Transaction::getStatus).containsExactlyInAnyOrder(
        TxnStatus.COMMITTED, TxnStatus.COMMITTED, TxnStatus.COMMITTED, TxnStatus.ABORTED);
    CheckResult serializable = Checkers.adya(Level.SERIALIZABLE, true).check(ws.history.history());
    assertThat(serializable.violations()).isEmpty();
    assertThat(serializable.verdict()).isEqualTo(Verdict.CONSISTENT);
    assertThat(ws.registry.find(RecordingDataSource.UNRECORDED).counters()).isEmpty();
  }

  @Test
  void plainStatementsWithLiteralKeysAreRecordedAndOtherShapesCounted() throws Exception {
    WriteSkew ws = new WriteSkew(realDataSource(), "doctors_plain");
    ws.setUp();
    int before = ws.recorded.size();
    boolean onCall;
    try (Connection c = ws.dataSource.getConnection(); Statement s = c.createStatement()) {
      assertThat(s.executeUpdate("UPDATE doctors_plain SET on_call = false WHERE id = 1")).isEqualTo(1);
      try (ResultSet rs = s.executeQuery("SELECT on_call FROM doctors_plain WHERE id = 1")) {
        assertThat(rs.next()).isTrue();
        onCall = rs.getBoolean("on_call");
      }
      assertThat(s.executeUpdate("DELETE FROM doctors_plain WHERE id = 2")).isEqualTo(1);
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM doctors_plain")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(1);
      }
      try (ResultSet rs = s.executeQuery("SELECT on_call FROM doctors_plain WHERE id = 2")) {
        assertThat(rs.next()).isFalse();
      }
    }

    assertThat(onCall).isFalse();
    String k1 = HASH.key("doctors_plain/1");
    String k2 = HASH.key("doctors_plain/2");
    List<Transaction> mine = ws.recorded.subList(before, ws.recorded.size());
    assertThat(mine).hasSize(3).allMatch(t -> t.getStatus() == TxnStatus.COMMITTED);
    Object written = mine.get(0).getOps().get(0).getValue();
    assertThat(mine.get(0).getOps()).containsExactly(new Operation(OpKind.WRITE, k1, written));
    assertThat(mine.get(1).getOps()).containsExactly(new Operation(OpKind.READ, k1, written));
    assertThat(mine.get(2).getOps()).containsExactly(new Operation(OpKind.READ, k2, null));
    for (String reason : Arrays.asList("delete", "select")) {
      assertThat(ws.registry.get(RecordingDataSource.UNRECORDED).tag("table", "doctors_plain").tag("reason", reason)
          .counter().count()).as(reason).isEqualTo(1.0);
    }
    assertThat(ws.registry.find(RecordingDataSource.UNRECORDED).counters()).hasSize(2);
  }

  @Test
  void rollbacksSavepointsAndCloseEndTransactionsAsTheDatabaseLeftThem() throws Exception {
    WriteSkew ws = new WriteSkew(realDataSource(), "doctors_end");
    ws.setUp();
    int before = ws.recorded.size();
    try (Connection c = ws.dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (java.sql.PreparedStatement off = c.prepareStatement("UPDATE doctors_end SET on_call = false WHERE id = ?")) {
        off.setInt(1, 1);
        off.executeUpdate();
        c.rollback();

        off.setInt(1, 1);
        off.executeUpdate();
        java.sql.Savepoint sp = c.setSavepoint();
        off.setInt(1, 2);
        off.executeUpdate();
        c.rollback(sp);
        c.commit();

        off.setInt(1, 2);
        off.executeUpdate();
      }
    }

    String k1 = HASH.key("doctors_end/1");
    String k2 = HASH.key("doctors_end/2");
    List<Transaction> mine = ws.recorded.subList(before, ws.recorded.size());
    assertThat(mine).extracting(Transaction::getStatus)
        .containsExactly(TxnStatus.ABORTED, TxnStatus.UNKNOWN, TxnStatus.UNKNOWN);
    assertThat(mine).extracting(t -> t.getOps().stream().map(Operation::getKey).toList())
        .containsExactly(List.of(k1), List.of(k1, k2), List.of(k2));
    assertThat(ws.registry.get(RecordingDataSource.UNRECORDED).tag("table", "doctors_end")
        .tag("reason", "savepoint-rollback").counter().count()).isEqualTo(1.0);
    assertThat(ws.onCall()).isEqualTo(1);
  }
}
