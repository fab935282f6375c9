package io.isowatch.connectors.probe;

import java.sql.SQLException;
import java.util.Set;

/**
 * PostgreSQL (tested with 15): appends with {@code UPDATE ... SET v = v || ',' || e}. At READ
 * COMMITTED the update applies to the latest committed version; at REPEATABLE READ and SERIALIZABLE
 * an update of a row changed since the snapshot fails with SQLSTATE 40001 (PostgreSQL 15 manual,
 * §13.2 "Transaction Isolation").
 *
 * <p>Aborts (PostgreSQL 15 manual, Appendix A "Error Codes"): {@code 40001}
 * serialization_failure, {@code 40P01} deadlock_detected, {@code 55P03} lock_not_available, {@code
 * 23505} unique_violation (two transactions inserting the same absent key; PostgreSQL aborts the
 * transaction on any error).
 */
public final class PostgresDialect implements Dialect {
  private static final Set<String> ABORT_STATES = Set.of("40001", "40P01", "55P03", "23505");

  @Override
  public String name() {
    return "PostgreSQL";
  }

  @Override
  public String createListTableSql() {
    return "CREATE TABLE IF NOT EXISTS " + LIST_TABLE + " (k VARCHAR(128) PRIMARY KEY, v TEXT NOT NULL)";
  }

  @Override
  public String createRegisterTableSql() {
    return "CREATE TABLE IF NOT EXISTS " + REGISTER_TABLE + " (k VARCHAR(128) PRIMARY KEY, v BIGINT)";
  }

  @Override
  public String appendSql() {
    return "UPDATE " + LIST_TABLE + " SET v = v || ',' || ? WHERE k = ?";
  }

  @Override
  public boolean isAbort(SQLException e) {
    for (SQLException x = e; x != null; x = x.getNextException()) {
      if (x.getSQLState() != null && ABORT_STATES.contains(x.getSQLState())) {
        return true;
      }
    }
    return false;
  }
}
