package io.isowatch.connectors.jdbc;

import io.isowatch.schemas.debezium.ListValues;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One recording statement (a {@link Proxy} of {@link Statement}, {@link PreparedStatement} or
 * {@link CallableStatement}): runs the statement, records the row it read or wrote per its {@link
 * SqlShape}, and returns result sets that record the rows fetched ({@link RecordingResultSet}).
 *
 * <p>A prepared statement's shape is fixed when it is prepared; its parameters are remembered as
 * the application binds them (to learn the key), shifted by one for a {@link SqlShape.Write}, whose
 * first parameter is the token. A plain statement's SQL is recognised at each execution and a
 * write gets the token as a literal. Not thread-safe beyond its connection's lock, like JDBC
 * statements.
 */
final class RecordingStatement implements InvocationHandler {
  private final RecordingConnection connection;
  private final Statement real;
  /** The prepared statement's shape; null for a plain statement. */
  private final SqlShape shape;
  private final Map<Integer, Object> parameters = new HashMap<>();
  private Statement proxy;
  /** The table and key of the row the last {@code execute()} of a Read selected, until its result set is taken. */
  private RecordedTable pendingRead;
  private String pendingReadKey;
  private Object pendingResultSet;

  RecordingStatement(RecordingConnection connection, Statement real, SqlShape shape) {
    this.connection = connection;
    this.real = real;
    this.shape = shape;
  }

  void setProxy(Statement proxy) {
    this.proxy = proxy;
  }

  @Override
  public Object invoke(Object self, Method method, Object[] args) throws Throwable {
    if (method.getName().equals("cancel")) {
      // Statement.cancel is meant to be called from another thread while the statement runs
      return call(method, args);
    }
    synchronized (connection) {
      return dispatch(self, method, args);
    }
  }

  private Object dispatch(Object self, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    int arity = args == null ? 0 : args.length;
    Class<?> declaring = method.getDeclaringClass();
    if ((declaring == PreparedStatement.class || declaring == CallableStatement.class)
        && name.startsWith("set") && arity >= 2 && args[0] instanceof Integer index) {
      parameters.put(index, name.equals("setNull") ? null : args[1]);
      if (shape instanceof SqlShape.Write) {
        Object[] shifted = args.clone();
        shifted[0] = index + 1;
        return call(method, shifted);
      }
      return call(method, args);
    }
    switch (name) {
      case "equals":
        return self == args[0];
      case "hashCode":
        return System.identityHashCode(self);
      case "toString":
        return "recording statement over " + real;
      case "getConnection":
        return connection.proxy();
      case "clearParameters":
        parameters.clear();
        return call(method, args);
      case "executeQuery":
      case "executeUpdate":
      case "executeLargeUpdate":
      case "execute":
        return arity == 0 ? run(shape, method, args) : runSql(method, args);
      case "addBatch":
        addBatch(method, args);
        return null;
      case "executeBatch":
      case "executeLargeBatch":
        connection.statementStarting();
        return call(method, args);
      case "getResultSet":
        return resultSet();
      case "close":
        call(method, args);
        connection.autocommitBoundary();
        return null;
      default:
        return call(method, args);
    }
  }

  /** A plain statement's execution: its SQL is recognised now, and rewritten for this execution. */
  private Object runSql(Method method, Object[] args) throws Throwable {
    return run(connection.source().shapes().parse((String) args[0]), method, args);
  }

  /**
   * Runs one execution.
   *
   * @param s the statement's shape
   * @param args the execution's arguments: none for a prepared statement, the SQL text (and
   *     options) for a plain one, where it is replaced by the rewritten SQL
   */
  private Object run(SqlShape s, Method method, Object[] args) throws Throwable {
    connection.statementStarting();
    pendingRead = null;
    pendingResultSet = null;
    boolean plain = args != null && args.length > 0;
    Object[] actual = plain ? args.clone() : args;
    if (s instanceof SqlShape.Unrecorded u) {
      connection.source().unrecorded(u.table(), u.reason());
    }
    if (s instanceof SqlShape.Read r) {
      if (plain) {
        actual[0] = r.sql();
      }
      String key = key(r.table(), r.key());
      Object result = call(method, actual);
      if (key == null) {
        connection.source().unrecorded(r.table(), "null-key");
        return result;
      }
      if (result instanceof ResultSet rs) {
        return RecordingResultSet.wrap(connection, proxy, rs, r.table(), key);
      }
      if (Boolean.TRUE.equals(result)) {
        pendingRead = r.table();
        pendingReadKey = key;
      }
      return result;
    }
    if (s instanceof SqlShape.Write w) {
      return write(w, method, actual, plain);
    }
    if (s instanceof SqlShape.Append a) {
      return append(a, method, actual);
    }
    return call(method, actual);
  }

