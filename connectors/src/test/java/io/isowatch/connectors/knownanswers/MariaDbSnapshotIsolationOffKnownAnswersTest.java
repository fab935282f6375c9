package io.isowatch.connectors.knownanswers;

import io.isowatch.connectors.testdb.MariaDbServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The MariaDB rows of the known-answer table (issue 6) with {@code innodb_snapshot_isolation=OFF}
 * (the default before 11.6), against a real server ({@link MariaDbServer}).
 */
@Timeout(120)
class MariaDbSnapshotIsolationOffKnownAnswersTest {
  private static MariaDbServer server;

  @BeforeAll
  static void start() {
    server = MariaDbServer.start(false);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void repeatableReadLosesUpdatesButShowsNoG0OrG1() throws Exception {
    KnownAnswer row = KnownAnswer.MARIADB_REPEATABLE_READ_SI_OFF;
    KnownAnswerAssert.holds(row, Measurement.run(row, server.jdbcUrl(), "mrr", 4));
  }

  @Test
  void serializableShowsNothing() throws Exception {
    KnownAnswer row = KnownAnswer.MARIADB_SERIALIZABLE;
    KnownAnswerAssert.holds(row, Measurement.run(row, server.jdbcUrl(), "mser", 5));
  }
}
