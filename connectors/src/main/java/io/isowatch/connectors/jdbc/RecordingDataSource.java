package io.isowatch.connectors.jdbc;

import io.isowatch.connectors.privacy.Privacy;
import io.isowatch.connectors.recorder.TransactionRecorder;
import io.isowatch.connectors.recorder.TransactionSink;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} that records, for the tables declared in its configuration, the rows the
 * application's SQL reads and writes, as transactions of one history delivered to a {@link
 * TransactionSink} (e.g. a {@link io.isowatch.connectors.recorder.BufferedSink} over Kafka).
 *
 * <p>Each connection obtained is one session ({@code <random prefix>-<n>}). Transactions follow the
 * connection's: with autocommit off, a recorded transaction begins with the first recorded read or
 * write and ends with {@code commit()} (committed; aborted if the database refuses with an SQLSTATE
 * of class 40, e.g. a serialization failure; unknown for other commit errors), {@code rollback()}
 * (aborted) or {@code setAutoCommit(true)} (committed); with autocommit on, each statement is its
 * own transaction (a SELECT's transaction ends when its result set or statement is closed or the
 * next statement runs). A connection closed with a transaction open records it as of unknown
 * outcome (JDBC leaves the result to the driver).
 *
 * <p>Which statements are understood, and how they are rewritten, is {@link SqlShapes}: a SELECT of
 * one row by key gets the version column appended as its last result column, and each row the
 * application fetches is recorded as a read of that row's version; a single-row UPDATE or INSERT by
 * key sets the version column to the transaction's token (a random 63-bit number, new per
 * transaction) and is recorded as a write of the token when the database reports a changed row. A
 * statement mentioning a declared table in another form runs unchanged and is counted in {@value
 * #UNRECORDED} (tags {@code table}, {@code reason}), as are prepared-statement batches ({@code
 * batch}), keys bound to NULL ({@code null-key}), a key returning more than one row ({@code
 * extra-row}), rows fetched after their transaction ended ({@code stale-result-set}), versions the driver
 * cannot read as a long ({@code version-unreadable}), rollbacks to
 * a savepoint in a transaction with recorded operations ({@code savepoint-rollback}; the
 * transaction is then recorded with unknown outcome, since some of its recorded writes may have been
 * undone), and transactions the sink threw for when they ended ({@code sink-failed}; the
 * application's {@code commit()} is not failed for it). Unrecorded writes keep the row's version, so they are invisible to the checker: they can
 * hide anomalies, not invent them.
 *
 * <p>List tables ({@link Builder#listTable}) are recorded as list-append operations instead: a SELECT
 * by key as a read of the whole list (the list column appended as the last result column), an
 * append ({@code SET v = v || ',' || ?}, {@code SET v = CONCAT(v, ',', ?)}) or single-row INSERT by
 * key, run unchanged, as appends of its elements when the database reports a changed row ({@code
 * element-unreadable} when the appended text is not decimal longs, {@code list-unreadable} for such
 * a list read); see {@link ListShapes}.
 *
 * <p>What the application sees differently: a recorded SELECT's result has one more column at the
 * end, and a recorded prepared UPDATE or INSERT has one more parameter at the front (the wrapper
 * shifts the application's parameter indexes; {@code getParameterMetaData()} shows the real
 * statement). {@code unwrap} reaches the driver's objects, whose use is not recorded.
 *
 * <p>Keys ({@code table/keyValue}) and tokens leave through the recorder's {@link Privacy}: hashed
 * unless the builder was told {@link Builder#plaintext()}. Thread-safe, like the wrapped data source.
 */
public final class RecordingDataSource implements DataSource {
  /** Counter of statements on declared tables that were run but not recorded, by table and reason. */
  public static final String UNRECORDED = "isowatch.jdbc.unrecorded";

  private final DataSource target;
  private final TransactionRecorder recorder;
  private final SqlShapes shapes;
  private final MeterRegistry registry;
  private final SecureRandom random = new SecureRandom();
  private final String sessionPrefix;
  private final AtomicLong sessions = new AtomicLong();

  private RecordingDataSource(Builder b) {
    this.target = b.target;
    this.recorder = new TransactionRecorder(b.historyId, b.sink, b.privacy);
    this.shapes = new SqlShapes(Map.copyOf(b.tables));
    this.registry = b.registry;
    this.sessionPrefix = String.format("%08x", random.nextInt());
  }

  /**
   * @param target the application's real data source (a pool, or a driver's data source)
   * @param historyId the monitored database, e.g. {@code orders-db}
   * @param sink where recorded transactions go
   * @return a builder; declare tables, then choose hashing ({@link Builder#hashedWith}) or
   *     plaintext
   */
  public static Builder builder(DataSource target, String historyId, TransactionSink sink) {
    return new Builder(target, historyId, sink);
  }

  /**
   * @return a recording connection from the wrapped data source: one new session
   * @throws SQLException what the wrapped data source throws
   */
  @Override
  public Connection getConnection() throws SQLException {
    return wrap(target.getConnection());
  }

  /**
   * @return a recording connection from the wrapped data source: one new session
   * @throws SQLException what the wrapped data source throws
   */
  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return wrap(target.getConnection(username, password));
  }

  private Connection wrap(Connection real) throws SQLException {
    String session = sessionPrefix + "-" + sessions.incrementAndGet();
    RecordingConnection handler = new RecordingConnection(this, real, session);
    Connection proxy = (Connection) Proxy.newProxyInstance(
        RecordingDataSource.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
    handler.setProxy(proxy);
    return proxy;
  }

  TransactionRecorder recorder() {
    return recorder;
  }

  SqlShapes shapes() {
    return shapes;
  }

  /** @return a new version token: random, 63 bits, never 0 */
  long newToken() {
    long t;
    do {
      t = random.nextLong() & Long.MAX_VALUE;
    } while (t == 0);
    return t;
  }

  /** Counts one unrecorded statement. */
  void unrecorded(RecordedTable table, String reason) {
    Counter.builder(UNRECORDED).tag("table", table.table().toLowerCase(Locale.ROOT)).tag("reason", reason)
        .description("statements on recorded tables run but not recorded").register(registry).increment();
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return target.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    target.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    target.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return target.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return target.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return iface.isInstance(this) ? iface.cast(this) : target.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface.isInstance(this) || target.isWrapperFor(iface);
  }

  /**
   * The configuration: the declared tables, privacy, metrics. Privacy has no silent default:
   * {@link #build} refuses until either {@link #hashedWith} or {@link #plaintext} was called.
   */
  public static final class Builder {
    private final DataSource target;
    private final String historyId;
    private final TransactionSink sink;
    private final Map<String, RecordedTable> tables = new LinkedHashMap<>();
    private Privacy privacy;
    private MeterRegistry registry = new SimpleMeterRegistry();

    private Builder(DataSource target, String historyId, TransactionSink sink) {
      this.target = target;
      this.historyId = historyId;
      this.sink = sink;
    }

    /**
     * Declares a recorded table.
     *
     * @param table the table, e.g. {@code accounts}
     * @param keyColumn its unique key column, e.g. {@code id}
     * @param versionColumn its nullable BIGINT version column that only the wrapper writes
     * @return this builder
     * @throws IllegalArgumentException if a name is not a plain identifier or the table is declared twice
     */
    public Builder table(String table, String keyColumn, String versionColumn) {
      return declare(new RecordedTable(table, keyColumn, versionColumn));
    }

    /**
     * Declares a recorded list table ({@link RecordedTable#list}): its rows are lists the
     * application appends to ({@code SET v = v || ',' || ?} or {@code SET v = CONCAT(v, ',', ?)},
     * single-row {@code INSERT}) and reads whole; recorded as list-append operations.
     *
     * @param table the table, e.g. {@code isowatch_list_append}
     * @param keyColumn its unique key column, e.g. {@code k}
     * @param listColumn its text column holding the comma-separated elements, e.g. {@code v}
     * @return this builder
     * @throws IllegalArgumentException if a name is not a plain identifier or the table is declared twice
     */
    public Builder listTable(String table, String keyColumn, String listColumn) {
      return declare(RecordedTable.list(table, keyColumn, listColumn));
    }

    private Builder declare(RecordedTable t) {
      if (tables.putIfAbsent(t.table().toLowerCase(Locale.ROOT), t) != null) {
        throw new IllegalArgumentException("table " + t.table() + " is declared twice");
      }
      return this;
    }

    /**
     * Keys and tokens leave as keyed hashes ({@link Privacy#hashed}).
     *
     * @param secret the HMAC key, the same for every recorder of the history; copied
     * @return this builder
     * @throws IllegalArgumentException if {@code secret} is empty
     */
    public Builder hashedWith(byte[] secret) {
      this.privacy = Privacy.hashed(secret);
      return this;
    }

    /**
     * Keys (including the key columns' values) and tokens leave in plaintext.
     *
     * @return this builder
     */
    public Builder plaintext() {
      this.privacy = Privacy.plaintext();
      return this;
    }

    /**
     * @param registry where {@value #UNRECORDED} is counted (default: a private {@link SimpleMeterRegistry})
     * @return this builder
     */
    public Builder meterRegistry(MeterRegistry registry) {
      this.registry = registry;
      return this;
    }

    /**
     * @return the data source
     * @throws IllegalStateException if no table is declared, or privacy was not chosen
     */
    public RecordingDataSource build() {
      if (tables.isEmpty()) {
        throw new IllegalStateException("declare at least one recorded table");
      }
      if (privacy == null) {
        throw new IllegalStateException(
            "choose privacy: hashedWith(secret) to publish keyed hashes (the default way), or plaintext()");
      }
      return new RecordingDataSource(this);
    }
  }
}
