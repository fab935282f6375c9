package io.isowatch.connectors.knownanswers;

import io.isowatch.connectors.testdb.MariaDbServer;
import io.isowatch.connectors.testdb.PrivateServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The MariaDB rows of the known-answer table (issue 6) with {@code innodb_snapshot_isolation=OFF}
 * (the default before 11.6), against a real server ({@link MariaDbServer}).
 */
@Timeout(120)
class MariaDbSnapshotIsolationOffKnownAnswersTest {
  @RegisterExtension
  static final PrivateServer<MariaDbServer> SERVER = PrivateServer.of(() -> MariaDbServer.start(false));

  @Test
  void repeatableReadLosesUpdatesButShowsNoG0OrG1() throws Exception {
    KnownAnswer row = KnownAnswer.MARIADB_REPEATABLE_READ_SI_OFF;
    KnownAnswerAssert.holdsWithin(row, 5, 400, seed -> Measurement.run(row, SERVER.get().jdbcUrl(), "mrr" + seed, seed));
  }

  @Test
  void serializableShowsNothing() throws Exception {
    KnownAnswer row = KnownAnswer.MARIADB_SERIALIZABLE;
    KnownAnswerAssert.holdsWithin(row, 5, 500, seed -> Measurement.run(row, SERVER.get().jdbcUrl(), "mser" + seed, seed));
  }
}
