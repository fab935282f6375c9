package io.isowatch.connectors.testdb;

import io.isowatch.connectors.debezium.cdc.ListAppendCapture;
import io.isowatch.connectors.probe.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * Test fixture: writes rows of the probe's list-append table ({@link Dialect#LIST_TABLE}) directly,
 * one PostgreSQL transaction at a time, for the tests that read its change events: an element
 * appended as the probe appends it, or lists set whole, in an order no database that commits would
 * give.
 */
public final class ListRows {
  private ListRows() {}

  /**
   * Makes the table ready for CDC ({@link ListAppendCapture#prepare}) and writes one row, {@code
   * key} holding {@code list}: a row older than any capture started after, whose elements the
   * capture meets first in an update's before image.
   *
   * @param list the row's {@code v}, e.g. {@code ",1,2"}
   * @throws SQLException if the DDL or the insert fails
   */
  public static void prepareWithRow(TestDatabase db, String key, String list) throws SQLException {
    try (Connection c = db.connect(); PreparedStatement s = c.prepareStatement(
        "INSERT INTO " + Dialect.LIST_TABLE + " (k, v) VALUES (?, ?)")) {
      ListAppendCapture.prepare(c);
      s.setString(1, key);
      s.setString(2, list);
      s.executeUpdate();
    }
  }

  /**
   * Appends {@code element} to {@code key}'s list in a transaction of its own (READ COMMITTED).
   *
   * @return the transaction's xid
   * @throws SQLException if the row does not exist or the update fails
   */
  public static long append(TestDatabase db, String key, long element) throws SQLException {
    return write(db, Map.of(), List.of(key), element);
  }

  /**
   * Sets each key's list to its text ({@code ",11,12"}), in {@code order}, in one READ COMMITTED
   * transaction.
   *
   * @return the transaction's xid
   * @throws SQLException if a row does not exist or an update fails
   */
  public static long set(TestDatabase db, Map<String, String> lists, List<String> order) throws SQLException {
    return write(db, lists, order, 0);
  }

  /** A key of {@code order} that {@code lists} does not map gets {@code append} appended. */
  private static long write(TestDatabase db, Map<String, String> lists, List<String> order, long append)
      throws SQLException {
    try (Connection c = db.connect()) {
      c.setAutoCommit(false);
      long xid;
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT txid_current()")) {
        rs.next();
        xid = rs.getLong(1);
      }
      for (String k : order) {
        String sql = lists.containsKey(k)
            ? "UPDATE " + Dialect.LIST_TABLE + " SET v = ? WHERE k = ?"
            : "UPDATE " + Dialect.LIST_TABLE + " SET v = v || ',' || ? WHERE k = ?";
        try (PreparedStatement u = c.prepareStatement(sql)) {
          u.setString(1, lists.containsKey(k) ? lists.get(k) : Long.toString(append));
          u.setString(2, k);
          if (u.executeUpdate() != 1) {
            throw new SQLException("no row " + k + " in " + Dialect.LIST_TABLE);
          }
        }
      }
      c.commit();
      return xid;
    }
  }
}
