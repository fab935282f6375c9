package io.isowatch.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.schemas.Operation;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.RecordSerde;
import io.isowatch.stream.check.ViolationMerge;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The split topology ({@link MonitorConfig#splitLevels()}) in a {@link TopologyTestDriver}: its shape, and the merge. */
class SplitTopologyTest {
  private static final MonitorConfig SPLIT = MonitorConfig.defaults().withSplitLevels(true);

  @TempDir
  Path stateDir;

  @Test
  void everyFamilyHasASubTopologyWithItsOwnTopicAndStoresAndTheMergeOneMore() {
    TopologyDescription description = MonitorTopology.build(SPLIT, MonitorMetrics.inMemory()).describe();
    Set<String> stores = new TreeSet<>();
    Set<String> topics = new TreeSet<>();
    for (TopologyDescription.Subtopology sub : description.subtopologies()) {
      for (TopologyDescription.Node node : sub.nodes()) {
        if (node instanceof TopologyDescription.Processor p) {
          stores.addAll(p.stores());
        }
        if (node instanceof TopologyDescription.Source s) {
          topics.addAll(s.topicSet());
        }
      }
    }

    // assembler, the two families' checkers, the merge
    assertThat(description.subtopologies()).hasSize(4);
    assertThat(topics).containsExactlyInAnyOrder(MonitorConfig.EVENTS,
        "isowatch-transactions-by-history-axiomatic-repartition",
        "isowatch-transactions-by-history-adya-polygraph-repartition",
        "isowatch-found-axiomatic-repartition", "isowatch-found-adya-polygraph-repartition");
    for (String family : List.of("axiomatic", "adya-polygraph")) {
      for (String store : List.of("window", "held", "reported", "evicted", "last-writes", "lists", "meta", "sources")) {
        assertThat(stores).contains("isowatch-check-" + family + "-" + store);
      }
    }
    assertThat(stores).contains(ViolationMerge.PUBLISHED_STORE, ViolationMerge.PROGRESS_STORE)
        .doesNotContain("isowatch-check-window");
  }

  /**
   * T2 reads the list x = [1], whose only append T1 aborted: a G1a that both families find (the
   * axiomatic checks' read axioms and Adya's), with one id. With W = 4, the split topology publishes
   * exactly what the whole one publishes, the G1a once; the merge keeps its id until every family's
   * window starts more than W after T2 (feed position 1): after the ninth transaction (feed
   * position 8) the generations start at 6 and 8.
   */
  @Test
  void aViolationBothFamiliesFindIsPublishedOnceAndForgottenOnceEveryWindowPassedIt() {
    List<Transaction> history = new ArrayList<>();
    history.add(whole("s1", "T1", 1, TxnStatus.ABORTED, new Operation(OpKind.APPEND, "x", 1L)));
    history.add(whole("s2", "T2", 2, TxnStatus.COMMITTED, new Operation(OpKind.READ, "x", List.of(1L))));
    for (int i = 3; i <= 12; i++) {
      history.add(whole("s" + i, "T" + i, i, TxnStatus.COMMITTED, new Operation(OpKind.APPEND, "k" + i, 1L)));
    }
    MonitorConfig small = MonitorConfig.defaults().withWindow(4, Duration.ZERO);
    List<KeyValue<String, SpecificRecord>> whole = run(small, history, null);

    List<Integer> publishedIds = new ArrayList<>();
    List<KeyValue<String, SpecificRecord>> split = run(small.withSplitLevels(true), history, publishedIds);

    assertThat(whole).hasSize(1);
    assertThat(((Violation) whole.get(0).value).getAnomaly()).isEqualTo("G1a");
    assertThat(split).isEqualTo(whole);
    // ids kept by the merge after each transaction: T2's G1a from T2 on, forgotten at T9
    assertThat(publishedIds).containsExactly(0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0);
  }

  /**
   * @param kept if not null, receives the number of ids in the merge's store after each transaction
   * @return the violations published when {@code history} is piped, whole, into a fresh topology
   */
  private List<KeyValue<String, SpecificRecord>> run(MonitorConfig config, List<Transaction> history, List<Integer> kept) {
    Properties p = MonitorTopology.streamsProperties("split-test", "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve(config.splitLevels() ? "split" : "whole").toString());
    try (TopologyTestDriver d = new TopologyTestDriver(MonitorTopology.build(config, MonitorMetrics.inMemory()), p)) {
      TestInputTopic<String, byte[]> events =
          d.createInputTopic(MonitorConfig.EVENTS, new StringSerializer(), new ByteArraySerializer());
      for (Transaction t : history) {
        events.pipeInput("db/" + t.getSessionId(), RecordCodec.encode(t), t.getEndTime().toEpochMilli());
        if (kept != null) {
          KeyValueStore<Bytes, byte[]> published = d.getKeyValueStore(ViolationMerge.PUBLISHED_STORE);
          int n = 0;
          try (KeyValueIterator<Bytes, byte[]> it = published.all()) {
            for (; it.hasNext(); it.next()) {
              n++;
            }
          }
          kept.add(n);
        }
      }
      TestOutputTopic<String, SpecificRecord> dlq =
          d.createOutputTopic(MonitorConfig.DLQ, new StringDeserializer(), new RecordSerde().deserializer());
      assertThat(dlq.readKeyValuesToList()).isEmpty();
      return d.createOutputTopic(MonitorConfig.VIOLATIONS, new StringDeserializer(), new RecordSerde().deserializer())
          .readKeyValuesToList();
    }
  }

  /** A transaction of history {@code db} ending at {@code second} s, beginning 1 ms before. */
  private static Transaction whole(String session, String id, long second, TxnStatus status, Operation op) {
    Instant end = Instant.ofEpochSecond(second);
    return new Transaction("db", session, id, 0L, status, List.of(op), end.minusMillis(1), end, null);
  }
}
