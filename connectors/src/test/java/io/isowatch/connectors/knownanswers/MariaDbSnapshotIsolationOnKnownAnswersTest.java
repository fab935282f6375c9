package io.isowatch.connectors.knownanswers;

import io.isowatch.connectors.testdb.MariaDbServer;
import io.isowatch.connectors.testdb.PrivateServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The MariaDB row of the known-answer table (issue 6) with {@code innodb_snapshot_isolation=ON},
 * against a real server ({@link MariaDbServer}).
 */
@Timeout(120)
class MariaDbSnapshotIsolationOnKnownAnswersTest {
  @RegisterExtension
  static final PrivateServer<MariaDbServer> SERVER = PrivateServer.of(() -> MariaDbServer.start(true));

  @Test
  void repeatableReadLosesNoUpdateAndShowsNothingSnapshotIsolationForbids() throws Exception {
    KnownAnswer row = KnownAnswer.MARIADB_REPEATABLE_READ_SI_ON;
    KnownAnswerAssert.holdsWithin(row, 5, 600, seed -> Measurement.run(row, SERVER.get().jdbcUrl(), "mrrsi" + seed, seed));
  }
}
