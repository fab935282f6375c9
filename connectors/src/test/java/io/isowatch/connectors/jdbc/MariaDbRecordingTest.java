package io.isowatch.connectors.jdbc;

import io.isowatch.connectors.probe.Dialect;
import io.isowatch.connectors.probe.MariaDbDialect;
import io.isowatch.connectors.testdb.MariaDbServer;
import io.isowatch.connectors.testdb.PrivateServer;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * The recording data source over a real MariaDB server ({@link MariaDbServer}, {@code
 * innodb_snapshot_isolation=ON}). Its SERIALIZABLE takes shared locks for plain SELECTs, so the two
 * UPDATEs of the write skew deadlock and InnoDB rolls one back (SQLSTATE 40001, error 1213).
 */
@Timeout(120)
class MariaDbRecordingTest extends RecordingDataSourceContract {
  @RegisterExtension
  static final PrivateServer<MariaDbServer> SERVER = PrivateServer.of(() -> MariaDbServer.start(true));

  @Override
  DataSource realDataSource() throws SQLException {
    return new MariaDbDataSource(SERVER.get().jdbcUrl());
  }

  @Override
  String serializationFailure() {
    return "40001";
  }

  @Override
  Dialect dialect() {
    return new MariaDbDialect();
  }

  @Override
  String writeConflict() {
    return "HY000";
  }
}
