package io.isowatch.connectors.testdb;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** A database server a test talks to over JDBC: a private local server or one named by the environment. */
public interface TestDatabase extends AutoCloseable {
  /** @return the JDBC URL, user included */
  String jdbcUrl();

  /**
   * @return a new connection, autocommit on
   * @throws SQLException if the server refuses it
   */
  default Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl());
  }

  /**
   * @return {@code SELECT version()}, e.g. {@code PostgreSQL 15.20 (Debian 15.20-0+deb12u1) on ...} or
   *     {@code 10.11.19-MariaDB-0+deb12u1-log}
   * @throws SQLException if the query fails
   */
  default String version() throws SQLException {
    try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT version()")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** Stops the server if this fixture started it, and deletes its directory. */
  @Override
  void close();
}
