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
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
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
        "commit.interval.ms", "100",
        "statestore.cache.max.bytes", Long.toString(64L << 20)));
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
              List.of(), List.of()),
          new Window(Instant.ofEpochMilli(12), Instant.ofEpochMilli(13), 2L),
          "T2 read x = 1 from T1, which aborted");
      assertThat(read(d, MonitorConfig.VIOLATIONS)).containsExactly(KeyValue.pair("db", g1a));
      assertThat(read(d, MonitorConfig.DLQ)).isEmpty();
    }
  }

  /**
   * Window eviction through the whole topology (whole Transaction records on the events topic, the
   * assembler, the repartition, the checker), with a window of W = 4 transactions: a generation
   * starts every 2 transactions and the third retires the oldest, so T5's arrival evicts T1 and T2
   * and T7's evicts T3 and T4. T6 reads x = 1, written only by T1, which aborted (G1a); T8 reads
   * w = 1, written only by T7, which aborted (G1a). With a window holding the whole history both are
   * published; with W = 4, T1 has left the window when T6 arrives, so T6's read enters as an unknown
   * read (T1's write is remembered among the evicted writes, so it is neither held nor reported as
   * unresolved): the G1a that reaches outside the window is hidden, never invented, and the one
   * inside it is published once, found first by the generation that starts at T5.
   */
  @Test
  void evictionHidesTheAnomalyThatReachesOutsideTheWindowAndPublishesTheOneInside() {
    List<Transaction> history = List.of(
        whole("s1", "T1", 0, 1, TxnStatus.ABORTED, new Operation(OpKind.WRITE, "x", 1L)),
        whole("s2", "T2", 0, 2, TxnStatus.COMMITTED, new Operation(OpKind.WRITE, "y", 1L)),
        whole("s3", "T3", 0, 3, TxnStatus.COMMITTED, new Operation(OpKind.WRITE, "z", 1L)),
        whole("s1", "T4", 1, 4, TxnStatus.COMMITTED, new Operation(OpKind.WRITE, "q", 1L)),
        whole("s2", "T5", 1, 5, TxnStatus.COMMITTED, new Operation(OpKind.WRITE, "q", 2L)),
        whole("s4", "T6", 0, 6, TxnStatus.COMMITTED, new Operation(OpKind.READ, "x", 1L)),
        whole("s5", "T7", 0, 7, TxnStatus.ABORTED, new Operation(OpKind.WRITE, "w", 1L)),
        whole("s6", "T8", 0, 8, TxnStatus.COMMITTED, new Operation(OpKind.READ, "w", 1L)));
    Violation t6ReadsT1 = g1a("6a552a73228acebf7001aec15e17ceb0", history.get(5), history.get(0), new Window(at(1), at(6), 6L),
        "T6 read x = 1 from T1, which aborted");
    Violation t8ReadsT7 = g1a("30ffb07760dc68f33ed69b8f7ec0177a", history.get(7), history.get(6), new Window(at(1), at(8), 8L),
        "T8 read w = 1 from T7, which aborted");
    Violation t8ReadsT7InWindow = g1a("30ffb07760dc68f33ed69b8f7ec0177a", history.get(7), history.get(6),
        new Window(at(5), at(8), 4L), "T8 read w = 1 from T7, which aborted");

    MonitorMetrics whole = MonitorMetrics.inMemory();
    Run wholeRun = run(CONFIG, whole, history);
    assertThat(wholeRun.violations()).containsExactly(KeyValue.pair("db", t6ReadsT1), KeyValue.pair("db", t8ReadsT7));
    assertThat(wholeRun.window()).isEqualTo(8.0);

    MonitorMetrics small = MonitorMetrics.inMemory();
    Run smallRun = run(CONFIG.withWindow(4, Duration.ZERO), small, history);
    assertThat(smallRun.violations()).containsExactly(KeyValue.pair("db", t8ReadsT7InWindow));
    assertThat(smallRun.window()).isEqualTo(4.0);
    assertThat(small.registry().get("isowatch.reads.unresolved").counter().count()).isEqualTo(0.0);
    assertThat(small.registry().get("isowatch.transactions.checked").counter().count()).isEqualTo(8.0);
  }

  /**
   * What a run published, and history {@code db}'s window gauge read before the topology closed
   * (closing it removes the gauge).
   */
  private record Run(List<KeyValue<String, SpecificRecord>> violations, double window) {}

  /** @return the violations published when {@code history} is piped, whole, into a fresh topology; asserts an empty DLQ */
  private Run run(MonitorConfig config, MonitorMetrics metrics, List<Transaction> history) {
    try (TopologyTestDriver d = driver(MonitorTopology.build(config, metrics))) {
      TestInputTopic<String, byte[]> events =
          d.createInputTopic(MonitorConfig.EVENTS, new StringSerializer(), new ByteArraySerializer());
      for (Transaction t : history) {
        events.pipeInput("db/" + t.getSessionId(), RecordCodec.encode(t), t.getEndTime().toEpochMilli());
      }
      assertThat(read(d, MonitorConfig.DLQ)).isEmpty();
      return new Run(read(d, MonitorConfig.VIOLATIONS),
          metrics.registry().get("isowatch.window.transactions").tag("history", "db").gauge().value());
    }
  }

  private static Instant at(long second) {
    return Instant.ofEpochSecond(second);
  }

  /** A transaction of history {@code db} ending at {@code second} s, beginning 1 ms before. */
  private static Transaction whole(String session, String id, long seq, long second, TxnStatus status, Operation op) {
    return new Transaction("db", session, id, seq, status, List.of(op), at(second).minusMillis(1), at(second), null);
  }

  /** The G1a of {@code reader} reading the aborted {@code writer}'s write, detected at the reader's end. */
  private static Violation g1a(String id, Transaction reader, Transaction writer, Window window, String summary) {
    return new Violation("db", id, reader.getEndTime(), io.isowatch.schemas.Level.READ_COMMITTED, "G1a",
        new Witness(List.of(
            new WitnessTransaction(reader.getTxnId(), reader.getSessionId(), TxnStatus.COMMITTED, reader.getOps()),
            new WitnessTransaction(writer.getTxnId(), writer.getSessionId(), TxnStatus.ABORTED, writer.getOps())),
            List.of(), List.of()),
        window, summary);
  }
}
