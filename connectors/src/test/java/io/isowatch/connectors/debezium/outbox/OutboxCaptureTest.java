package io.isowatch.connectors.debezium.outbox;

import io.isowatch.connectors.privacy.Privacy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.connectors.debezium.engine.CaptureConfig;
import io.isowatch.connectors.debezium.engine.ChangeStream;
import io.isowatch.connectors.recorder.SessionRecorder;
import io.isowatch.connectors.recorder.TransactionRecorder;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outbox path against a private PostgreSQL: recorder with {@link OutboxSink}, Debezium engine
 * with {@link OutboxRelay}. Exactly the transactions whose database transaction committed come out,
 * once each, in commit order; a restart resumes from the offsets file.
 */
@Timeout(180)
class OutboxCaptureTest {
  @RegisterExtension
  static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);

  @BeforeAll
  static void start() throws SQLException {
    try (Connection c = POSTGRES.get().connect()) {
      OutboxSink.createTable(c);
    }
  }

  @Test
  void deliversExactlyTheCommittedTransactionsInCommitOrderAndResumesAfterRestart(@TempDir Path dir)
      throws Exception {
    CaptureConfig config = new CaptureConfig(POSTGRES.get().jdbcUrl(), "isowatch-outbox", "isowatch_outbox",
        "isowatch_outbox", List.of("public." + OutboxSink.TABLE), dir.resolve("offsets.dat"), false);
    List<Transaction> out = Collections.synchronizedList(new ArrayList<>());
    List<String> rejected = Collections.synchronizedList(new ArrayList<>());
    try (Connection c1 = POSTGRES.get().connect(); Connection c2 = POSTGRES.get().connect()) {
      c1.setAutoCommit(false);
      c2.setAutoCommit(false);
      Map<String, Connection> conns = Map.of("s1", c1, "s2", c2);
      TransactionRecorder recorder = new TransactionRecorder("pg", new OutboxSink(conns::get), Privacy.plaintext());

      try (ChangeStream stream = ChangeStream.start(config, new OutboxRelay(out::add, (r, v) -> rejected.add(r)))) {
        await().atMost(Duration.ofSeconds(60)).until(config::slotActive);

        SessionRecorder s1 = recorder.begin("s1");
        SessionRecorder s2 = recorder.begin("s2");
        s1.write("x", 1);
        s2.write("y", 2);
        s2.commit();
        c2.commit(); // pg/s2/0 commits first
        s1.commit();
        c1.commit(); // then pg/s1/0

        s2 = recorder.begin("s2");
        s2.write("y", 3);
        s2.commit();
        c2.rollback(); // the database rolled back after the record was written: pg/s2/1 never appears

        s1 = recorder.begin("s1");
        s1.write("x", 4);
        c1.rollback();
        s1.abort(); // an abort the application saw: pg/s1/1 appears as ABORTED

        s2 = recorder.begin("s2");
        s2.read("x", 1);
        s2.commit();
        c2.commit(); // pg/s2/2

        await().atMost(Duration.ofSeconds(60)).until(() -> out.size() >= 4);
      }
      assertThat(ids(out)).containsExactly("pg/s2/0", "pg/s1/0", "pg/s1/1", "pg/s2/2");
      assertThat(out).extracting(Transaction::getStatus)
          .containsExactly(TxnStatus.COMMITTED, TxnStatus.COMMITTED, TxnStatus.ABORTED, TxnStatus.COMMITTED);
      assertLsnIncreasing(out);
      assertThat(rejected).isEmpty();

      // While the relay is down, two more transactions commit; the restarted relay delivers exactly them.
      for (long v = 5; v <= 6; v++) {
        SessionRecorder s = recorder.begin("s1");
        s.write("x", v);
        s.commit();
        c1.commit();
      }
      List<Transaction> again = Collections.synchronizedList(new ArrayList<>());
      try (ChangeStream stream = ChangeStream.start(config, new OutboxRelay(again::add, (r, v) -> rejected.add(r)))) {
        await().atMost(Duration.ofSeconds(60)).until(() -> again.size() >= 2);
        SessionRecorder s = recorder.begin("s2");
        s.write("y", 7);
        s.commit();
        c2.commit();
        await().atMost(Duration.ofSeconds(60)).until(() -> again.size() >= 3);
      }
      assertThat(ids(again)).containsExactly("pg/s1/2", "pg/s1/3", "pg/s2/3");
      assertThat(again.get(0).getOps().get(0).getValue()).isEqualTo(5L);
      assertLsnIncreasing(again);
      assertThat(rejected).isEmpty();
    }
  }

  private static List<String> ids(List<Transaction> txns) {
    return txns.stream().map(Transaction::getTxnId).toList();
  }

  private static void assertLsnIncreasing(List<Transaction> txns) {
    for (int i = 1; i < txns.size(); i++) {
      assertThat(txns.get(i).getSource().getLsn()).isGreaterThan(txns.get(i - 1).getSource().getLsn());
      assertThat(txns.get(i).getSource().getDbTxnId()).isNotEqualTo(txns.get(i - 1).getSource().getDbTxnId());
    }
  }
}
