package io.isowatch.connect.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.checker.level.Level;
import io.isowatch.connectors.debezium.outbox.OutboxSink;
import io.isowatch.connectors.probe.Dialect;
import io.isowatch.schemas.debezium.ListValues;
import io.isowatch.connectors.probe.PostgresDialect;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka Connect path end to end, all parts real and in process: an application's write skews
 * at PostgreSQL REPEATABLE READ, each transaction's record written with {@link OutboxSink} inside
 * the database transaction it describes; a standalone Connect worker running the Debezium
 * PostgreSQL connector with {@link OutboxTransactionRouter}, configured from {@code
 * deploy/connect/isowatch-outbox-connector.json} through the REST API; the in-process broker; the
 * monitor expecting serializable, which reports each write skew as G2-item. The first worker
 * publishes round 0 and stops without committing its offsets (they cannot be stored, as after a
 * crash), so the second one publishes round 0 again, with round 1 committed while no worker ran
 * and the outbox pruned in between, then round 2. Part or all of round 0 is on the events topic
 * twice; the monitor publishes each of the three violations once, with distinct ids.
 *
 * <p>The records are built here, as in the app's {@code OutboxEndToEndTest}: the monitor decides
 * serializable for list-append histories, which the recorder's API does not record yet.
 */
@ExtendWith(KafkaBroker.class)
@Timeout(240)
class ConnectOutboxEndToEndTest {
  private static final int ROUNDS = 3;
  private static final String CONNECTOR = "isowatch-outbox";
  private static final String SLOT = "connect_outbox";
  private static final List<String> ROUND_1 = List.of("e2e/s1/0", "e2e/s2/0", "e2e/s1/1", "e2e/s2/1");
  private static final List<String> ROUND_2 = List.of("e2e/s1/0", "e2e/s2/0", "e2e/s1/1", "e2e/s2/1",
      "e2e/s1/2", "e2e/s2/2");

