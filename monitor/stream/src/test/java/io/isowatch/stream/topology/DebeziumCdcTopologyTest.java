package io.isowatch.stream.topology;

import static io.isowatch.stream.topology.CdcEvents.DATA;
import static io.isowatch.stream.topology.CdcEvents.METADATA;
import static io.isowatch.stream.topology.CdcEvents.begin;
import static io.isowatch.stream.topology.CdcEvents.change;
import static io.isowatch.stream.topology.CdcEvents.end;
import static io.isowatch.stream.topology.CdcEvents.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.EventTimes;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.serde.RecordSerde;
import io.isowatch.stream.config.DebeziumCdc;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
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
 * {@code monitor --input debezium-cdc} in a {@link TopologyTestDriver}: Debezium's change events of
 * the list-append table and its transaction-metadata records become whole database transactions in
 * commit order, converted as {@code capture --cdc} converts them (baselines included); what carries
 * none is counted; a change the conversion cannot use goes to the DLQ with its reason; a write cycle
 * the log shows is published.
 */
class DebeziumCdcTopologyTest {
  private static final String APP = "cdc-test";
  private static final String HISTORY = "isowatch_cdc";
  private static final MonitorConfig CONFIG = MonitorConfig.defaults()
      .withTopics(DATA, MonitorConfig.VIOLATIONS, MonitorConfig.DLQ).withCdc(DebeziumCdc.forDataTopic(DATA));
  private static final long T0 = 1_700_000_000_000_000L;

  @TempDir
  Path stateDir;

