package io.isowatch.connectors.debezium.outbox;

import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.debezium.OutboxRows;
import io.isowatch.schemas.serde.RecordCodec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.function.Function;

/**
 * A {@link TransactionSink} that writes each transaction's record into the {@value #TABLE} table of
 * the monitored PostgreSQL database, through the session's own connection, so that the record
 * commits or rolls back with the transaction it describes (the transactional outbox pattern; the
 * {@link OutboxRelay} publishes the committed rows).
 *
 * <p>Order of calls, per session: run the transaction's statements, record them, call the
 * recorder's {@code commit()} (this sink then inserts the record inside the still-open database
 * transaction), then {@code connection.commit()}. If the database commit fails, the record goes with
 * it: the outbox holds a COMMITTED record exactly when the database committed. For an abort, call
 * {@code connection.rollback()} first and the recorder's {@code abort()} after: the ABORTED record is
 * then inserted and committed in a transaction of its own on the same connection.
 *
 * <p>Table: {@code id BIGSERIAL} (insertion order), {@code txn_id TEXT} (the record's {@code txnId}),
 * {@code record BYTEA} (the {@link Transaction} in {@link RecordCodec} single-object encoding).
 */
public final class OutboxSink implements TransactionSink {
  /** The outbox table's name. */
  public static final String TABLE = OutboxRows.TABLE;

  /** DDL creating the outbox table if absent (PostgreSQL). */
  public static final String CREATE_TABLE_SQL = "CREATE TABLE IF NOT EXISTS " + TABLE
      + " (id BIGSERIAL PRIMARY KEY, txn_id TEXT NOT NULL, record BYTEA NOT NULL)";

  private static final String INSERT_SQL = "INSERT INTO " + TABLE + " (txn_id, record) VALUES (?, ?)";

  private final Function<String, Connection> connectionOfSession;

  /**
   * @param connectionOfSession the connection a session id runs on (autocommit off); called from
   *     the session's thread
   */
  public OutboxSink(Function<String, Connection> connectionOfSession) {
    this.connectionOfSession = Objects.requireNonNull(connectionOfSession);
  }

  /**
   * Creates the outbox table if absent.
   *
   * @param c a connection to the monitored database; autocommit on, or committed by the caller
   * @throws SQLException if the DDL fails
   */
  public static void createTable(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(CREATE_TABLE_SQL);
    }
  }

  /**
   * Inserts the record: for COMMITTED, into the session's open transaction; otherwise in a
   * transaction of its own, committed here.
   *
   * @throws IllegalStateException if the session's connection is in autocommit mode (the record
   *     would not share the transaction's fate), or the insert fails (the cause is the {@link
   *     SQLException}); the application should then roll back
   */
  @Override
  public void accept(Transaction txn) {
    Connection c = connectionOfSession.apply(txn.getSessionId());
    try {
      if (c.getAutoCommit()) {
        throw new IllegalStateException("session " + txn.getSessionId()
            + ": its connection is in autocommit mode; the outbox needs the application's transaction");
      }
      try (PreparedStatement insert = c.prepareStatement(INSERT_SQL)) {
        insert.setString(1, txn.getTxnId());
        insert.setBytes(2, RecordCodec.encode(txn));
        insert.executeUpdate();
      }
      if (txn.getStatus() != TxnStatus.COMMITTED) {
        c.commit();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot write transaction " + txn.getTxnId() + " to " + TABLE + ": "
          + e.getMessage(), e);
    }
  }
}
