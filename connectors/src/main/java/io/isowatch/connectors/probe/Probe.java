package io.isowatch.connectors.probe;

import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.debezium.ListValues;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The probe workload: a canary that runs transactions against a real database through JDBC and
 * records each one, as the client saw it, as a {@link Transaction} record for the monitor.
 *
 * <p>Each of {@link ProbeConfig#sessions()} sessions is one thread with one JDBC connection
 * (autocommit off, the configured isolation). A session repeatedly plans a transaction ({@link
 * Scenario}), runs it and commits. Reads are plain {@code SELECT}s by key; writes are appends
 * (list-append) or register writes of values unique in the whole run (one counter, 1, 2, 3, ...), so
 * every read names its writer. A write updates the key's row and inserts it when there was none
 * ({@link Dialect}). When the database aborts the transaction ({@link Dialect#isAbort}:
 * serialization failure, deadlock, lock timeout) the transaction is rolled back, delivered as
 * ABORTED with the operations it had done, and the same plan is retried as a new transaction with
 * new values. Any other error stops every session and fails the run; a commit that failed that way
 * is delivered with status UNKNOWN.
 *
 * <p>On list-append the scenario's keys are slots: each slot's physical key takes at most {@link
 * ProbeConfig#maxAppendsPerKey()} appends and is then replaced by a fresh key ({@link KeySlots}), so
 * reads stay short however long the run.
 *
 * <p>The model and the anomalies it exposes are Elle's (Kingsbury &amp; Alvaro, VLDB 2020, §3):
 * list-append reads reveal the version order of each key.
 */
public final class Probe {
  private final ProbeConfig config;
  private final Dialect dialect;
  private final TransactionSink sink;

  private final AtomicLong nextValue = new AtomicLong(1);
  private final AtomicLong claimed = new AtomicLong();
  private final AtomicLong committed = new AtomicLong();
  private final AtomicLong aborted = new AtomicLong();
  private final AtomicLong unknown = new AtomicLong();
  private final AtomicBoolean stop = new AtomicBoolean();

  /**
   * @param config what to run
   * @param dialect the database's SQL ({@link Dialect#forUrl} picks it from the URL)
   * @param sink receives every ended transaction, from the session threads concurrently, each
   *     session's in its order
   */
  public Probe(ProbeConfig config, Dialect dialect, TransactionSink sink) {
    this.config = config;
    this.dialect = dialect;
    this.sink = sink;
  }

  /**
   * Creates the tables if absent, runs the sessions until the bound is reached, and returns the
   * counts. Blocks the calling thread for the run.
   *
   * @return the counts and the server version
   * @throws ProbeException if the database cannot be reached (the message names the URL and the
   *     driver's reason), the DDL fails, or a session fails for a reason other than an abort
   * @throws InterruptedException if the calling thread is interrupted; the sessions are stopped
   */
  public ProbeResult run() throws ProbeException, InterruptedException {
    try (Connection c = connect()) {
      String version;
      KeySlots keys;
      try {
        version = dialect.serverVersion(c);
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
          s.execute(config.workload() == ProbeWorkload.LIST_APPEND ? dialect.createListTableSql()
              : dialect.createRegisterTableSql());
        }
        keys = new KeySlots(config, dialect, c);
      } catch (SQLException e) {
        throw new ProbeException("cannot set up the probe tables at " + config.jdbcUrl() + ": "
            + e.getMessage(), e);
      }
      return runSessions(version, keys);
    } catch (SQLException e) {
      throw new ProbeException("cannot close the set-up connection to " + config.jdbcUrl() + ": "
          + e.getMessage(), e);
    }
  }

  /**
   * Runs the sessions until the bound is reached; {@code keys} inserts fresh keys through the set-up
   * connection, which stays open meanwhile.
   */
  private ProbeResult runSessions(String version, KeySlots keys) throws ProbeException, InterruptedException {
    long deadline = config.duration() == null ? Long.MAX_VALUE
        : System.nanoTime() + config.duration().toNanos();
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(config.sessions(), r -> {
      Thread t = new Thread(r);
      t.setName("isowatch-probe-session");
      t.setDaemon(true);
      return t;
    });
    List<Future<Void>> futures = new ArrayList<>();
    try {
      for (int i = 0; i < config.sessions(); i++) {
        int session = i;
        futures.add(pool.submit(() -> {
          try {
            new Session(session, deadline, keys).run();
          } catch (Exception | Error e) {
            stop.set(true);
            throw e;
          }
          return null;
        }));
      }
      ProbeException failure = null;
      for (Future<Void> f : futures) {
        try {
          f.get();
        } catch (ExecutionException e) {
          if (failure == null) {
            Throwable cause = e.getCause();
            failure = cause instanceof ProbeException p ? p
                : new ProbeException("probe session failed: " + cause, cause);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
    } catch (InterruptedException e) {
      stop.set(true);
      pool.shutdownNow();
      throw e;
    } finally {
      pool.shutdown();
    }
    return new ProbeResult(version, committed.get(), aborted.get(), unknown.get(),
        Duration.ofNanos(System.nanoTime() - start));
  }

  private Connection connect() throws ProbeException {
    Properties p = new Properties();
    if (config.user() != null) {
      p.setProperty("user", config.user());
    }
    if (config.password() != null) {
      p.setProperty("password", config.password());
    }
    try {
      return DriverManager.getConnection(config.jdbcUrl(), p);
    } catch (SQLException e) {
      throw new ProbeException("cannot connect to " + config.jdbcUrl() + ": " + e.getMessage()
          + " (check that the server runs, the URL, the user and the password)", e);
    }
  }

  /** A session's prepared statements. */
  private record Statements(PreparedStatement read, PreparedStatement write, PreparedStatement insert) {}

  /** One session: its connection, its random source, its transaction numbering. */
  private final class Session {
    private final String sessionId;
    private final long deadline;
    private final KeySlots keys;
    private final SplittableRandom rnd;
    private long seq;

    Session(int index, long deadline, KeySlots keys) {
      this.sessionId = config.sessionName(index);
      this.deadline = deadline;
      this.keys = keys;
      this.rnd = new SplittableRandom(config.seed() + index);
    }

    void run() throws ProbeException {
      try (Connection c = connect()) {
        c.setAutoCommit(false);
        c.setTransactionIsolation(config.isolation().jdbcLevel());
        boolean list = config.workload() == ProbeWorkload.LIST_APPEND;
        String table = list ? Dialect.LIST_TABLE : Dialect.REGISTER_TABLE;
        try (PreparedStatement read = c.prepareStatement(dialect.readSql(table));
            PreparedStatement write = c.prepareStatement(list ? dialect.appendSql() : dialect.writeSql());
            PreparedStatement insert = c.prepareStatement(dialect.insertSql(table))) {
          Statements st = new Statements(read, write, insert);
          while (!stopped() && claim()) {
            List<Scenario.Step> plan = config.scenario().plan(rnd, config.keys());
            while (!runOnce(c, plan, st, list)) {
              if (stopped()) {
                return;
              }
            }
          }
        }
      } catch (SQLException e) {
        throw new ProbeException("session " + sessionId + " at " + config.jdbcUrl() + " failed: "
            + e.getMessage(), e);
      }
    }

    private boolean stopped() {
      return stop.get() || System.nanoTime() - deadline >= 0 && deadline != Long.MAX_VALUE;
    }

    private boolean claim() {
      return config.transactions() == 0 || claimed.getAndIncrement() < config.transactions();
    }

    /**
     * Runs one attempt of the plan on the keys {@link KeySlots#resolve} gives it.
     *
     * @return true if committed, false if aborted by the database (to be retried)
     * @throws SQLException if a fresh key cannot be inserted (before the attempt starts)
     */
    private boolean runOnce(Connection c, List<Scenario.Step> plan, Statements st, boolean list)
        throws ProbeException, SQLException {
      String[] physical = keys.resolve(plan);
      Instant begin = Instant.now();
      List<Operation> ops = new ArrayList<>(plan.size());
      boolean committing = false;
      try {
        for (int i = 0; i < physical.length; i++) {
          Scenario.Step step = plan.get(i);
          String key = physical[i];
          if (step.write()) {
            long v = nextValue.getAndIncrement();
            write(st, key, v, list);
            ops.add(new Operation(list ? OpKind.APPEND : OpKind.WRITE, key, v));
          } else {
            st.read().setString(1, key);
            ops.add(new Operation(OpKind.READ, key, read(st.read(), key, list)));
          }
        }
        committing = true;
        c.commit();
        deliver(begin, ops, TxnStatus.COMMITTED);
        committed.incrementAndGet();
        return true;
      } catch (SQLException e) {
        rollbackQuietly(c, e);
        if (dialect.isAbort(e)) {
          deliver(begin, ops, TxnStatus.ABORTED);
          aborted.incrementAndGet();
          return false;
        }
        if (committing) {
          deliver(begin, ops, TxnStatus.UNKNOWN);
          unknown.incrementAndGet();
        } else {
          deliver(begin, ops, TxnStatus.ABORTED);
          aborted.incrementAndGet();
        }
        throw new ProbeException("session " + sessionId + " at " + config.jdbcUrl()
            + (committing ? ": commit failed: " : ": statement failed: ") + e.getMessage()
            + " (SQLSTATE " + e.getSQLState() + ", vendor code " + e.getErrorCode() + ")", e);
      }
    }

    /** Updates the key's row; inserts it if there was none (a duplicate-key race is an abort). */
    private void write(Statements st, String key, long v, boolean list) throws SQLException {
      if (list) {
        st.write().setString(1, Long.toString(v));
      } else {
        st.write().setLong(1, v);
      }
      st.write().setString(2, key);
      if (st.write().executeUpdate() == 0) {
        st.insert().setString(1, key);
        if (list) {
          st.insert().setString(2, Long.toString(v));
        } else {
          st.insert().setLong(2, v);
        }
        st.insert().executeUpdate();
      }
    }

    private Object read(PreparedStatement read, String key, boolean list) throws SQLException, ProbeException {
      try (ResultSet rs = read.executeQuery()) {
        if (!rs.next()) {
          return list ? List.of() : null;
        }
        if (!list) {
          long v = rs.getLong(1);
          return rs.wasNull() ? null : v;
        }
        return parseList(key, rs.getString(1));
      }
    }

    private List<Long> parseList(String key, String text) throws ProbeException {
      try {
        return ListValues.parse(text);
      } catch (NumberFormatException e) {
        throw new ProbeException("key " + key + " in " + Dialect.LIST_TABLE + " holds '" + text
            + "', not comma-separated numbers: something other than the probe writes that row", e);
      }
    }

    private void deliver(Instant begin, List<Operation> ops, TxnStatus status) {
      long s = seq++;
      sink.accept(new Transaction(config.historyId(), sessionId,
          config.historyId() + "/" + sessionId + "/" + s, s, status, List.copyOf(ops),
          begin, Instant.now(), null));
    }

    private void rollbackQuietly(Connection c, SQLException cause) {
      try {
        c.rollback();
      } catch (SQLException r) {
        cause.addSuppressed(r);
      }
    }
  }
}
