package io.isowatch.connectors.jdbc;

import io.isowatch.schemas.debezium.ListValues;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The result of a recorded SELECT (a {@link Proxy} of {@link ResultSet}): each {@code next()}
 * records what the application fetched. The first {@code next()} records a read of the row's
 * version (the result's last column, appended by {@link SqlShapes}), or of the initial state when
 * there is no row or its version is NULL; a second row for the same key is counted as {@code
 * extra-row} and not recorded (the key column is declared unique). A {@code next()} after the
 * transaction that ran the SELECT has ended is counted as {@code stale-result-set}, and a version
 * the driver cannot read as a long as {@code version-unreadable}. A result set the
 * application never advances records nothing: nothing was observed.
 */
final class RecordingResultSet implements InvocationHandler {
  private final RecordingConnection connection;
  private final Statement statement;
  private final ResultSet real;
  private final RecordedTable table;
  private final String key;
  private final long epoch;
  private int rows;

  private RecordingResultSet(
      RecordingConnection connection, Statement statement, ResultSet real, RecordedTable table, String key) {
    this.connection = connection;
    this.statement = statement;
    this.real = real;
    this.table = table;
    this.key = key;
    this.epoch = connection.epoch();
  }

  /**
   * @param connection the connection that ran the SELECT
   * @param statement the statement proxy the application holds
   * @param real the driver's result set
   * @param table the table read
   * @param key the history key of the row selected
   * @return the recording result set
   */
  static ResultSet wrap(
      RecordingConnection connection, Statement statement, ResultSet real, RecordedTable table, String key) {
    return (ResultSet) Proxy.newProxyInstance(RecordingDataSource.class.getClassLoader(),
        new Class<?>[] {ResultSet.class}, new RecordingResultSet(connection, statement, real, table, key));
  }

  @Override
  public Object invoke(Object self, Method method, Object[] args) throws Throwable {
    synchronized (connection) {
      switch (method.getName()) {
        case "equals":
          return self == args[0];
        case "hashCode":
          return System.identityHashCode(self);
        case "toString":
          return "recording result set over " + real;
        case "getStatement":
          return statement;
        case "next":
          return next();
        case "close":
          call(method, args);
          connection.autocommitBoundary();
          return null;
        default:
          return call(method, args);
      }
    }
  }

  private boolean next() throws Throwable {
    boolean row = real.next();
    if (!row && rows > 0) {
      return false;
    }
    rows++;
    if (connection.epoch() != epoch) {
      connection.source().unrecorded(table, "stale-result-set");
    } else if (rows > 1) {
      connection.source().unrecorded(table, "extra-row");
    } else if (table.list()) {
      listRead(row);
    } else if (!row) {
      connection.read(table, key, null);
    } else {
      long version;
      try {
        version = real.getLong(real.getMetaData().getColumnCount());
      } catch (SQLException e) {
        connection.source().unrecorded(table, "version-unreadable");
        return true;
      }
      connection.read(table, key, real.wasNull() ? null : version);
    }
    return row;
  }

  /** Records the list of a list table's row: no row, NULL or {@code ""} is the empty list. */
  private void listRead(boolean row) throws SQLException {
    String text = row ? real.getString(real.getMetaData().getColumnCount()) : null;
    try {
      connection.readList(table, key, text == null ? List.of() : ListValues.parse(text.strip()));
    } catch (NumberFormatException e) {
      connection.source().unrecorded(table, "list-unreadable");
    }
  }

  private Object call(Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(real, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
