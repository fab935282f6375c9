package io.isowatch.connectors.probe;

import java.sql.SQLException;
import java.util.Set;

/**
 * PostgreSQL (tested with 15): appends with {@code v || ',' || e} under {@code INSERT ... ON
 * CONFLICT (k) DO UPDATE}, which inserts the row when absent and otherwise updates the latest
 * committed version (PostgreSQL 15 manual, "INSERT", "ON CONFLICT Clause"). At REPEATABLE READ and
 * SERIALIZABLE an update of a row changed since the snapshot fails with SQLSTATE 40001.
 *
 * <p>Aborts (PostgreSQL 15 manual, Appendix A "Error Codes"): {@code 40001}
 * serialization_failure, {@code 40P01} deadlock_detected, {@code 55P03} lock_not_available.
 */
public final class PostgresDialect implements Dialect {
  private static final Set<String> ABORT_STATES = Set.of("40001", "40P01", "55P03");

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
    return "CREATE TABLE IF NOT EXISTS " + REGISTER_TABLE + " (k VARCHAR(128) PRIMARY KEY, v BIGINT NOT NULL)";
  }

  @Override
  public String appendSql() {
    return "INSERT INTO " + LIST_TABLE + " AS t (k, v) VALUES (?, ?)"
        + " ON CONFLICT (k) DO UPDATE SET v = t.v || ',' || EXCLUDED.v";
  }

  @Override
  public String writeSql() {
    return "INSERT INTO " + REGISTER_TABLE + " AS t (k, v) VALUES (?, ?)"
        + " ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v";
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
