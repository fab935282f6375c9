package io.isowatch.connect.cdc;

import static io.isowatch.connect.worker.DebeziumPostgres.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.window.ViolationIds;
import io.isowatch.connect.worker.ConnectWorkerProcess;
import io.isowatch.connect.worker.DebeziumPostgres;
import io.isowatch.connect.worker.Plugins;
import io.isowatch.connectors.probe.Dialect;
import io.isowatch.connectors.probe.Probe;
import io.isowatch.connectors.probe.ProbeConfig;
import io.isowatch.connectors.probe.ProbeIsolation;
import io.isowatch.connectors.probe.ProbeWorkload;
import io.isowatch.connectors.probe.Scenario;
import io.isowatch.connectors.testdb.ListRows;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.debezium.EnvelopeException;
import io.isowatch.schemas.debezium.JsonEnvelopes;
import io.isowatch.schemas.debezium.ListValues;
import io.isowatch.schemas.debezium.RowChange;
import io.isowatch.stream.app.ExactOutput;
import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.config.DebeziumCdc;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
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
 * {@code monitor --input debezium-cdc} on the topics Debezium's own PostgreSQL connector writes in
 * Kafka Connect, every part real: a standalone worker in a child JVM ({@link ConnectWorkerProcess})
 * running the connector as {@code deploy/connect/isowatch-cdc-connector.json} configures it (the
 * probe's list table, {@code JsonConverter} without schemas, transaction metadata on, one partition
 * per topic), submitted through the REST API; a private PostgreSQL ({@code wal_level=logical}); the
 * in-process broker; the monitor in process, expecting serializable. No isowatch code runs in the
 * worker.
 *
 * <p>A consistent database first: one row held elements before the slot existed (its baseline),
 * and the probe runs list-append at REPEATABLE READ. The monitor checks exactly one transaction per
 * database transaction on the table's topic, plus the baseline, and publishes nothing: no violation,
 * no dead letter, no unresolved read. Then two lists are written directly in an order no PostgreSQL
 * gives (as in {@code CdcCaptureEndToEndTest}, through {@code capture --cdc}): the monitor publishes
 * exactly the violations that implies, with the ids of those two database transactions, as the
 * capture's path does.
 */
