package io.isowatch.connectors.jdbc;

import io.isowatch.connectors.recorder.SessionRecorder;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One recording connection (a {@link Proxy} of {@link Connection}): the session's transaction state
 * and the interception of the connection's transaction methods; see {@link RecordingDataSource} for
 * the rules. Methods not named here pass through to the driver's connection.
 *
 * <p>State: whether a recorded transaction is open, its token (drawn when a write first needs it),
 * the keys it wrote (a key written twice in one transaction is recorded once: the second write sets
 * the same token, and values are unique per key), and an epoch counting ended transactions so that
 * a result set can tell it outlived its transaction. Guarded by {@code this}: a connection is used by
 * one thread at a time, but a pool may hand it between threads; {@code abort} is not serialised.
 *
 * <p>A sink that throws when a transaction ends (the database has already ended it) does not reach
 * the application: the failure is logged and counted as {@code sink-failed}.
 */
final class RecordingConnection implements InvocationHandler {
  private static final Logger LOG = LoggerFactory.getLogger(RecordingConnection.class);

  private final RecordingDataSource source;
  private final Connection real;
  private final String sessionId;
  private Connection proxy;

  private SessionRecorder session;
  private boolean open;
  private boolean autoCommit;
  private boolean tokenDrawn;
  private long token;
  private long epoch;
  private boolean uncertain;
  private RecordedTable lastTable;
  private final Set<String> written = new HashSet<>();

  RecordingConnection(RecordingDataSource source, Connection real, String sessionId) throws SQLException {
    this.source = source;
    this.real = real;
    this.sessionId = sessionId;
    this.autoCommit = real.getAutoCommit();
  }

  void setProxy(Connection proxy) {
    this.proxy = proxy;
  }

  Connection proxy() {
    return proxy;
  }

  RecordingDataSource source() {
    return source;
  }

  @Override
  public Object invoke(Object self, Method method, Object[] args) throws Throwable {
    if (method.getName().equals("abort")) {
      // Connection.abort is meant to be called from another thread while this one may be blocked
      return call(method, args);
    }
    synchronized (this) {
      return dispatch(self, method, args);
    }
  }

