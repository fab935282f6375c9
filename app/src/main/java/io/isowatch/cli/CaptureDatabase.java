package io.isowatch.cli;

import io.isowatch.connectors.debezium.outbox.OutboxSink;
import io.isowatch.connectors.probe.Dialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * {@code isowatch capture}'s start-up check of the database, one line saying what is wrong and what
 * to do: it answers, has {@code wal_level=logical}, and holds the table of the mode.
 */
final class CaptureDatabase {
  private CaptureDatabase() {}

  /**
   * Whether the capture can start: the database answers, has {@code wal_level=logical}, and holds
   * the table; for {@code --cdc}, the table has columns {@code k} and {@code v} and {@code REPLICA
   * IDENTITY FULL}.
   *
   * @param url the JDBC URL with credentials
   * @param captured the table, {@code schema.table}
   * @param cdc whether in {@code --cdc} mode
   * @return empty if so, else why not and what to do
   */
  static Optional<String> notReady(String url, String captured, boolean cdc) {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SHOW wal_level")) {
        rs.next();
        if (!"logical".equals(rs.getString(1))) {
          return Optional.of("the database has wal_level=" + rs.getString(1) + "; logical decoding needs"
              + " wal_level=logical (postgresql.conf or ALTER SYSTEM SET wal_level = logical, then a restart)");
        }
      }
      if (!cdc) {
        try (ResultSet rs = s.executeQuery("SELECT to_regclass('public." + OutboxSink.TABLE + "') IS NOT NULL")) {
          rs.next();
          if (!rs.getBoolean(1)) {
            return Optional.of("table public." + OutboxSink.TABLE + " does not exist; the application's OutboxSink"
                + " creates it (OutboxSink.createTable), or run: " + OutboxSink.CREATE_TABLE_SQL);
          }
        }
        return Optional.empty();
      }
      return listTableNotReady(c, captured);
    } catch (SQLException e) {
      return Optional.of("cannot query the database: " + e.getMessage()
          + " (check --jdbc-url, --user, --password and that the server runs)");
    }
  }

  /** @return why {@code captured} cannot be captured with {@code --cdc}, if it cannot */
  private static Optional<String> listTableNotReady(Connection c, String captured) throws SQLException {
    try (PreparedStatement q = c.prepareStatement("SELECT c.relreplident,"
        + " (SELECT count(*) FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname IN ('k', 'v')"
        + " AND NOT a.attisdropped) FROM pg_class c WHERE c.oid = to_regclass(?)")) {
      q.setString(1, captured);
      try (ResultSet rs = q.executeQuery()) {
        if (!rs.next()) {
          return Optional.of("table " + captured + " does not exist; the probe creates " + Dialect.LIST_TABLE
              + " (isowatch probe --workload list-append), or create a table with columns k (the key) and v"
              + " (the list, text)");
        }
        if (rs.getLong(2) != 2) {
          return Optional.of("table " + captured + " has no columns k and v; --cdc reads a list-append table: k the"
              + " key, v the list as comma-separated integers");
        }
        if (!"f".equals(rs.getString(1))) {
          return Optional.of("table " + captured + " does not log whole old rows, so an update's appended elements"
              + " cannot be told; run: ALTER TABLE " + captured + " REPLICA IDENTITY FULL");
        }
      }
    }
    return Optional.empty();
  }
}
