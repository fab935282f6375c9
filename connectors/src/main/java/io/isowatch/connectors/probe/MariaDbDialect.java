package io.isowatch.connectors.probe;

import java.sql.SQLException;
import java.util.Set;

/**
 * MariaDB (tested with 10.11; MySQL's SQL is the same here): appends with {@code UPDATE ... SET v =
 * CONCAT(v, ',', e)}. InnoDB updates the latest committed version of the row whatever the
 * transaction's snapshot, unless {@code innodb_snapshot_isolation=ON}, with which an update of a row
 * changed since the snapshot fails with error 1020 (MariaDB Knowledge Base, "InnoDB System
 * Variables", innodb_snapshot_isolation).
 *
 * <p>Aborts (MariaDB Knowledge Base, "MariaDB Error Codes"): 1213 ER_LOCK_DEADLOCK, 1205
 * ER_LOCK_WAIT_TIMEOUT, 1020 ER_CHECKREAD ("Record has changed since last read", the write-write
 * conflict of {@code innodb_snapshot_isolation}), 1062 ER_DUP_ENTRY (two transactions inserting the
 * same absent key; the probe rolls back the whole transaction).
 */
public final class MariaDbDialect implements Dialect {
  private static final Set<Integer> ABORT_CODES = Set.of(1213, 1205, 1020, 1062);

  @Override
  public String name() {
    return "MariaDB";
  }

  @Override
  public String createListTableSql() {
    return "CREATE TABLE IF NOT EXISTS " + LIST_TABLE
        + " (k VARCHAR(128) PRIMARY KEY, v LONGTEXT NOT NULL) ENGINE=InnoDB";
  }

  @Override
  public String createRegisterTableSql() {
    return "CREATE TABLE IF NOT EXISTS " + REGISTER_TABLE
        + " (k VARCHAR(128) PRIMARY KEY, v BIGINT) ENGINE=InnoDB";
  }

  @Override
  public String appendSql() {
    return "UPDATE " + LIST_TABLE + " SET v = CONCAT(v, ',', ?) WHERE k = ?";
  }

  @Override
  public boolean isAbort(SQLException e) {
    for (SQLException x = e; x != null; x = x.getNextException()) {
      if (ABORT_CODES.contains(x.getErrorCode())) {
        return true;
      }
    }
    return false;
  }
}