  @RegisterExtension
  static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);

  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    try (Connection c = POSTGRES.get().connect(); Statement s = c.createStatement()) {
      OutboxSink.createTable(c);
      s.execute(new PostgresDialect().createListTableSql());
      for (int r = 0; r < ROUNDS; r++) {
        s.execute("INSERT INTO " + Dialect.LIST_TABLE + " (k, v) VALUES ('x" + r + "', ''), ('y" + r + "', '')");
      }
    }
  }

  @Test
  void writeSkewsReachTheMonitorThroughConnectAndAreReportedOnceWhenAWorkerLosesItsOffsets() throws Exception {
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics("connect-outbox.events", "connect-outbox.violations", "connect-outbox.dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
    Topics.create(KafkaBroker.broker().admin(), Topics.of(config), Optional.of(2), Optional.of((short) 1),
        Optional.empty());
    Properties state = new Properties();
    state.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state").toString());
    Map<String, String> connector = connectorConfig(config.eventsTopic());
    Path offsets = tmp.resolve("connect.offsets");

    try (MonitorApp app = MonitorApp.start(config, MonitorMetrics.inMemory(),
            MonitorApp.properties("connect-outbox-app", KafkaBroker.bootstrapServers(), state), s -> { });
        Connection c1 = POSTGRES.get().connect(); Connection c2 = POSTGRES.get().connect()) {
      for (Connection c : List.of(c1, c2)) {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      }
      OutboxSink outbox = new OutboxSink(Map.of("s1", c1, "s2", c2)::get);

      try (ConnectWorker worker = ConnectWorker.start(KafkaBroker.bootstrapServers(), offsets)) {
        worker.putConnector(CONNECTOR, connector);
        waiting(90).until(ConnectOutboxEndToEndTest::slotActive);
        // From now on this worker cannot store offsets (the file's place is taken by a directory
        // that is not empty): it stops as a crashed worker would, its records published, no offset
        // committed, and Debezium's slot not advanced past them.
        Files.writeString(Files.createDirectories(offsets).resolve("blocks-the-offsets-file"), "");
        writeSkew(outbox, c1, c2, 0);
        waiting(60).until(() -> txnIds(config), ids -> ids.size() == 2);
        assertThat(worker.taskState(CONNECTOR)).isEqualTo("RUNNING");
      }
      assertThat(Files.isDirectory(offsets)).isTrue();
      Files.delete(offsets.resolve("blocks-the-offsets-file"));
      Files.delete(offsets);
      writeSkew(outbox, c1, c2, 1); // committed while no worker runs
      prune(c1); // deletes and updates of outbox rows are dropped by the transform
      try (ConnectWorker worker = ConnectWorker.start(KafkaBroker.bootstrapServers(), offsets)) {
        worker.putConnector(CONNECTOR, connector);
        waiting(90).until(() -> txnIds(config), ids -> ids.containsAll(ROUND_1));
        writeSkew(outbox, c1, c2, 2);
        waiting(60).until(() -> txnIds(config), ids -> ids.containsAll(ROUND_2));
        assertThat(worker.taskState(CONNECTOR)).isEqualTo("RUNNING");
      }
      waiting(120).until(() -> violations(config).size() >= ROUNDS);
      // nothing more arrives: no violation twice, though part of round 0 was published twice
      waiting(10).during(Duration.ofSeconds(3))
          .until(() -> violations(config).size() == ROUNDS);
    }
    // Round 0 once or twice (what Debezium re-reads depends on the LSN it had confirmed to the
    // slot), every other transaction exactly once.
    List<String> ids = txnIds(config);
    List<String> again = new ArrayList<>(ids);
    for (String id : List.of("e2e/s1/0", "e2e/s2/0", "e2e/s1/1", "e2e/s2/1", "e2e/s1/2", "e2e/s2/2")) {
      assertThat(again.remove(id)).as(id).isTrue();
    }
    assertThat(again).isSubsetOf("e2e/s1/0", "e2e/s2/0").doesNotHaveDuplicates();
    assertThat(events(config)).allSatisfy(r -> assertThat(r.key())
        .isEqualTo(((Transaction) r.value()).getTxnId().substring(0, 6)));
    assertThat(events(config)).allSatisfy(r -> {
      Transaction t = (Transaction) r.value();
      assertThat(t.getSource().getDbTxnId()).isNotBlank();
      assertThat(t.getSource().getLsn()).isPositive();
    });
    List<Violation> found = violations(config);
    assertThat(found).extracting(ConnectOutboxEndToEndTest::describe).containsExactlyInAnyOrder(
        "G2-item [e2e/s1/0, e2e/s2/0]", "G2-item [e2e/s1/1, e2e/s2/1]", "G2-item [e2e/s1/2, e2e/s2/2]");
    assertThat(found).extracting(Violation::getViolationId).doesNotHaveDuplicates();
    assertThat(TopicRecords.readAll(KafkaBroker.bootstrapServers(), config.dlqTopic())).isEmpty();
  }

  /**
   * Awaitility polling every 500 ms: each poll of a topic starts a consumer, and faster polling
   * only takes CPU from the worker, the connector and the monitor on a shared machine.
   */
  private static ConditionFactory waiting(int seconds) {
    return await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(500));
  }

  /** The deployable example configuration, pointed at the private server, slot and topics of this test. */
  private static Map<String, String> connectorConfig(String eventsTopic) throws Exception {
    Path example = Path.of(System.getProperty("user.dir")).resolve("../deploy/connect/isowatch-outbox-connector.json");
    Map<String, Object> file = new ObjectMapper().readValue(Files.readString(example), new TypeReference<>() { });
    @SuppressWarnings("unchecked")
    Map<String, String> config = new HashMap<>((Map<String, String>) file.get("config"));
    Properties url = org.postgresql.Driver.parseURL(POSTGRES.get().jdbcUrl(), null);
    config.put("database.hostname", url.getProperty("PGHOST"));
    config.put("database.port", url.getProperty("PGPORT"));
    config.put("database.dbname", url.getProperty("PGDBNAME"));
    config.put("database.user", url.getProperty("user"));
    config.put("database.password", "");
    config.put("slot.name", SLOT);
    config.put("publication.name", SLOT);
    config.put("transforms.isowatch.events.topic", eventsTopic);
    return config;
  }

  /**
   * One write skew: both sessions read x and y, s1 appends to x, s2 to y, both commit; each
   * record goes into the outbox inside its transaction.
   */
  private static void writeSkew(OutboxSink outbox, Connection c1, Connection c2, int r) throws Exception {
    String x = "x" + r;
    String y = "y" + r;
    List<Operation> ops1 = new ArrayList<>();
    List<Operation> ops2 = new ArrayList<>();
    Instant begin = Instant.now();
    ops1.add(read(c1, x));
    ops1.add(read(c1, y));
    ops2.add(read(c2, x));
    ops2.add(read(c2, y));
    ops1.add(append(c1, x, 10L * r + 1));
    ops2.add(append(c2, y, 10L * r + 2));
    outbox.accept(committed("s1", r, ops1, begin));
    c1.commit();
    outbox.accept(committed("s2", r, ops2, begin));
    c2.commit();
  }

  /** Deletes the oldest outbox row and updates another, as a pruning job would. */
  private static void prune(Connection c) throws Exception {
    try (Statement s = c.createStatement()) {
      assertThat(s.executeUpdate("DELETE FROM " + OutboxSink.TABLE + " WHERE id = (SELECT min(id) FROM "
          + OutboxSink.TABLE + ")")).isEqualTo(1);
      assertThat(s.executeUpdate("UPDATE " + OutboxSink.TABLE + " SET txn_id = txn_id WHERE id = (SELECT max(id) FROM "
          + OutboxSink.TABLE + ")")).isEqualTo(1);
    }
    c.commit();
  }

  private static Operation read(Connection c, String key) throws Exception {
    try (PreparedStatement read = c.prepareStatement(new PostgresDialect().readSql(Dialect.LIST_TABLE))) {
      read.setString(1, key);
      try (ResultSet rs = read.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return new Operation(OpKind.READ, key, ListValues.parse(rs.getString(1)));
      }
    }
  }

  private static Operation append(Connection c, String key, long element) throws Exception {
    try (PreparedStatement append = c.prepareStatement(new PostgresDialect().appendSql())) {
      append.setString(1, Long.toString(element));
      append.setString(2, key);
      assertThat(append.executeUpdate()).isEqualTo(1);
    }
    return new Operation(OpKind.APPEND, key, element);
  }

  private static Transaction committed(String session, int seq, List<Operation> ops, Instant begin) {
    return new Transaction("e2e", session, "e2e/" + session + "/" + seq, (long) seq, TxnStatus.COMMITTED,
        ops, begin, Instant.now(), null);
  }

  private static boolean slotActive() throws Exception {
    try (Connection c = POSTGRES.get().connect();
        PreparedStatement s = c.prepareStatement("SELECT active FROM pg_replication_slots WHERE slot_name = ?")) {
      s.setString(1, SLOT);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    }
  }

  private static List<TopicRecords.Read> events(MonitorConfig config) {
    return TopicRecords.readAll(KafkaBroker.bootstrapServers(), config.eventsTopic());
  }

  /** @return the events topic's transaction ids, in the order read (partition by partition) */
  private static List<String> txnIds(MonitorConfig config) {
    return events(config).stream().map(r -> ((Transaction) r.value()).getTxnId()).toList();
  }

  private static List<Violation> violations(MonitorConfig config) {
    return TopicRecords.readAll(KafkaBroker.bootstrapServers(), config.violationsTopic()).stream()
        .map(r -> (Violation) r.value()).toList();
  }

  /** @return e.g. {@code G2-item [e2e/s1/0, e2e/s2/0]}, after checking the witness is the two rw edges */
  private static String describe(Violation v) {
    String first = v.getWitness().getEdges().get(0).getFromTxnId();
    String round = first.substring(first.lastIndexOf('/') + 1);
    assertThat(v.getWitness().getEdges()).extracting(e -> e.getType().name() + " " + e.getKey())
        .containsExactlyInAnyOrder("RW x" + round, "RW y" + round);
    return v.getAnomaly() + " " + v.getWitness().getEdges().stream().map(WitnessEdge::getFromTxnId)
        .sorted().distinct().toList();
  }
}
