package io.isowatch.stream.topology;

import static io.isowatch.stream.topology.OutboxEvents.change;
import static io.isowatch.stream.topology.OutboxEvents.insert;
import static io.isowatch.stream.topology.OutboxEvents.txn;
import static io.isowatch.stream.topology.OutboxEvents.withSchema;
import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.debezium.OutboxRows;
import io.isowatch.schemas.serde.RecordSerde;
import io.isowatch.stream.config.EventsInput;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code monitor --input debezium-outbox} in a {@link TopologyTestDriver}: change events of the
 * recorder's outbox table, as Kafka Connect's {@code JsonConverter} writes them with and without
 * schemas, become the transactions they carry; what carries none is counted; what is malformed goes
 * to the DLQ with its reason; a list-append write skew recorded through the outbox is published as
 * G2-item.
 */
class DebeziumOutboxTopologyTest {
  private static final String APP = "debezium-test";
  private static final MonitorConfig CONFIG = MonitorConfig.defaults().withInput(EventsInput.DEBEZIUM_OUTBOX);

  @TempDir
  Path stateDir;

  private static Transaction withSource(Transaction t, long xid, long lsn) {
    Transaction copy = Transaction.newBuilder(t).build();
    copy.setSource(new Source(Long.toString(xid), lsn, null));
    return copy;
  }

  private TopologyTestDriver driver(MonitorMetrics metrics) {
    Properties p = MonitorTopology.streamsProperties(APP, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    return new TopologyTestDriver(MonitorTopology.build(CONFIG, metrics), p);
  }

  private static void pipe(TestInputTopic<String, byte[]> in, long id, String value, long ms) {
    in.pipeInput("{\"id\":" + id + "}", value == null ? null : value.getBytes(StandardCharsets.UTF_8), ms);
  }

  private static List<KeyValue<String, SpecificRecord>> read(TopologyTestDriver d, String topic) {
    return d.createOutputTopic(topic, new StringDeserializer(), new RecordSerde().deserializer()).readKeyValuesToList();
  }

  @Test
  void insertsBecomeTheirTransactionsOthersAreCountedAndMalformedOnesAreDeadLetters() {
    MonitorMetrics metrics = MonitorMetrics.inMemory();
    Transaction t0 = txn("s1", 0, 10, new Operation(OpKind.APPEND, "x", 1L));
    Transaction t1 = txn("s1", 1, 20, new Operation(OpKind.READ, "x", List.of(1L)));
    String notJson = "{\"op\":";
    String noRecord = change("c", OutboxRows.TABLE, 902, 3000, "null");
    try (TopologyTestDriver d = driver(metrics)) {
      TestInputTopic<String, byte[]> events =
          d.createInputTopic(MonitorConfig.EVENTS, new StringSerializer(), new ByteArraySerializer());
      pipe(events, 1, insert(t0, 900, 1000), 10);
      pipe(events, 1, insert(t0, 900, 1000), 10);
      pipe(events, 2, withSchema(insert(t1, 901, 2000)), 20);
      pipe(events, 1, change("d", OutboxRows.TABLE, 903, 4000, "null"), 21);
      pipe(events, 1, null, 21);
      pipe(events, 2, change("u", OutboxRows.TABLE, 903, 4000, "null"), 21);
      pipe(events, 9, change("c", "accounts", 903, 4000, "null"), 21);
      pipe(events, 9, "{\"status\":\"END\",\"id\":\"903:4000\",\"event_count\":3}", 21);
      pipe(events, 3, notJson, 22);
      pipe(events, 3, noRecord, 22);

      assertThat(read(d, APP + "-" + MonitorTopology.BY_HISTORY + "-repartition")).containsExactly(
          KeyValue.pair("db", withSource(t0, 900, 1000)), KeyValue.pair("db", withSource(t1, 901, 2000)));
      assertThat(read(d, MonitorConfig.DLQ)).containsExactly(
          KeyValue.pair("{\"id\":3}", new DeadLetter(ByteBuffer.wrap(notJson.getBytes(StandardCharsets.UTF_8)),
              MonitorConfig.EVENTS, 0, 8L, "bad-envelope: not JSON: Unexpected end-of-input within/between Object entries")),
          KeyValue.pair("{\"id\":3}", new DeadLetter(ByteBuffer.wrap(noRecord.getBytes(StandardCharsets.UTF_8)),
              MonitorConfig.EVENTS, 0, 9L, "bad-row: outbox insert without a record column")));
      assertThat(read(d, MonitorConfig.VIOLATIONS)).isEmpty();
    }
    assertThat(SkippedEvents.byReason(metrics)).isEqualTo(Map.of(
        "delete", 1.0, "tombstone", 1.0, "update", 1.0, "other-table", 1.0, "transaction-metadata", 1.0));
    assertThat(metrics.registry().get("isowatch.input.duplicates").counter().count()).isEqualTo(1.0);
    assertThat(metrics.registry().get("isowatch.dlq.records").tag("reason", "bad-envelope").counter().count())
        .isEqualTo(1.0);
    assertThat(metrics.registry().get("isowatch.dlq.records").tag("reason", "bad-row").counter().count())
        .isEqualTo(1.0);
  }

  /**
   * The list write skew of {@link OutboxEvents#listWriteSkew}, as it reaches Kafka through the
   * outbox. Under snapshot isolation both writers commit; serializable forbids it: G2-item, an
   * anti-dependency each way.
   */
  @Test
  void aListWriteSkewThroughTheOutboxIsPublishedAsG2Item() {
    List<Transaction> skew = OutboxEvents.listWriteSkew();
    try (TopologyTestDriver d = driver(MonitorMetrics.inMemory())) {
      TestInputTopic<String, byte[]> events =
          d.createInputTopic(MonitorConfig.EVENTS, new StringSerializer(), new ByteArraySerializer());
      for (int i = 0; i < skew.size(); i++) {
        pipe(events, i + 1, insert(skew.get(i), 900 + i, 1000 * (i + 1)), 10 + i);
      }

      List<KeyValue<String, SpecificRecord>> violations = read(d, MonitorConfig.VIOLATIONS);
      assertThat(violations).extracting(kv -> kv.key).containsExactly("db");
      Violation v = (Violation) violations.get(0).value;
      assertThat(v.getAnomaly()).isEqualTo("G2-item");
      assertThat(v.getLevel()).isEqualTo(io.isowatch.schemas.Level.SERIALIZABLE);
      assertThat(v.getWitness().getTransactions()).extracting(w -> w.getTxnId())
          .containsExactlyInAnyOrder("db/s1/0", "db/s2/0");
      assertThat(read(d, MonitorConfig.DLQ)).isEmpty();
    }
  }
}
