package io.isowatch.connectors.knownanswers;

import io.isowatch.connectors.testdb.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The PostgreSQL rows of the known-answer table (issue 6), against a real server ({@link
 * PostgresServer}): the probe's list-append scenarios under contention, checked offline.
 */
@Timeout(120)
class PostgresKnownAnswersTest {
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

  @Test
  void readCommittedShowsReadSkewAndNoG0OrG1() throws Exception {
    KnownAnswer row = KnownAnswer.PG_READ_COMMITTED;
    KnownAnswerAssert.holds(row, Measurement.run(row, server.jdbcUrl(), "pgrc", 1));
  }

  @Test
  void repeatableReadShowsWriteSkewAndNothingSnapshotIsolationForbids() throws Exception {
    KnownAnswer row = KnownAnswer.PG_REPEATABLE_READ;
    KnownAnswerAssert.holds(row, Measurement.run(row, server.jdbcUrl(), "pgrr", 2));
  }

  @Test
  void serializableShowsNothingAndAborts() throws Exception {
    KnownAnswer row = KnownAnswer.PG_SERIALIZABLE;
    KnownAnswerAssert.holds(row, Measurement.run(row, server.jdbcUrl(), "pgser", 3));
  }
}
