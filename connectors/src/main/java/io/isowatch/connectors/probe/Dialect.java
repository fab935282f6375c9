package io.isowatch.connectors.probe;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The SQL the probe needs from a database, so that any JDBC database can be probed by writing one
 * implementation of this interface.
 *
 * <p>The probe keeps two tables, created if absent: {@link #LIST_TABLE} (columns {@code k}, a key
 * of up to 128 characters, primary key; {@code v}, text holding the list as comma-separated
 * decimal longs, oldest element first, {@code ""} for the empty list, a leading comma ignored) and
 * {@link #REGISTER_TABLE} ({@code k} as above; {@code v}, a nullable 64-bit integer). A key without
 * a row, with {@code ""} or with NULL is at its initial value. The probe inserts its keys at their
 * initial value before the sessions start. Every statement below runs inside the session's open transaction, at the
 * isolation level the session set through JDBC ({@link Connection#setTransactionIsolation}).
 *
 * <p>A write is an {@code UPDATE} of the key's row ({@link #appendSql()}: {@code v = v || ',' || e};
 * {@link #writeSql()}: {@code v = e}); when it updates no row, the probe inserts the row ({@link
 * #insertSql}). Two transactions inserting the same absent key race: the loser gets a duplicate-key
 * error, which {@link #isAbort} must count as an abort, so that the probe rolls back and retries.
 * This is why the probe does not use {@code INSERT ... ON CONFLICT / ON DUPLICATE KEY UPDATE}: on
 * MariaDB 10.11 at SERIALIZABLE such an upsert was seen to spin for 14 minutes, well past {@code
 * innodb_lock_wait_timeout} ({@code docs/real-databases.md}).
 *
 * <p>What an implementation must guarantee:
 *
 * <ul>
 *   <li>reads are plain {@code SELECT}s by key ({@link #readSql}), no locking clause, so that what
 *       the isolation level does to reads is what gets measured;
 *   <li>{@link #isAbort} says which errors are the database refusing the transaction (serialization
 *       failure, deadlock, lock timeout, write-write conflict, the duplicate key of an insert race):
 *       those are recorded as aborted and retried as new transactions; every other error stops the
 *       probe.
 * </ul>
 */
public interface Dialect {
  /** The list-append table. */
  String LIST_TABLE = "isowatch_list_append";
  /** The rw-register table. */
  String REGISTER_TABLE = "isowatch_rw_register";

  /** @return the database's name for messages, e.g. {@code PostgreSQL} */
  String name();

  /**
   * @return DDL creating {@link #LIST_TABLE} if it does not exist (no error if it does)
   */
  String createListTableSql();

  /**
   * @return DDL creating {@link #REGISTER_TABLE} if it does not exist (no error if it does)
   */
  String createRegisterTableSql();

  /**
   * @return an {@code UPDATE} of {@link #LIST_TABLE} with parameters {@code (1) element: string of
   *     the decimal long, (2) k: string} that appends the element to the comma-separated list of
   *     {@code k} (PostgreSQL {@code v = v || ',' || ?}, MariaDB {@code v = CONCAT(v, ',', ?)})
   */
  String appendSql();

  /**
   * @return an {@code UPDATE} of {@link #REGISTER_TABLE} with parameters {@code (1) value: long,
   *     (2) k: string}; default {@code UPDATE isowatch_rw_register SET v = ? WHERE k = ?}
   */
  default String writeSql() {
    return "UPDATE " + REGISTER_TABLE + " SET v = ? WHERE k = ?";
  }

  /**
   * @param table {@link #LIST_TABLE} or {@link #REGISTER_TABLE}
   * @return an {@code INSERT} with parameters {@code (1) k: string, (2) v} (the list's one element
   *     as a string, or the register's long); default {@code INSERT INTO table (k, v) VALUES (?, ?)}
   */
  default String insertSql(String table) {
    return "INSERT INTO " + table + " (k, v) VALUES (?, ?)";
  }

  /**
   * @param table {@link #LIST_TABLE} or {@link #REGISTER_TABLE}
   * @return a plain {@code SELECT v FROM table WHERE k = ?}
   */
  default String readSql(String table) {
    return "SELECT v FROM " + table + " WHERE k = ?";
  }

  /**
   * @param e an error raised by a statement or by commit
   * @return whether it is the database aborting the transaction for concurrency (serialization
   *     failure, deadlock, lock wait timeout, write-write conflict), which the probe records as
   *     aborted and retries
   */
  boolean isAbort(SQLException e);

  /**
   * @param c an open connection
   * @return the server's product name and version as JDBC reports them, e.g. {@code PostgreSQL
   *     15.20 (Debian 15.20-0+deb12u1)}
   * @throws SQLException if the metadata cannot be read
   */
  default String serverVersion(Connection c) throws SQLException {
    DatabaseMetaData md = c.getMetaData();
    return md.getDatabaseProductName() + " " + md.getDatabaseProductVersion();
  }

  /**
   * The dialect for a JDBC URL.
   *
   * @param jdbcUrl e.g. {@code jdbc:postgresql://host:5432/db}, {@code jdbc:mariadb://host:3306/db}
   *     ({@code jdbc:mysql:} URLs get the MariaDB dialect)
   * @return the dialect
   * @throws IllegalArgumentException naming the supported URL prefixes when none matches
   */
  static Dialect forUrl(String jdbcUrl) {
    String u = jdbcUrl.toLowerCase(Locale.ROOT);
    if (u.startsWith("jdbc:postgresql:")) {
      return new PostgresDialect();
    }
    if (u.startsWith("jdbc:mariadb:") || u.startsWith("jdbc:mysql:")) {
      return new MariaDbDialect();
    }
    throw new IllegalArgumentException("no probe dialect for JDBC URL '" + jdbcUrl
        + "'; supported: jdbc:postgresql:, jdbc:mariadb:, jdbc:mysql: (or implement"
        + " io.isowatch.connectors.probe.Dialect)");
  }
}
