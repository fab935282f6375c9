package io.isowatch.connectors.debezium.cdc;

import io.isowatch.connectors.debezium.engine.CaptureConfig;
import io.isowatch.connectors.probe.Dialect;
import io.isowatch.connectors.probe.PostgresDialect;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * CDC mode on the probe's list-append table in PostgreSQL: the table's set-up and the capture's
 * configuration. Row changes of {@link Dialect#LIST_TABLE} need before images for {@link
 * CommitCrossCheck} to tell what each update appended, hence {@code REPLICA IDENTITY FULL}
 * (PostgreSQL 15 manual, ALTER TABLE, "REPLICA IDENTITY").
 */
public final class ListAppendCapture {
  /** The capture's name ({@code topic.prefix}), slot and publication: {@value}. */
  public static final String NAME = "isowatch_cdc";

  private ListAppendCapture() {}

  /**
   * Creates the probe's list table if absent and makes its updates carry the whole old row.
   *
   * @param c a connection with the right to alter the table, autocommit on
   * @throws SQLException if the DDL fails
   */
  public static void prepare(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(new PostgresDialect().createListTableSql());
      s.execute("ALTER TABLE " + Dialect.LIST_TABLE + " REPLICA IDENTITY FULL");
    }
  }

  /**
   * @param jdbcUrl the database, user with REPLICATION (or superuser) included
   * @param offsetsFile where the capture keeps its position
   * @param schemas whether JSON events carry their schema
   * @return a capture of {@code public.}{@link Dialect#LIST_TABLE} with slot and publication
   *     {@value #NAME}
   */
  public static CaptureConfig config(String jdbcUrl, Path offsetsFile, boolean schemas) {
    return new CaptureConfig(jdbcUrl, NAME, NAME, NAME, List.of("public." + Dialect.LIST_TABLE), offsetsFile, schemas);
  }
}
