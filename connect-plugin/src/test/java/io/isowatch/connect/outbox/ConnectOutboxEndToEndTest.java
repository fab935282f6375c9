package io.isowatch.connect.outbox;

import static io.isowatch.connect.worker.DebeziumPostgres.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.window.ViolationIds;
import io.isowatch.connect.worker.ConnectWorkerProcess;
import io.isowatch.connect.worker.DebeziumPostgres;
import io.isowatch.connect.worker.Plugins;
import io.isowatch.connectors.debezium.outbox.OutboxSink;
import io.isowatch.connectors.debezium.outbox.WriteSkewRound;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.Violation;
import io.isowatch.stream.app.ExactOutput;
import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka Connect path end to end, every part real: an application's write skews at PostgreSQL
 * REPEATABLE READ ({@link WriteSkewRound}), each transaction's record written with {@link
 * OutboxSink} inside the database transaction it describes; a standalone Connect worker in a child
 * JVM ({@link ConnectWorkerProcess}) loading the packaged plugin zip and Debezium's PostgreSQL
 * connector from {@code plugin.path}, configured from {@code
 * deploy/connect/isowatch-outbox-connector.json} through the REST API, its offsets in a file; the
 * in-process broker; the monitor, in process, expecting serializable, which reports each write skew
 * as G2-item.
 *
 * <p>The worker is killed with SIGKILL between the two commits of round 1, at a point made
 * deterministic: after round 0 its offsets are committed (a connector restart stops the task, which
 * commits), then round 1's first transaction commits, and once its record is on the events topic
 * the worker is killed; the second commits while no worker runs, the outbox is pruned (a delete and
 * an update, which the transform drops), and a new worker on the same offsets file resumes after
 * round 0: it publishes round 1's first record again, then the rest and round 2. The events topic
 * then holds exactly that one record twice, and the violations topic exactly the three G2-item
 * violations with the ids an uninterrupted run gives ({@link ViolationIds}, computed here from the
 * transactions), each once. Runs after {@code package}, which writes the zip (tag {@code
 * plugin-package}).
 *
 * <p>Written for a loaded machine: every wait is on a condition (the REST API, the replication
 * slot's owner, the offsets file, a topic's content) with minutes of patience, and one child JVM
 * runs at a time.
 */
