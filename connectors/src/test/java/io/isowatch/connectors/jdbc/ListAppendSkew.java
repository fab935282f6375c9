package io.isowatch.connectors.jdbc;

import io.isowatch.connectors.probe.Dialect;
import io.isowatch.connectors.probe.HistoryCollector;
import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.Transaction;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
 * List-append traffic run by an application through a {@link RecordingDataSource} with the probe's
 * own statements ({@link Dialect#readSql}, {@link Dialect#appendSql}, {@link Dialect#insertSql}) on
 * a list table of the probe's layout: two transactions, on two connections, each read the lists at
 * keys 1 and 2, meet at a barrier, then each appends to a key of its own choosing and commits. With
 * different keys this is the write skew of {@link WriteSkew} on lists (G2-item under snapshot
 * isolation); with the same key it is a lost update, which snapshot isolation refuses.
 */
final class ListAppendSkew {
  final String table;
  final HistoryCollector history = new HistoryCollector();
  final List<Transaction> recorded = Collections.synchronizedList(new ArrayList<>());
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final RecordingDataSource dataSource;
  private final Dialect dialect;

  /**
   * @param real the database's own data source
   * @param dialect the probe's dialect for the database
   * @param table a table name for this run, created here with the dialect's list-table DDL
   * @throws SQLException if the table cannot be created
   */
  ListAppendSkew(DataSource real, Dialect dialect, String table) throws SQLException {
    this.dialect = dialect;
    this.table = table;
    TransactionSink sink = txn -> {
      recorded.add(txn);
      history.accept(txn);
    };
    this.dataSource = RecordingDataSource.builder(real, "list-skew", sink)
        .listTable(table, "k", "v").hashedWith(WriteSkew.SECRET).meterRegistry(registry).build();
    try (Connection c = real.getConnection(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + table);
      s.execute(sql(dialect.createListTableSql()));
    }
  }

  /** Inserts keys 1 and 2 with the empty list, through the wrapper (nothing to record: no element). */
  void setUp() throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement insert = c.prepareStatement(sql(dialect.insertSql(Dialect.LIST_TABLE)))) {
      for (int k = 1; k <= 2; k++) {
        insert.setString(1, String.valueOf(k));
        insert.setString(2, "");
        insert.executeUpdate();
      }
    }
  }

  /**
   * Runs the two transactions at {@code isolation}: the first appends {@code 10} to {@code
   * firstKey}, the second {@code 20} to {@code secondKey}.
   *
   * @return per transaction: null if it committed, else the SQLSTATE of the error that aborted it
   */
  List<String> run(int isolation, int firstKey, int secondKey) throws Exception {
    CyclicBarrier afterReads = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<String> first = pool.submit(() -> readBothThenAppend(isolation, firstKey, 10, afterReads));
      Future<String> second = pool.submit(() -> readBothThenAppend(isolation, secondKey, 20, afterReads));
      List<String> out = new ArrayList<>();
      out.add(first.get(60, TimeUnit.SECONDS));
      out.add(second.get(60, TimeUnit.SECONDS));
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Reads both lists in one transaction at {@code isolation} and commits. */
  void readBoth(int isolation) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      c.setTransactionIsolation(isolation);
      read(c);
      c.commit();
    }
  }

  private String readBothThenAppend(int isolation, int key, long element, CyclicBarrier afterReads)
      throws Exception {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      c.setTransactionIsolation(isolation);
      try {
        read(c);
        afterReads.await(30, TimeUnit.SECONDS);
        try (PreparedStatement append = c.prepareStatement(sql(dialect.appendSql()))) {
          append.setString(1, String.valueOf(element));
          append.setString(2, String.valueOf(key));
          append.executeUpdate();
        }
        c.commit();
        return null;
      } catch (SQLException e) {
        c.rollback();
        return e.getSQLState();
      }
    }
  }

  private void read(Connection c) throws SQLException {
    try (PreparedStatement read = c.prepareStatement(sql(dialect.readSql(Dialect.LIST_TABLE)))) {
      for (int k = 1; k <= 2; k++) {
        read.setString(1, String.valueOf(k));
        try (ResultSet rs = read.executeQuery()) {
          rs.next();
        }
      }
    }
  }

  /** @return the dialect's statement on this run's table */
  private String sql(String dialectSql) {
    return dialectSql.replace(Dialect.LIST_TABLE, table);
  }
}
