package io.isowatch.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.Window;
import io.isowatch.schemas.Witness;
import io.isowatch.schemas.WitnessTransaction;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.RecordSerde;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole topology in a {@link TopologyTestDriver}: routing, names, Streams settings, events to a violation. */
class MonitorTopologyTest {
  private static final String APP = "monitor-test";
  private static final MonitorConfig CONFIG = MonitorConfig.defaults();

  @TempDir
  Path stateDir;

  private TopologyTestDriver driver(Topology topology) {
    Properties p = MonitorTopology.streamsProperties(APP, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    return new TopologyTestDriver(topology, p);
  }

  @Test
  void transactionsGoToTheRepartitionTopicByHistoryAndBadRecordsToTheDeadLetterTopic() {
    try (TopologyTestDriver d = driver(MonitorTopology.build(CONFIG, MonitorMetrics.inMemory()))) {
      TestInputTopic<String, byte[]> events =
          d.createInputTopic(MonitorConfig.EVENTS, new StringSerializer(), new ByteArraySerializer());
      TxnEvent write = new TxnEvent("db", "s1", "T1", 0L, 1, EventKind.WRITE, "x", 1L, Instant.ofEpochMilli(5), null);
      TxnEvent commit = new TxnEvent("db", "s1", "T1", 0L, 2, EventKind.COMMIT, null, null, Instant.ofEpochMilli(6), null);
      byte[] garbage = {1, 2, 3};
      events.pipeInput("db/s1", RecordCodec.encode(write), 5);
      events.pipeInput("db/s1", garbage, 5);
      events.pipeInput("db/s1", RecordCodec.encode(commit), 6);

      Transaction t1 = new Transaction("db", "s1", "T1", 0L, TxnStatus.COMMITTED,
          List.of(new Operation(OpKind.WRITE, "x", 1L)), Instant.ofEpochMilli(5), Instant.ofEpochMilli(6), null);
      assertThat(read(d, APP + "-" + MonitorTopology.BY_HISTORY + "-repartition"))
          .containsExactly(KeyValue.pair("db", t1));
      assertThat(read(d, MonitorConfig.DLQ)).containsExactly(KeyValue.pair("db/s1", new DeadLetter(
          ByteBuffer.wrap(garbage), MonitorConfig.EVENTS, 0, 1L,
          "truncated: truncated header: 3 bytes, a single-object header needs 10")));
      assertThat(read(d, MonitorConfig.VIOLATIONS)).isEmpty();
    }
  }

  @Test
  void everyNodeStoreAndTopicHasAFixedName() {
    TopologyDescription description = MonitorTopology.build(CONFIG, MonitorMetrics.inMemory()).describe();
    Set<String> nodes = new TreeSet<>();
    Set<String> stores = new TreeSet<>();
    for (TopologyDescription.Subtopology sub : description.subtopologies()) {
      for (TopologyDescription.Node node : sub.nodes()) {
        nodes.add(node.name());
        if (node instanceof TopologyDescription.Processor p) {
          stores.addAll(p.stores());
        }
      }
    }

    assertThat(description.subtopologies()).hasSize(2);
    assertThat(nodes).containsExactlyInAnyOrder(
        "isowatch-events", "isowatch-session-assembler", "isowatch-assembled-", "isowatch-assembled-dead-letters",
        "isowatch-assembled-transactions", "isowatch-assembler-dlq",
        "isowatch-transactions-by-history-repartition-filter", "isowatch-transactions-by-history-repartition-sink",
        "isowatch-transactions-by-history-repartition-source", "isowatch-checker", "isowatch-checked-",
        "isowatch-checked-violations", "isowatch-checked-dead-letters", "isowatch-violations", "isowatch-checker-dlq");
    assertThat(stores).containsAll(List.of("isowatch-assembler-sessions", "isowatch-assembler-transactions",
        "isowatch-assembler-events", "isowatch-assembler-assembled", "isowatch-assembler-deadlines"));
  }

  @Test
  void streamsPropertiesAreExactlyOnceWithOurSerdes() {
    Properties p = MonitorTopology.streamsProperties("isowatch", "k1:9092,k2:9092");

    assertThat(p).containsExactlyInAnyOrderEntriesOf(Map.of(
        "application.id", "isowatch",
        "bootstrap.servers", "k1:9092,k2:9092",
        "processing.guarantee", "exactly_once_v2",
        "default.key.serde", "org.apache.kafka.common.serialization.Serdes$StringSerde",
        "default.value.serde", RecordSerde.class.getName(),
        "commit.interval.ms", "100"));
  }

  private static List<KeyValue<String, SpecificRecord>> read(TopologyTestDriver d, String topic) {
    return d.createOutputTopic(topic, new StringDeserializer(), new RecordSerde().deserializer())
        .readKeyValuesToList().stream().collect(Collectors.toList());
  }

  @Test
  void anAbortedReadAssembledFromEventsIsPublishedAsAViolation() {
    try (TopologyTestDriver d = driver(MonitorTopology.build(CONFIG, MonitorMetrics.inMemory()))) {
      TestInputTopic<String, byte[]> events =
          d.createInputTopic(MonitorConfig.EVENTS, new StringSerializer(), new ByteArraySerializer());
      List<TxnEvent> history = List.of(
          new TxnEvent("db", "s1", "T1", 0L, 1, EventKind.WRITE, "x", 1L, Instant.ofEpochMilli(10), null),
          new TxnEvent("db", "s2", "T2", 0L, 1, EventKind.READ, "x", 1L, Instant.ofEpochMilli(11), null),
          new TxnEvent("db", "s1", "T1", 0L, 2, EventKind.ABORT, null, null, Instant.ofEpochMilli(12), null),
          new TxnEvent("db", "s2", "T2", 0L, 2, EventKind.COMMIT, null, null, Instant.ofEpochMilli(13), null));
      for (TxnEvent e : history) {
        events.pipeInput("db/" + e.getSessionId(), RecordCodec.encode(e), e.getTime().toEpochMilli());
      }

      // G1a: T2 commits having read x = 1, written only by T1, which aborted. The id is the
      // checker's stable id of this witness; times are the transactions' end times (ms).
      Violation g1a = new Violation("db", "e51fdfeda44ec6bc9e693c9c42fa2957", Instant.ofEpochMilli(13),
          io.isowatch.schemas.Level.READ_COMMITTED, "G1a",
          new Witness(List.of(
              new WitnessTransaction("T2", "s2", TxnStatus.COMMITTED, List.of(new Operation(OpKind.READ, "x", 1L))),
              new WitnessTransaction("T1", "s1", TxnStatus.ABORTED, List.of(new Operation(OpKind.WRITE, "x", 1L)))),
              List.of()),
          new Window(Instant.ofEpochMilli(12), Instant.ofEpochMilli(13), 2L),
          "T2 read x = 1 from T1, which aborted");
      assertThat(read(d, MonitorConfig.VIOLATIONS)).containsExactly(KeyValue.pair("db", g1a));
      assertThat(read(d, MonitorConfig.DLQ)).isEmpty();
    }
  }
}