@Tag("plugin-package")
@ExtendWith(KafkaBroker.class)
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class ConnectOutboxEndToEndTest {
  private static final int ROUNDS = 3;
  private static final String CONNECTOR = "isowatch-outbox";
  private static final String SLOT = "connect_outbox";
  private static final Duration PATIENCE = DebeziumPostgres.PATIENCE;

  @RegisterExtension
  static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path tmp; // the workers' logs stay after a failure

  @BeforeAll
  static void start() throws Exception {
    try (Connection c = POSTGRES.get().connect()) {
      OutboxSink.createTable(c);
      WriteSkewRound.createKeys(c, ROUNDS);
    }
  }

  @Test
  void writeSkewsReachTheMonitorThroughConnectOnceAcrossAWorkerKilledBetweenTwoCommits() throws Exception {
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics("connect-outbox.events", "connect-outbox.violations", "connect-outbox.dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
    Topics.create(KafkaBroker.broker().admin(), Topics.of(config), Optional.of(2), Optional.of((short) 1),
        Optional.empty());
    Properties state = new Properties();
    state.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state").toString());
    Properties clients = new Properties();
    clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    DebeziumPostgres debezium = new DebeziumPostgres(POSTGRES.get(), SLOT);
    Map<String, String> connector = debezium.connectorConfig("isowatch-outbox-connector.json");
    connector.put("transforms.isowatch.events.topic", config.eventsTopic());
    Path offsets = tmp.resolve("connect.offsets");
    Path plugins = Plugins.prepare(Files.createDirectories(tmp.resolve("plugins")));

    ConnectWorkerProcess worker = null;
    try (MonitorApp app = MonitorApp.start(config, MonitorMetrics.inMemory(),
            MonitorApp.properties("connect-outbox-app", KafkaBroker.bootstrapServers(), state), s -> { });
        Connection c1 = POSTGRES.get().connect(); Connection c2 = POSTGRES.get().connect()) {
      for (Connection c : List.of(c1, c2)) {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      }
      OutboxSink outbox = new OutboxSink(Map.of("s1", c1, "s2", c2)::get);

      worker = debezium.startStreaming(tmp, "worker-0", KafkaBroker.bootstrapServers(), plugins, offsets, CONNECTOR,
          connector);
      WriteSkewRound first = new WriteSkewRound(c1, c2, outbox, 0).run();
      first.commitFirst();
      first.commitSecond();
      awaitPublished(config, WriteSkewRound.txnIds(0));

      // The task stops, committing round 0's offsets to the file, and starts again on a new
      // replication connection.
      int before = debezium.slotPid();
      worker.restartConnector(CONNECTOR);
      waiting().until(() -> Files.exists(offsets) && Files.size(offsets) > 0);
      waiting().until(() -> debezium.slotActive() && debezium.slotPid() != before);
      assertThat(worker.taskState(CONNECTOR)).isEqualTo("RUNNING");

      // SIGKILL between the two commits of round 1, once the first one's record was published
      WriteSkewRound second = new WriteSkewRound(c1, c2, outbox, 1).run();
      second.commitFirst();
      awaitPublished(config, WriteSkewRound.txnIds(1).subList(0, 1));
      worker.kill();
      waiting().until(() -> !debezium.slotActive()); // PostgreSQL saw the connection go
      second.commitSecond(); // committed while no worker runs
      prune(c1);

      worker = debezium.startStreaming(tmp, "worker-1", KafkaBroker.bootstrapServers(), plugins, offsets, CONNECTOR,
          connector);
      awaitPublished(config, WriteSkewRound.txnIds(1));
      WriteSkewRound third = new WriteSkewRound(c1, c2, outbox, 2).run();
      third.commitFirst();
      third.commitSecond();
      awaitPublished(config, WriteSkewRound.txnIds(2));

      waiting().until(() -> ExactOutput.violations(clients, config.violationsTopic()).size() >= ROUNDS);
      List<Violation> got = ExactOutput.awaitSettled(clients, config.violationsTopic());
      Map<String, String> byId = new TreeMap<>();
      got.forEach(v -> byId.put(v.getViolationId(), describe(v)));
      Map<String, String> expected = new TreeMap<>();
      for (int r = 0; r < ROUNDS; r++) {
        List<String> txns = WriteSkewRound.txnIds(r);
        expected.put(ViolationIds.of(Anomaly.G2_ITEM, txns, null, Level.SERIALIZABLE),
            WriteSkewRound.HISTORY + " G2-item " + txns + " RW x" + r + ", RW y" + r);
      }
      assertThat(got).hasSize(ROUNDS);
      assertThat(byId).isEqualTo(expected);
      assertThat(worker.taskState(CONNECTOR)).isEqualTo("RUNNING");
      assertThat(worker.stop(PATIENCE)).as(worker.log().toString()).isEqualTo(143); // 128 + SIGTERM
    } finally {
      if (worker != null && worker.alive()) {
        worker.kill();
      }
    }

    // Exactly the record published after the last offset commit, round 1's first, twice: the same
    // record (the same commit, xid and LSN) both times. Keys are the sessions, so each session's
    // records stay in one partition, in order.
    List<TopicRecords.Read> events = TopicRecords.readAll(KafkaBroker.bootstrapServers(), config.eventsTopic());
    assertThat(events).allSatisfy(r -> assertThat(r.key())
        .isEqualTo(((Transaction) r.value()).getTxnId().substring(0, "e2e/s1".length())));
    List<Transaction> txns = events.stream().map(r -> (Transaction) r.value()).toList();
    assertThat(txns.stream().map(Transaction::getTxnId).sorted()).containsExactly(
        "e2e/s1/0", "e2e/s1/1", "e2e/s1/1", "e2e/s1/2", "e2e/s2/0", "e2e/s2/1", "e2e/s2/2");
    List<Transaction> twice = txns.stream().filter(t -> t.getTxnId().equals("e2e/s1/1")).toList();
    assertThat(twice.get(1)).isEqualTo(twice.get(0));
    assertThat(txns).allSatisfy(t -> {
      assertThat(t.getSource().getDbTxnId()).isNotBlank();
      assertThat(t.getSource().getLsn()).isPositive();
    });
    assertThat(TopicRecords.readAll(KafkaBroker.bootstrapServers(), config.dlqTopic())).isEmpty();
  }

  /** Deletes the oldest outbox row and updates another, as a pruning job would. */
  private static void prune(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      assertThat(s.executeUpdate("DELETE FROM " + OutboxSink.TABLE + " WHERE id = (SELECT min(id) FROM "
          + OutboxSink.TABLE + ")")).isEqualTo(1);
      assertThat(s.executeUpdate("UPDATE " + OutboxSink.TABLE + " SET txn_id = txn_id WHERE id = (SELECT max(id) FROM "
          + OutboxSink.TABLE + ")")).isEqualTo(1);
    }
    c.commit();
  }

  /** Waits until the events topic holds a record of each of {@code txnIds}. */
  private static void awaitPublished(MonitorConfig config, List<String> txnIds) {
    waiting().until(() -> TopicRecords.readAll(KafkaBroker.bootstrapServers(), config.eventsTopic()).stream()
        .map(r -> ((Transaction) r.value()).getTxnId()).toList().containsAll(txnIds));
  }

  /**
   * @return e.g. {@code e2e G2-item [e2e/s1/0, e2e/s2/0] RW x0, RW y0}: {@link ExactOutput#describe}
   *     and the witness's edges, sorted
   */
  private static String describe(Violation v) {
    return ExactOutput.describe(v) + " " + String.join(", ", v.getWitness().getEdges().stream()
        .map(e -> e.getType().name() + " " + e.getKey()).sorted().toList());
  }
}
