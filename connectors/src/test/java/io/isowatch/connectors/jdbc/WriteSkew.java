package io.isowatch.connectors.jdbc;

import io.isowatch.connectors.probe.HistoryCollector;
import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.Transaction;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * The on-call doctors write skew (Berenson et al., SIGMOD 1995, "A5B"; Fekete et al., TODS 2005),
 * run by an application through a {@link RecordingDataSource}: two doctors are on call; two
 * transactions, on two connections, each read both rows, then each takes a different doctor off
 * call and commits. Under snapshot isolation both commit (G2-item: each read the row the other
 * wrote, an anti-dependency each way); under serializable at most one does.
 *
 * <p>The application code is ordinary JDBC: prepared SELECTs and UPDATEs by key; the version column
 * is never written by it. The two transactions run on their own threads and meet at a barrier after
 * their reads, since a locking implementation (MariaDB's SERIALIZABLE) blocks one UPDATE until a
 * deadlock is detected.
 */
final class WriteSkew {
  /** The HMAC key of the tests' recorders. */
  static final byte[] SECRET = "write-skew-test-secret".getBytes(StandardCharsets.UTF_8);

  final String table;
  final HistoryCollector history = new HistoryCollector();
  final List<Transaction> recorded = Collections.synchronizedList(new ArrayList<>());
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final RecordingDataSource dataSource;
  private final DataSource real;

  /**
   * @param real the database's own data source
   * @param table a table name for this run, created here
   * @throws SQLException if the table cannot be created
   */
  WriteSkew(DataSource real, String table) throws SQLException {
    this.real = real;
    this.table = table;
    TransactionSink sink = txn -> {
      recorded.add(txn);
      history.accept(txn);
    };
    this.dataSource = RecordingDataSource.builder(real, "write-skew", sink)
        .table(table, "id", "isowatch_version").hashedWith(SECRET).meterRegistry(registry).build();
    try (Connection c = real.getConnection(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + table);
      s.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, on_call BOOLEAN NOT NULL, isowatch_version BIGINT)");
    }
  }

  /**
   * Inserts the two doctors on call, through the wrapper with autocommit on: two recorded
   * single-statement transactions.
   */
  void setUp() throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement insert = c.prepareStatement("INSERT INTO " + table + " (id, on_call) VALUES (?, ?)")) {
      for (int id = 1; id <= 2; id++) {
        insert.setInt(1, id);
        insert.setBoolean(2, true);
        insert.executeUpdate();
      }
    }
  }

  /**
   * Runs the two transactions at {@code isolation}.
   *
   * @param isolation a {@code Connection.TRANSACTION_*} level
   * @return per transaction (doctor 1 off, doctor 2 off): null if it committed, else the SQLSTATE
   *     of the error that aborted it
   */
  List<String> run(int isolation) throws Exception {
    CyclicBarrier afterReads = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<String>> outcomes = new ArrayList<>();
      for (int mine = 1; mine <= 2; mine++) {
        int doctor = mine;
        outcomes.add(pool.submit(() -> offCall(isolation, doctor, afterReads)));
      }
      List<String> out = new ArrayList<>();
      for (Future<String> f : outcomes) {
        out.add(f.get(60, TimeUnit.SECONDS));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /** @return how many doctors are on call now, read without the wrapper */
  int onCall() throws SQLException {
    try (Connection c = real.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table + " WHERE on_call")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private String offCall(int isolation, int doctor, CyclicBarrier afterReads) throws Exception {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      c.setTransactionIsolation(isolation);
      try {
        int onCall = 0;
        try (PreparedStatement read = c.prepareStatement("SELECT on_call FROM " + table + " WHERE id = ?")) {
          for (int id = 1; id <= 2; id++) {
            read.setInt(1, id);
            try (ResultSet rs = read.executeQuery()) {
              if (rs.next() && rs.getBoolean(1)) {
                onCall++;
              }
            }
          }
        }
        afterReads.await(30, TimeUnit.SECONDS);
        if (onCall >= 2) {
          try (PreparedStatement off = c.prepareStatement("UPDATE " + table + " SET on_call = ? WHERE id = ?")) {
            off.setBoolean(1, false);
            off.setInt(2, doctor);
            off.executeUpdate();
          }
        }
        c.commit();
        return null;
      } catch (SQLException e) {
        c.rollback();
        return e.getSQLState();
      }
    }
  }
}