  private TopologyTestDriver driver(MonitorMetrics metrics) {
    Properties p = MonitorTopology.streamsProperties(APP, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    return new TopologyTestDriver(MonitorTopology.build(CONFIG, metrics), p);
  }

  private static void pipe(TestInputTopic<String, byte[]> in, String value, long micros) {
    in.pipeInput("{\"k\":\"?\"}", value.getBytes(StandardCharsets.UTF_8), micros / 1000);
  }

  private static List<KeyValue<String, SpecificRecord>> read(TopologyTestDriver d, String topic) {
    return d.createOutputTopic(topic, new StringDeserializer(), new RecordSerde().deserializer()).readKeyValuesToList();
  }

  private static Transaction captured(long xid, long lsn, long micros, Operation... ops) {
    Instant t = EventTimes.instant(micros);
    return new Transaction(HISTORY, "cdc-" + xid, "cdc-" + xid, 0L, TxnStatus.COMMITTED, List.of(ops), t, t,
        new Source(Long.toString(xid), lsn, null));
  }

  private static Operation append(String key, long e) {
    return new Operation(OpKind.APPEND, key, e);
  }

  private static Operation read(String key, Long... list) {
    return new Operation(OpKind.READ, key, List.of(list));
  }

  /** @return anomaly, level, the witness's transactions and edges */
  private static String describe(Violation v) {
    return v.getAnomaly() + " " + v.getLevel() + " " + v.getWitness().getTransactions().stream().map(w -> w.getTxnId())
        .sorted().toList() + " " + v.getWitness().getEdges().stream().map(e -> e.getType() + " " + e.getKey())
        .sorted().toList();
  }

  @Test
  void transactionsGoInWholeInCommitOrderWithBaselinesAndBadRowsAreDeadLetters() {
    MonitorMetrics metrics = MonitorMetrics.inMemory();
    String delete = change("isowatch_list_append", "d", 903, 1030, "x", ",5,1,3", null, T0 + 3000);
    try (TopologyTestDriver d = driver(metrics)) {
      TestInputTopic<String, byte[]> data = d.createInputTopic(DATA, new StringSerializer(), new ByteArraySerializer());
      TestInputTopic<String, byte[]> meta =
          d.createInputTopic(METADATA, new StringSerializer(), new ByteArraySerializer());
      pipe(meta, begin(900, 1000), T0);
      pipe(data, update(900, 1000, "x", ",5", ",5,1", T0), T0);
      pipe(data, change("isowatch_list_append", "c", 900, 1001, "y", null, ",2", T0), T0);
      pipe(data, change("accounts", "c", 900, 1002, "a", null, ",0", T0), T0);
      pipe(meta, end(900, 1003, "public.isowatch_list_append", 2, "public.accounts", 1), T0);
      // the END first, then the change
      pipe(meta, end(901, 1011, "public.isowatch_list_append", 1), T0 + 1000);
      pipe(data, update(901, 1010, "x", ",5,1", ",5,1,3", T0 + 1000), T0 + 1000);
      // a change delivered twice
      pipe(data, update(902, 1020, "y", ",2", ",2,4", T0 + 2000), T0 + 2000);
      pipe(data, update(902, 1020, "y", ",2", ",2,4", T0 + 2000), T0 + 2000);
      pipe(meta, end(902, 1021, "public.isowatch_list_append", 1), T0 + 2000);
      pipe(data, delete, T0 + 3000);
      pipe(meta, end(903, 1031, "public.isowatch_list_append", 1), T0 + 3000);
      // no END: 904 is whole once a change of 905 arrives; 905 is not yet
      pipe(data, update(904, 1040, "x", ",5,1,3", ",5,1,3,6", T0 + 4000), T0 + 4000);
      pipe(data, update(905, 1050, "y", ",2,4", ",2,4,7", T0 + 5000), T0 + 5000);
      // 901's change again, without a place in the connector's order: known by its emitted id
      pipe(data, update(901, 1010, "x", ",5,1", ",5,1,3", T0 + 1000), T0 + 5000);

      Instant t0 = EventTimes.instant(T0);
      assertThat(read(d, APP + "-" + MonitorTopology.BY_HISTORY + "-repartition")).containsExactly(
          KeyValue.pair(HISTORY, new Transaction(HISTORY, "cdc-baseline-x", "cdc-baseline-x", 0L, TxnStatus.COMMITTED,
              List.of(append("x", 5)), t0, t0, null)),
          KeyValue.pair(HISTORY, captured(900, 1001, T0, append("x", 1), read("x", 5L, 1L), append("y", 2),
              read("y", 2L))),
          KeyValue.pair(HISTORY, captured(901, 1010, T0 + 1000, append("x", 3), read("x", 5L, 1L, 3L))),
          KeyValue.pair(HISTORY, captured(902, 1020, T0 + 2000, append("y", 4), read("y", 2L, 4L))),
          KeyValue.pair(HISTORY, captured(904, 1040, T0 + 4000, append("x", 6), read("x", 5L, 1L, 3L, 6L))));
      assertThat(read(d, MonitorConfig.DLQ)).containsExactly(KeyValue.pair("{\"k\":\"?\"}",
          new DeadLetter(ByteBuffer.wrap(delete.getBytes(StandardCharsets.UTF_8)), DATA, 0, 6L,
              "bad-row: database transaction 903, table public.isowatch_list_append: a delete (rows of a list-append"
                  + " table are never deleted) is not converted")));
      assertThat(read(d, MonitorConfig.VIOLATIONS)).isEmpty();
    }
    assertThat(SkippedEvents.byReason(metrics)).isEqualTo(Map.of("other-table", 1.0, "transaction-metadata", 1.0, "redelivered", 1.0));
    assertThat(metrics.registry().get("isowatch.input.duplicates").counter().count()).isEqualTo(1.0);
    assertThat(metrics.registry().get("isowatch.dlq.records").tag("reason", "bad-row").counter().count())
        .isEqualTo(1.0);
  }

  /**
   * The connector restarted from an older offset delivers again what it had delivered: a change of
   * a transaction already emitted (cdc-940), and the second half of one (cdc-941). By their place in
   * the connector's order ({@code source.sequence}) both are dropped and counted; cdc-942 follows.
   */
  @Test
  void changesDeliveredAgainAfterAConnectorRestartAreDroppedWholeOrInPart() {
    MonitorMetrics metrics = MonitorMetrics.inMemory();
    String table = "isowatch_list_append";
    try (TopologyTestDriver d = driver(metrics)) {
      TestInputTopic<String, byte[]> data = d.createInputTopic(DATA, new StringSerializer(), new ByteArraySerializer());
      TestInputTopic<String, byte[]> meta =
          d.createInputTopic(METADATA, new StringSerializer(), new ByteArraySerializer());
      String first = change(table, "c", 940, 900, 1000, "x", null, ",1", T0);
      pipe(data, first, T0);
      pipe(meta, end(940, 1001, "public.isowatch_list_append", 1), T0);
      String secondHalf = change(table, "c", 941, 1001, 1011, "y", null, ",7", T0 + 1000);
      pipe(data, change(table, "u", 941, 1001, 1010, "x", ",1", ",1,2", T0 + 1000), T0 + 1000);
      pipe(data, secondHalf, T0 + 1000);
      pipe(meta, end(941, 1012, "public.isowatch_list_append", 2), T0 + 1000);
      // the restart
      pipe(data, first, T0);
      pipe(data, secondHalf, T0 + 1000);
      pipe(meta, end(941, 1012, "public.isowatch_list_append", 2), T0 + 1000);
      pipe(data, change(table, "u", 942, 1012, 1020, "x", ",1,2", ",1,2,3", T0 + 2000), T0 + 2000);
      pipe(meta, end(942, 1021, "public.isowatch_list_append", 1), T0 + 2000);

      assertThat(read(d, APP + "-" + MonitorTopology.BY_HISTORY + "-repartition")).containsExactly(
          KeyValue.pair(HISTORY, captured(940, 1000, T0, append("x", 1), read("x", 1L))),
          KeyValue.pair(HISTORY, captured(941, 1011, T0 + 1000, append("x", 2), read("x", 1L, 2L), append("y", 7),
              read("y", 7L))),
          KeyValue.pair(HISTORY, captured(942, 1020, T0 + 2000, append("x", 3), read("x", 1L, 2L, 3L))));
      assertThat(read(d, MonitorConfig.DLQ)).isEmpty();
      assertThat(read(d, MonitorConfig.VIOLATIONS)).isEmpty();
    }
    assertThat(SkippedEvents.byReason(metrics)).isEqualTo(Map.of("redelivered", 2.0));
  }

  /**
   * Two database transactions each appending to x and y, whose lists put them in opposite orders: on
   * x 10 (cdc-931) before 20 (cdc-932), on y 20 before 10. No database that commits gives that; the
   * log shows it, and the monitor publishes the write cycle: Adya's G0, and the axiomatic read
   * committed check's commit-order cycle on the same two {@code ww} edges.
   */
  @Test
  void aWriteCycleInTheLogIsPublished() {
    try (TopologyTestDriver d = driver(MonitorMetrics.inMemory())) {
      TestInputTopic<String, byte[]> data = d.createInputTopic(DATA, new StringSerializer(), new ByteArraySerializer());
      TestInputTopic<String, byte[]> meta =
          d.createInputTopic(METADATA, new StringSerializer(), new ByteArraySerializer());
      pipe(data, change("isowatch_list_append", "c", 930, 1000, "x", null, ",1", T0), T0);
      pipe(data, change("isowatch_list_append", "c", 930, 1001, "y", null, ",2", T0), T0);
      pipe(meta, end(930, 1002, "public.isowatch_list_append", 2), T0);
      pipe(data, update(931, 1010, "x", ",1", ",1,10", T0 + 1000), T0 + 1000);
      pipe(data, update(931, 1011, "y", ",2,20", ",2,20,10", T0 + 1000), T0 + 1000);
      pipe(meta, end(931, 1012, "public.isowatch_list_append", 2), T0 + 1000);
      pipe(data, update(932, 1020, "x", ",1,10", ",1,10,20", T0 + 2000), T0 + 2000);
      pipe(data, update(932, 1021, "y", ",2", ",2,20", T0 + 2000), T0 + 2000);
      pipe(meta, end(932, 1022, "public.isowatch_list_append", 2), T0 + 2000);

      assertThat(read(d, MonitorConfig.VIOLATIONS)).extracting(kv -> kv.key + " " + describe((Violation) kv.value))
          .containsExactly("isowatch_cdc G0 READ_UNCOMMITTED [cdc-931, cdc-932] [WW x, WW y]",
              "isowatch_cdc commit-order-cycle READ_COMMITTED [cdc-931, cdc-932] [WW x, WW y]");
      assertThat(read(d, MonitorConfig.DLQ)).isEmpty();
    }
  }
}
