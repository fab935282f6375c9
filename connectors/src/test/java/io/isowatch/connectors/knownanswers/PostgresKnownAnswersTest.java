package io.isowatch.connectors.knownanswers;

import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The PostgreSQL rows of the known-answer table (issue 6), against a real server ({@link
 * PostgresServer}): the probe's list-append scenarios under contention, checked offline.
 */
@Timeout(120)
class PostgresKnownAnswersTest {
  @RegisterExtension
  static final PrivateServer<PostgresServer> SERVER = PrivateServer.of(PostgresServer::start);

  @Test
  void readCommittedShowsReadSkewAndNoG0OrG1() throws Exception {
    KnownAnswer row = KnownAnswer.PG_READ_COMMITTED;
    KnownAnswerAssert.holdsWithin(row, 5, 100, seed -> Measurement.run(row, SERVER.get().jdbcUrl(), "pgrc" + seed, seed));
  }

  @Test
  void repeatableReadShowsWriteSkewAndNothingSnapshotIsolationForbids() throws Exception {
    KnownAnswer row = KnownAnswer.PG_REPEATABLE_READ;
    KnownAnswerAssert.holdsWithin(row, 5, 200, seed -> Measurement.run(row, SERVER.get().jdbcUrl(), "pgrr" + seed, seed));
  }

  @Test
  void serializableShowsNothingAndAborts() throws Exception {
    KnownAnswer row = KnownAnswer.PG_SERIALIZABLE;
    KnownAnswerAssert.holdsWithin(row, 5, 300, seed -> Measurement.run(row, SERVER.get().jdbcUrl(), "pgser" + seed, seed));
  }
}
