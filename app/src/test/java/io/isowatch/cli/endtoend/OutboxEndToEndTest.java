package io.isowatch.cli.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.level.Level;
import io.isowatch.connectors.debezium.engine.CaptureConfig;
import io.isowatch.connectors.debezium.engine.ChangeStream;
import io.isowatch.connectors.debezium.outbox.OutboxRelay;
import io.isowatch.connectors.debezium.outbox.OutboxSink;
import io.isowatch.connectors.debezium.outbox.WriteSkewRound;
import io.isowatch.connectors.kafka.KafkaTransactionSink;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through the outbox: an application's list-append transactions at PostgreSQL
 * REPEATABLE READ, each record written with {@link OutboxSink} into the database inside the
 * transaction it describes, captured by the embedded Debezium engine ({@link OutboxRelay}),
 * published to the events topic of a real broker, and checked by the monitor expecting
 * serializable, which reports each write skew as a G2-item violation ({@link WriteSkewRound}).
 */
@ExtendWith(KafkaBroker.class)
@Timeout(300)
class OutboxEndToEndTest {
  private static final int ROUNDS = 3;
  @RegisterExtension
  static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);

  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    try (Connection c = POSTGRES.get().connect()) {
      OutboxSink.createTable(c);
      WriteSkewRound.createKeys(c, ROUNDS);
    }
  }

  @Test
  void writeSkewsAtRepeatableReadArriveThroughDebeziumAsG2ItemViolations() throws Exception {
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics("e2e-outbox.events", "e2e-outbox.violations", "e2e-outbox.dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
    Topics.create(KafkaBroker.broker().admin(), Topics.of(config), Optional.of(2), Optional.of((short) 1),
        Optional.empty());
    Properties state = new Properties();
    state.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state").toString());
    CaptureConfig capture = new CaptureConfig(POSTGRES.get().jdbcUrl(), "e2e-outbox", "e2e_outbox", "e2e_outbox",
        List.of("public." + OutboxSink.TABLE), tmp.resolve("offsets.dat"), false);
    List<String> rejected = new ArrayList<>();

    try (MonitorApp app = MonitorApp.start(config, MonitorMetrics.inMemory(),
            MonitorApp.properties("e2e-outbox-app", KafkaBroker.bootstrapServers(), state), s -> { });
        KafkaTransactionSink events = new KafkaTransactionSink(KafkaBroker.bootstrapServers(), config.eventsTopic(), Map.of());
        ChangeStream stream = ChangeStream.start(capture, new OutboxRelay(events, (r, v) -> rejected.add(r)));
        Connection c1 = POSTGRES.get().connect(); Connection c2 = POSTGRES.get().connect()) {
      await().atMost(Duration.ofSeconds(60)).until(capture::slotActive);
      for (Connection c : List.of(c1, c2)) {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      }
      OutboxSink outbox = new OutboxSink(Map.of("s1", c1, "s2", c2)::get);
      for (int r = 0; r < ROUNDS; r++) {
        WriteSkewRound round = new WriteSkewRound(c1, c2, outbox, r).run();
        round.commitFirst();
        round.commitSecond(); // both commit: snapshot isolation allows write skew
      }
      await().atMost(Duration.ofSeconds(120)).until(() -> violations(config).size() >= ROUNDS);
    }
    assertThat(rejected).isEmpty();
    List<String> found = violations(config).stream().map(OutboxEndToEndTest::describe).sorted().toList();
    assertThat(found).containsExactly(
        "G2-item [e2e/s1/0, e2e/s2/0]", "G2-item [e2e/s1/1, e2e/s2/1]", "G2-item [e2e/s1/2, e2e/s2/2]");
  }

  private static List<Violation> violations(MonitorConfig config) {
    return TopicRecords.readAll(KafkaBroker.bootstrapServers(), config.violationsTopic()).stream()
        .map(r -> (Violation) r.value()).toList();
  }

  /**
   * @return e.g. {@code G2-item [e2e/s1/0, e2e/s2/0]}: the anomaly and its cycle's transactions,
   *     sorted, after checking that the witness is the write skew's two anti-dependencies
   */
  private static String describe(Violation v) {
    String first = v.getWitness().getEdges().get(0).getFromTxnId();
    String round = first.substring(first.lastIndexOf('/') + 1);
    assertThat(v.getWitness().getEdges()).extracting(e -> e.getType().name(), WitnessEdge::getKey)
        .containsExactlyInAnyOrder(tuple("RW", "x" + round), tuple("RW", "y" + round));
    return v.getAnomaly() + " " + v.getWitness().getEdges().stream().map(WitnessEdge::getFromTxnId)
        .sorted().distinct().toList();
  }
}
