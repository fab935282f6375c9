package io.isowatch.connectors.debezium.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.connectors.probe.Dialect;
import io.isowatch.schemas.debezium.ListValues;
import io.isowatch.connectors.probe.PostgresDialect;
import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: one round of write skew at PostgreSQL REPEATABLE READ on the probe's list table,
 * recorded through an outbox. Sessions {@code s1} and {@code s2} both read {@code x<r>} and {@code
 * y<r>} (empty lists), then {@code s1} appends to {@code x<r>} and {@code s2} to {@code y<r>}; each
 * records its transaction ({@code e2e/s1/<r>}, {@code e2e/s2/<r>}, history {@code e2e}) into the
 * outbox inside the transaction, and both commit, which snapshot isolation allows: a G2-item cycle
 * of two rw anti-dependencies.
 *
 * <p>The records are built here rather than with the {@code TransactionRecorder}, whose API records
 * register reads and writes only, and the monitor decides snapshot isolation and serializable only
 * for histories with list-append operations.
 *
 * <p>Shared, through this module's test-jar, by the end-to-end tests that take the outbox to the
 * monitor: the app's ({@code capture}, the outbox relay) and connect-plugin's (Kafka Connect).
 */
public final class WriteSkewRound {
  /** The history the records belong to. */
  public static final String HISTORY = "e2e";

  private final Connection c1;
  private final Connection c2;
  private final TransactionSink outbox;
  private final int round;
  private final List<Operation> ops1 = new ArrayList<>();
  private final List<Operation> ops2 = new ArrayList<>();
  private Instant begin;

  /**
   * @param c1 session s1's connection, autocommit off, REPEATABLE READ
   * @param c2 session s2's connection, likewise
   * @param outbox records each transaction inside it, e.g. an {@code OutboxSink} over {@code c1}, {@code c2}
   * @param round the round, which names the keys and the transactions
   */
  public WriteSkewRound(Connection c1, Connection c2, TransactionSink outbox, int round) {
    this.c1 = c1;
    this.c2 = c2;
    this.outbox = outbox;
    this.round = round;
  }

  /**
   * Creates the keys of rounds {@code 0 .. rounds-1} in the probe's list table, which it creates.
   *
   * @param c a connection, autocommit on
   */
  public static void createKeys(Connection c, int rounds) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(new PostgresDialect().createListTableSql());
      for (int r = 0; r < rounds; r++) {
        s.execute("INSERT INTO " + Dialect.LIST_TABLE + " (k, v) VALUES ('x" + r + "', ''), ('y" + r + "', '')");
      }
    }
  }

  /** @return the txnIds of round {@code r}'s two transactions */
  public static List<String> txnIds(int r) {
    return List.of(HISTORY + "/s1/" + r, HISTORY + "/s2/" + r);
  }

  /** Both sessions read both keys and append to one each; nothing is committed yet. */
  public WriteSkewRound run() throws SQLException {
    String x = "x" + round;
    String y = "y" + round;
    begin = Instant.now();
    ops1.add(read(c1, x));
    ops1.add(read(c1, y));
    ops2.add(read(c2, x));
    ops2.add(read(c2, y));
    ops1.add(append(c1, x, 10L * round + 1));
    ops2.add(append(c2, y, 10L * round + 2));
    return this;
  }

  /** Records and commits s1's transaction. */
  public void commitFirst() throws SQLException {
    outbox.accept(committed("s1", ops1));
    c1.commit();
  }

  /** Records and commits s2's transaction. */
  public void commitSecond() throws SQLException {
    outbox.accept(committed("s2", ops2));
    c2.commit();
  }

  private static Operation read(Connection c, String key) throws SQLException {
    try (PreparedStatement read = c.prepareStatement(new PostgresDialect().readSql(Dialect.LIST_TABLE))) {
      read.setString(1, key);
      try (ResultSet rs = read.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return new Operation(OpKind.READ, key, ListValues.parse(rs.getString(1)));
      }
    }
  }

  private static Operation append(Connection c, String key, long element) throws SQLException {
    try (PreparedStatement append = c.prepareStatement(new PostgresDialect().appendSql())) {
      append.setString(1, Long.toString(element));
      append.setString(2, key);
      assertThat(append.executeUpdate()).isEqualTo(1);
    }
    return new Operation(OpKind.APPEND, key, element);
  }

  private Transaction committed(String session, List<Operation> ops) {
    return new Transaction(HISTORY, session, HISTORY + "/" + session + "/" + round, (long) round,
        TxnStatus.COMMITTED, ops, begin, Instant.now(), null);
  }
}
