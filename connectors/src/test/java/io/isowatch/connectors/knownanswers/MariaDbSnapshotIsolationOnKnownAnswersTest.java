package io.isowatch.connectors.knownanswers;

import io.isowatch.connectors.testdb.MariaDbServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The MariaDB row of the known-answer table (issue 6) with {@code innodb_snapshot_isolation=ON},
 * against a real server ({@link MariaDbServer}).
 */
@Timeout(120)
class MariaDbSnapshotIsolationOnKnownAnswersTest {
  private static MariaDbServer server;

  @BeforeAll
  static void start() {
    server = MariaDbServer.start(true);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void repeatableReadLosesNoUpdateAndShowsNothingSnapshotIsolationForbids() throws Exception {
    KnownAnswer row = KnownAnswer.MARIADB_REPEATABLE_READ_SI_ON;
    KnownAnswerAssert.holds(row, Measurement.run(row, server.jdbcUrl(), "mrrsi", 6));
  }
}
