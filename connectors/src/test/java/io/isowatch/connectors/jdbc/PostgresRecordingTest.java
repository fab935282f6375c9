package io.isowatch.connectors.jdbc;

import io.isowatch.connectors.probe.Dialect;
import io.isowatch.connectors.probe.PostgresDialect;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import javax.sql.DataSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;

/** The recording data source over a real PostgreSQL server ({@link PostgresServer}). */
@Timeout(120)
class PostgresRecordingTest extends RecordingDataSourceContract {
  @RegisterExtension
  static final PrivateServer<PostgresServer> SERVER = PrivateServer.of(PostgresServer::start);

  @Override
  DataSource realDataSource() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(SERVER.get().jdbcUrl());
    return ds;
  }

  @Override
  String serializationFailure() {
    return "40001";
  }

  @Override
  Dialect dialect() {
    return new PostgresDialect();
  }

  @Override
  String writeConflict() {
    return "40001";
  }
}