  private Object dispatch(Object self, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "equals":
        return self == args[0];
      case "hashCode":
        return System.identityHashCode(self);
      case "toString":
        return "recording connection " + sessionId + " over " + real;
      case "createStatement":
        return statement(Statement.class, call(method, args), null);
      case "prepareStatement":
        return prepare(method, args);
      case "prepareCall":
        countIfMentioned((String) args[0], "call");
        return statement(CallableStatement.class, call(method, args), null);
      case "setAutoCommit":
        call(method, args);
        if (autoCommit != (Boolean) args[0]) {
          end(Outcome.COMMITTED);
          autoCommit = (Boolean) args[0];
        }
        return null;
      case "commit":
        commit(method);
        return null;
      case "rollback":
        rollback(method, args);
        return null;
      case "close":
        close(method);
        return null;
      default:
        return call(method, args);
    }
  }

  private Object prepare(Method method, Object[] args) throws Throwable {
    SqlShape shape = source.shapes().parse((String) args[0]);
    Object[] real = args.clone();
    if (shape instanceof SqlShape.Read r) {
      real[0] = r.sql();
    } else if (shape instanceof SqlShape.Write w) {
      real[0] = w.prepared();
    }
    return statement(PreparedStatement.class, call(method, real), shape);
  }

  private Object statement(Class<? extends Statement> type, Object realStatement, SqlShape shape) {
    RecordingStatement handler = new RecordingStatement(this, (Statement) realStatement, shape);
    Object p = Proxy.newProxyInstance(RecordingDataSource.class.getClassLoader(), new Class<?>[] {type}, handler);
    handler.setProxy((Statement) p);
    return p;
  }

  private void commit(Method method) throws Throwable {
    try {
      call(method, null);
    } catch (SQLException e) {
      String state = e.getSQLState();
      end(state != null && state.startsWith("40") ? Outcome.ABORTED : Outcome.UNKNOWN);
      throw e;
    }
    end(Outcome.COMMITTED);
  }

  private void rollback(Method method, Object[] args) throws Throwable {
    if (args != null && args.length == 1 && args[0] instanceof Savepoint) {
      call(method, args);
      if (open) {
        uncertain = true;
        source.unrecorded(lastTable, "savepoint-rollback");
      }
      return;
    }
    try {
      call(method, args);
    } catch (SQLException e) {
      end(Outcome.UNKNOWN);
      throw e;
    }
    end(Outcome.ABORTED);
  }

  private void close(Method method) throws Throwable {
    try {
      end(autoCommit ? Outcome.COMMITTED : Outcome.UNKNOWN);
    } finally {
      source.recorder().forget(sessionId);
      call(method, null);
    }
  }

  /** Called before each statement runs: ends the previous statement's autocommit transaction. */
  synchronized void statementStarting() {
    if (autoCommit) {
      end(Outcome.COMMITTED);
    }
  }

  /** Called after a write statement: in autocommit mode, it was a transaction of its own. */
  synchronized void writeStatementDone(boolean succeeded) {
    if (autoCommit) {
      end(succeeded ? Outcome.COMMITTED : Outcome.ABORTED);
    }
  }

  /** Called when a result set or statement closes: ends an autocommit SELECT's transaction. */
  synchronized void autocommitBoundary() {
    if (autoCommit) {
      end(Outcome.COMMITTED);
    }
  }

  /** @return the current transaction's token, drawn on first use */
  synchronized long token() {
    if (!tokenDrawn) {
      token = source.newToken();
      tokenDrawn = true;
    }
    return token;
  }

  /** @return the number of transactions ended so far on this connection */
  synchronized long epoch() {
    return epoch;
  }

  /**
   * Records a read of a row in the current transaction.
   *
   * @param table the row's table
   * @param key the history key
   * @param version the row's version, or null (a row no recorded transaction wrote, or no row)
   */
  synchronized void read(RecordedTable table, String key, Long version) {
    begin();
    lastTable = table;
    if (version == null) {
      session.readInitial(key);
    } else {
      session.read(key, version);
    }
  }

  /**
   * Records a read of a list table's row in the current transaction.
   *
   * @param table the row's table
   * @param key the history key
   * @param elements the list read, oldest first (empty: no row, or the initial value)
   */
  synchronized void readList(RecordedTable table, String key, List<Long> elements) {
    begin();
    lastTable = table;
    session.readList(key, elements);
  }

  /**
   * Records appends to a list table's row in the current transaction.
   *
   * @param elements the elements appended, in order
   */
  synchronized void appended(RecordedTable table, String key, List<Long> elements) {
    begin();
    lastTable = table;
    for (long e : elements) {
      session.append(key, e);
    }
  }

  /** Records a write of the current token to a row, once per key and transaction. */
  synchronized void wrote(RecordedTable table, String key) {
    begin();
    lastTable = table;
    if (written.add(key)) {
      session.write(key, token());
    }
  }

  private void begin() {
    if (!open) {
      session = source.recorder().begin(sessionId);
      open = true;
    }
  }

  private enum Outcome { COMMITTED, ABORTED, UNKNOWN }

  private void end(Outcome outcome) {
    if (open) {
      Outcome o = uncertain && outcome == Outcome.COMMITTED ? Outcome.UNKNOWN : outcome;
      open = false;
      try {
        switch (o) {
          case COMMITTED -> session.commit();
          case ABORTED -> session.abort();
          default -> session.unknown();
        }
      } catch (RuntimeException e) {
        // the database has ended the transaction: the application must not see the sink's failure
        LOG.warn("isowatch: session {} could not deliver its recorded transaction: {}", sessionId, e.toString());
        source.unrecorded(lastTable, "sink-failed");
      }
    }
    written.clear();
    tokenDrawn = false;
    uncertain = false;
    epoch++;
  }

  private void countIfMentioned(String sql, String reason) {
    source.shapes().mentioned(sql).ifPresent(t -> source.unrecorded(t, reason));
  }

  private Object call(Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(real, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
