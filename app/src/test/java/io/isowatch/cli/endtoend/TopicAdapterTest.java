package io.isowatch.cli.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.connectors.debezium.adapter.TopicAdapter;
import io.isowatch.connectors.debezium.cdc.CapturedTransaction;
import io.isowatch.connectors.debezium.cdc.CommitCrossCheck;
import io.isowatch.connectors.debezium.cdc.CrossCheckReport;
import io.isowatch.connectors.debezium.cdc.ListAppendCapture;
import io.isowatch.connectors.debezium.engine.CaptureConfig;
import io.isowatch.connectors.debezium.engine.ChangeStream;
import io.isowatch.connectors.probe.Dialect;
import io.isowatch.schemas.debezium.ListValues;
import io.isowatch.connectors.probe.Probe;
import io.isowatch.connectors.probe.ProbeConfig;
import io.isowatch.connectors.probe.ProbeIsolation;
import io.isowatch.connectors.probe.ProbeWorkload;
import io.isowatch.connectors.probe.Scenario;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.stream.kafka.KafkaBroker;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debezium topic adapter ({@link TopicAdapter}) on a real broker, reading change events that
 * the embedded PostgreSQL engine wrote there in the JSON envelope with schemas, as Kafka Connect's
 * {@code JsonConverter} would: the probe's commits at REPEATABLE READ all come back grouped by xid
 * with no finding, and a second adapter of the same consumer group resumes where the first stopped.
 * It lives in the stream module because the in-process broker is here (connectors cannot depend on
 * this module).
 */
@ExtendWith(KafkaBroker.class)
@Timeout(300)
class TopicAdapterTest {
  private static final String PREFIX = "adapter-";
  @RegisterExtension
  static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);

  @BeforeAll
  static void start() throws Exception {
    try (Connection c = POSTGRES.get().connect()) {
      ListAppendCapture.prepare(c);
    }
  }

  @Test
  void turnsConnectorTopicsIntoTheProbesTransactionsAndResumesFromCommittedOffsets(@TempDir Path dir)
      throws Exception {
    CaptureConfig config = ListAppendCapture.config(POSTGRES.get().jdbcUrl(), dir.resolve("offsets.dat"), true);
    String rows = PREFIX + config.name() + ".public." + Dialect.LIST_TABLE;
    String txns = PREFIX + config.name() + ".transaction";
    KafkaBroker.broker().createTopic(rows, 1, Optional.empty());
    KafkaBroker.broker().createTopic(txns, 1, Optional.empty());
    List<Transaction> recorded = Collections.synchronizedList(new ArrayList<>());
    List<CapturedTransaction> first = new ArrayList<>();
    List<CapturedTransaction> second = new ArrayList<>();
    List<String> rejected = new ArrayList<>();

    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers()),
            new StringSerializer(), new StringSerializer());
        ChangeStream stream = ChangeStream.start(config, (dest, key, value) ->
            producer.send(new ProducerRecord<>(PREFIX + dest, key, value)).get())) {
      await().atMost(Duration.ofSeconds(60)).until(config::slotActive);

      runProbe("ta1", recorded);
      try (TopicAdapter adapter = adapter(first, rejected)) {
        pollUntilSentinel(adapter, first, "ta1");
      }
      runProbe("ta2", recorded);
      try (TopicAdapter adapter = adapter(second, rejected)) {
        pollUntilSentinel(adapter, second, "ta2");
      }
    }

    assertThat(rejected).isEmpty();
    List<String> firstIds = first.stream().map(CapturedTransaction::txn).toList();
    assertThat(second.stream().map(CapturedTransaction::txn)).doesNotContainAnyElementsOf(firstIds);
    List<CapturedTransaction> all = new ArrayList<>(first);
    all.addAll(second);
    CrossCheckReport report = CommitCrossCheck.check(List.copyOf(recorded), all, Dialect.LIST_TABLE);
    assertThat(report.findings()).isEmpty();
    assertThat(report.confirmed().stream().map(Transaction::getTxnId).sorted().toList())
        .isEqualTo(recorded.stream().filter(t -> t.getStatus() == TxnStatus.COMMITTED
            && t.getOps().stream().anyMatch(o -> o.getKind() == OpKind.APPEND)).map(Transaction::getTxnId).sorted().toList());
    Map<String, List<Long>> expected = finalLists();
    expected.put("ta1-sentinel", List.of());
    expected.put("ta2-sentinel", List.of());
    assertThat(report.versionOrder()).isEqualTo(expected);
  }

  private static TopicAdapter adapter(List<CapturedTransaction> out, List<String> rejected) {
    String rows = PREFIX + ListAppendCapture.NAME + ".public." + Dialect.LIST_TABLE;
    String txns = PREFIX + ListAppendCapture.NAME + ".transaction";
    return new TopicAdapter(KafkaBroker.bootstrapServers(), "adapter-test", List.of(rows, txns), Map.of(),
        out::add, (reason, value) -> rejected.add(reason));
  }

  /** Runs 80 probe transactions at REPEATABLE READ, then commits the run's sentinel row. */
  private static void runProbe(String tag, List<Transaction> recorded) throws Exception {
    ProbeConfig probe = new ProbeConfig(POSTGRES.get().jdbcUrl(), null, null, ProbeIsolation.REPEATABLE_READ,
        ProbeWorkload.LIST_APPEND, Scenario.RANDOM, 3, 3, 80, null, "adapter", tag, 5);
    assertThat(new Probe(probe, Dialect.forUrl(POSTGRES.get().jdbcUrl()), recorded::add).run().committed()).isEqualTo(80);
    try (Connection c = POSTGRES.get().connect(); Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO " + Dialect.LIST_TABLE + " (k, v) VALUES ('" + tag + "-sentinel', '')");
    }
  }

  /** Polls until the sentinel's transaction is whole: then every earlier commit has been read. */
  private static void pollUntilSentinel(TopicAdapter adapter, List<CapturedTransaction> out, String tag) {
    await().atMost(Duration.ofSeconds(90)).until(() -> {
      adapter.poll(Duration.ofMillis(200));
      return out.stream().flatMap(t -> t.changes().stream())
          .anyMatch(r -> (tag + "-sentinel").equals(r.after().path("k").asText()));
    });
    assertThat(adapter.pending()).isEmpty();
  }

  private static Map<String, List<Long>> finalLists() throws Exception {
    Map<String, List<Long>> lists = new HashMap<>();
    try (Connection c = POSTGRES.get().connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT k, v FROM " + Dialect.LIST_TABLE + " WHERE k LIKE 'ta_-k%'")) {
      while (rs.next()) {
        lists.put(rs.getString(1), ListValues.parse(rs.getString(2)));
      }
    }
    return lists;
  }
}