  /** Runs an append unchanged; records its elements when the database reports the row changed. */
  private Object append(SqlShape.Append a, Method method, Object[] args) throws Throwable {
    String key = key(a.table(), a.key());
    Object result = callWrite(method, args);
    long changed = changedRows(result);
    if (key == null) {
      connection.source().unrecorded(a.table(), "null-key");
    } else if (changed > 0) {
      List<Long> elements = elements(a.element());
      if (elements == null) {
        connection.source().unrecorded(a.table(), "element-unreadable");
      } else if (!elements.isEmpty()) {
        connection.appended(a.table(), key, elements);
      }
    }
    connection.writeStatementDone(true);
    return result;
  }

  /**
   * Runs a write or append statement; a failure ends the write statement unrecorded ({@code
   * writeStatementDone(false)}) and is rethrown.
   */
  private Object callWrite(Method method, Object[] args) throws Throwable {
    try {
      return call(method, args);
    } catch (Throwable e) {
      connection.writeStatementDone(false);
      throw e;
    }
  }

  /** @return the rows a write statement's result says it changed (an update count, or execute's) */
  private long changedRows(Object result) throws SQLException {
    return result instanceof Number n ? n.longValue() : Boolean.FALSE.equals(result) ? real.getUpdateCount() : 0;
  }

  /** @return the elements an append's text names, or null if unbound, NULL or not decimal longs */
  private List<Long> elements(SqlShape.Key element) {
    Object text = element.parameter() == 0 ? element.literal() : parameters.get(element.parameter());
    if (text == null) {
      return null;
    }
    try {
      return ListValues.parse(RecordedTable.keyText(text).strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private Object write(SqlShape.Write w, Method method, Object[] args, boolean plain) throws Throwable {
    String key = key(w.table(), w.key());
    if (plain) {
      args[0] = w.withToken(connection.token());
    } else {
      if (key == null) {
        ((PreparedStatement) real).setNull(1, Types.BIGINT);
      } else {
        ((PreparedStatement) real).setLong(1, connection.token());
      }
    }
    Object result = callWrite(method, args);
    long changed = changedRows(result);
    if (key == null) {
      connection.source().unrecorded(w.table(), "null-key");
    } else if (changed > 0) {
      connection.wrote(w.table(), key);
    }
    connection.writeStatementDone(true);
    return result;
  }

  private void addBatch(Method method, Object[] args) throws Throwable {
    if (args != null && args.length == 1) {
      connection.source().shapes().mentioned((String) args[0])
          .ifPresent(t -> connection.source().unrecorded(t, "batch"));
    } else if (shape instanceof SqlShape.Write w) {
      ((PreparedStatement) real).setNull(1, Types.BIGINT);
      connection.source().unrecorded(w.table(), "batch");
    } else if (shape instanceof SqlShape.Read r) {
      connection.source().unrecorded(r.table(), "batch");
    } else if (shape instanceof SqlShape.Unrecorded u) {
      connection.source().unrecorded(u.table(), "batch");
    }
    call(method, args);
  }

  private Object resultSet() throws Throwable {
    if (pendingResultSet != null) {
      return pendingResultSet;
    }
    ResultSet rs = real.getResultSet();
    if (rs == null || pendingRead == null) {
      return rs;
    }
    pendingResultSet = RecordingResultSet.wrap(connection, proxy, rs, pendingRead, pendingReadKey);
    return pendingResultSet;
  }

  /**
   * @return the history key of the row a statement names, or null if it is bound to NULL or not
   *     bound
   */
  private String key(RecordedTable table, SqlShape.Key key) {
    if (key.parameter() == 0) {
      return table.historyKey(key.literal());
    }
    Object v = parameters.get(key.parameter());
    if (v == null) {
      return null;
    }
    return table.historyKey(RecordedTable.keyText(v));
  }

  private Object call(Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(real, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