@Tag("plugin-package")
@ExtendWith(KafkaBroker.class)
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ConnectCdcEndToEndTest {
  private static final String CONNECTOR = "isowatch-cdc";
  private static final String SLOT = "connect_cdc";
  /** The connector's {@code topic.prefix}, which is also the history's id by default. */
  private static final String PREFIX = "connect_cdc";
  private static final String OLD_KEY = "older-than-the-slot";

  @RegisterExtension
  static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path tmp; // the worker's log stays after a failure

  @BeforeAll
  static void start() throws Exception {
    ListRows.prepareWithRow(POSTGRES.get(), OLD_KEY, ",1,2");
  }

  @Test
  void aConsistentDatabaseYieldsNothingAndListsWrittenOutOfOrderYieldTheirCycle() throws Exception {
    String data = PREFIX + ".public." + Dialect.LIST_TABLE;
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics(data, PREFIX + ".violations", PREFIX + ".dlq")
        .withExpectedLevel(Level.SERIALIZABLE)
        .withCdc(DebeziumCdc.forDataTopic(data));
    assertThat(config.cdcInput()).isEqualTo(new DebeziumCdc(PREFIX + ".transaction", Dialect.LIST_TABLE, PREFIX));
    Topics.create(KafkaBroker.broker().admin(), List.of(data, PREFIX + ".transaction"), Optional.of(1),
        Optional.of((short) 1), Optional.empty());
    Topics.create(KafkaBroker.broker().admin(), List.of(config.violationsTopic(), config.dlqTopic()), Optional.of(2),
        Optional.of((short) 1), Optional.empty());
    Properties state = new Properties();
    state.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state").toString());
    Properties clients = new Properties();
    clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    DebeziumPostgres debezium = new DebeziumPostgres(POSTGRES.get(), SLOT);
    Map<String, String> connector = debezium.connectorConfig("isowatch-cdc-connector.json");
    connector.put("topic.prefix", PREFIX);
    Path plugins = Plugins.prepare(Files.createDirectories(tmp.resolve("plugins")));
    MonitorMetrics metrics = MonitorMetrics.inMemory();

    ConnectWorkerProcess worker = null;
    try (MonitorApp app = MonitorApp.start(config, metrics,
        MonitorApp.properties("connect-cdc-app", KafkaBroker.bootstrapServers(), state), s -> { })) {
      worker = debezium.startStreaming(tmp, "worker-0", KafkaBroker.bootstrapServers(), plugins,
          tmp.resolve("connect.offsets"), CONNECTOR, connector);
      ListRows.append(POSTGRES.get(), OLD_KEY, 3);
      probe();
      // the last commit: once its change is on the topic, so is every earlier one (commit order)
      long last = ListRows.append(POSTGRES.get(), OLD_KEY, 4);
      waiting().until(() -> changes(data).stream().anyMatch(r -> r.txn().equals(Long.toString(last))));

      // one transaction per database transaction on the table's topic, and a baseline for each key
      // whose first change held elements already: OLD_KEY's
      List<RowChange> changes = changes(data);
      Set<String> txns = new LinkedHashSet<>();
      Set<String> keys = new HashSet<>();
      List<String> baselines = new ArrayList<>();
      for (RowChange r : changes) {
        txns.add(r.txn());
        String k = r.after().get("k").asText();
        if (keys.add(k) && r.before() != null && !ListValues.parse(r.before().get("v").asText()).isEmpty()) {
          baselines.add(k);
        }
      }
      assertThat(baselines).containsExactly(OLD_KEY);
      long expected = txns.size() + baselines.size();
      waiting().until(() -> checked(metrics) >= expected && gauge(metrics, "isowatch.window.held") == 0);
      assertThat(checked(metrics)).isEqualTo(expected);
      assertThat(ExactOutput.awaitSettled(clients, config.violationsTopic())).isEmpty();
      assertThat(counted(metrics, "isowatch.reads.unresolved")).isZero();
      assertThat(counted(metrics, "isowatch.dlq.records")).isZero();

      // lists written out of order: x is T1 then T2, y is T2 then T1
      try (Connection c = POSTGRES.get().connect(); Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO " + Dialect.LIST_TABLE + " (k, v) VALUES ('x', ''), ('y', '')");
      }
      long t1 = ListRows.set(POSTGRES.get(), Map.of("x", ",11", "y", ",21"), List.of("x", "y"));
      long t2 = ListRows.set(POSTGRES.get(), Map.of("y", ",22,21", "x", ",11,12"), List.of("y", "x"));
      waiting().until(() -> !ExactOutput.violations(clients, config.violationsTopic()).isEmpty());
      List<Violation> got = ExactOutput.awaitSettled(clients, config.violationsTopic());
      // as ExactOutput.describe lists them: sorted as text (cdc-1000 before cdc-999)
      List<String> cycle = Stream.of("cdc-" + t1, "cdc-" + t2).sorted().toList();
      assertThat(got.stream().map(ExactOutput::describe).sorted().toList()).containsExactly(
          PREFIX + " G0 " + cycle,
          PREFIX + " G1c " + cycle,
          PREFIX + " incompatible-order " + cycle,
          PREFIX + " internal [cdc-" + t2 + "]",
          PREFIX + " not-my-own-write " + cycle);
      Map<String, String> byId = new TreeMap<>();
      got.forEach(v -> byId.put(v.getViolationId(), ExactOutput.describe(v)));
      assertThat(byId).hasSize(5).containsEntry(
          ViolationIds.of(Anomaly.G0, cycle, null, Level.READ_UNCOMMITTED), PREFIX + " G0 " + cycle);
      assertThat(counted(metrics, "isowatch.dlq.records")).isZero();
      assertThat(worker.taskState(CONNECTOR)).isEqualTo("RUNNING");
      assertThat(worker.stop(DebeziumPostgres.PATIENCE)).as(worker.log().toString()).isEqualTo(143);
    } finally {
      if (worker != null && worker.alive()) {
        worker.kill();
      }
    }
  }

  /** Runs the probe: list-append at REPEATABLE READ, 4 sessions, 3 keys of 8 appends, 80 transactions. */
  private static void probe() throws Exception {
    ProbeConfig probe = new ProbeConfig(POSTGRES.get().jdbcUrl(), null, null, ProbeIsolation.REPEATABLE_READ,
        ProbeWorkload.LIST_APPEND, Scenario.RANDOM, 4, 3, 8, 80, null, "recorded", "r1", 11);
    assertThat(new Probe(probe, Dialect.forUrl(POSTGRES.get().jdbcUrl()), t -> { }).run().committed()).isPositive();
  }

  /** @return the row changes on the table's topic, in order (its one partition) */
  private static List<RowChange> changes(String topic) throws EnvelopeException {
    Properties p = new Properties();
    p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    List<RowChange> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      TopicPartition only = new TopicPartition(topic, 0);
      consumer.assign(List.of(only));
      consumer.seekToBeginning(List.of(only));
      long end = consumer.endOffsets(List.of(only)).get(only);
      while (consumer.position(only) < end) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofSeconds(1))) {
          Optional<?> e = JsonEnvelopes.parse(r.value() == null ? null : new String(r.value(), StandardCharsets.UTF_8));
          if (e.isPresent() && e.get() instanceof RowChange change) {
            out.add(change);
          }
        }
      }
    }
    return out;
  }

  private static double checked(MonitorMetrics metrics) {
    return counted(metrics, "isowatch.transactions.checked");
  }

  /** @return the sum of the counters named {@code name}, whatever their tags */
  private static double counted(MonitorMetrics metrics, String name) {
    return metrics.registry().find(name).counters().stream().mapToDouble(c -> c.count()).sum();
  }

  /** @return the sum of the gauges named {@code name} */
  private static double gauge(MonitorMetrics metrics, String name) {
    return metrics.registry().find(name).gauges().stream().mapToDouble(g -> g.value()).sum();
  }
}
