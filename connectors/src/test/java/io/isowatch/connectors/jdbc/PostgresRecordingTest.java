package io.isowatch.connectors.jdbc;

import io.isowatch.connectors.testdb.PostgresServer;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.postgresql.ds.PGSimpleDataSource;

/** The recording data source over a real PostgreSQL server ({@link PostgresServer}). */
@Timeout(120)
class PostgresRecordingTest extends RecordingDataSourceContract {
  private static PostgresServer server;

  @BeforeAll
  static void start() {
    server = PostgresServer.start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Override
  DataSource realDataSource() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(server.jdbcUrl());
    return ds;
  }

  @Override
  String serializationFailure() {
    return "40001";
  }
}
