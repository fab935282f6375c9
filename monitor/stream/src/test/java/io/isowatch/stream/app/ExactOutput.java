package io.isowatch.stream.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Edge;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.RecordSerde;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.replay.HistoryRecords;
import io.isowatch.stream.replay.Replayer;
import io.isowatch.stream.replay.WriteSkewWorkload;
import io.isowatch.stream.topology.MonitorTopology;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * Test fixture of the monitor's integration and fault tests: write-skew workloads with the
 * violations they must give, the output of an uninterrupted run, and the check that a violations
 * topic holds exactly that output, each violation once.
 *
 * <p>Two references back the check: the offline checker (Adya at serializable) on each history,
 * which must find exactly the injected write skews; and the uninterrupted run, the monitor's
 * topology in a {@link TopologyTestDriver} fed the same events, whose violation ids (content
 * hashes, see docs/monitoring.md) a faulty run on a real broker must reproduce exactly.
 */
public final class ExactOutput {
  /** The longest wait for the monitor to catch up. */
  public static final Duration PATIENCE = Duration.ofSeconds(120);

  private ExactOutput() {}

  /**
   * Events of several histories, and the violations they must give.
   *
   * @param events every history's events, interleaved so that each history's own order is kept
   * @param expected the offline checker's violations, {@link #describe}d
   */
  public record Workload(List<HistoryRecords.Keyed> events, Set<String> expected) {
    /** @return the events from {@code from} (inclusive) to {@code to} (exclusive) */
    public List<HistoryRecords.Keyed> slice(int from, int to) {
      return events.subList(from, to);
    }
  }

  /**
   * @param historyPrefix historyIds are {@code <prefix>0, <prefix>1, ...}
   * @param histories how many histories, at least 1
   * @param transactions about how many transactions each
   * @param seed the first history's seed; history {@code i} uses {@code seed + i}
   * @return the histories' events, taken round-robin, with txnIds {@code <historyId>/T<label>}, and
   *     their write skews
   * @throws IllegalStateException if the offline checker does not find exactly the injected skews
   */
  public static Workload writeSkews(String historyPrefix, int histories, int transactions, long seed) {
    List<List<HistoryRecords.Keyed>> perHistory = new ArrayList<>();
    Set<String> expected = new TreeSet<>();
    Instant start = Instant.now();
    for (int i = 0; i < histories; i++) {
      String historyId = historyPrefix + i;
      WriteSkewWorkload.Generated run = WriteSkewWorkload.generate(transactions, 8, 16, 80, seed + i);
      HistoryRecords records = new HistoryRecords(run.history(), historyId, start, Duration.ofMillis(1));
      Set<String> offline = new TreeSet<>();
      for (io.isowatch.checker.witness.Violation v
          : Checkers.adya(Level.SERIALIZABLE, true).check(run.history()).violations()) {
        offline.add(describe(historyId, v.anomaly().id(),
            v.witness().edges().stream().map(Edge::from).map(records::txnId).toList()));
      }
      Set<String> injected = run.skews().stream()
          .map(p -> describe(historyId, "G2-item", List.of(historyId + "/T" + p[0], historyId + "/T" + p[1])))
          .collect(Collectors.toCollection(TreeSet::new));
      if (!offline.equals(injected)) {
        throw new IllegalStateException("offline " + offline + " differs from injected " + injected);
      }
      expected.addAll(offline);
      List<HistoryRecords.Keyed> events = new ArrayList<>();
      records.forEachEvent(events::add); // txnIds are qualified by the history, so unique across them
      perHistory.add(events);
    }
    List<HistoryRecords.Keyed> merged = new ArrayList<>();
    for (int at = 0; merged.size() < perHistory.stream().mapToInt(List::size).sum(); at++) {
      for (List<HistoryRecords.Keyed> events : perHistory) {
        if (at < events.size()) {
          merged.add(events.get(at));
        }
      }
    }
    return new Workload(List.copyOf(merged), expected);
  }

  /** @return {@code h-1 G2-item [h-1/T12, h-1/T13]}: history, anomaly and the cycle's transactions, sorted */
  public static String describe(Violation v) {
    List<String> txns = v.getWitness().getEdges().isEmpty()
        ? v.getWitness().getTransactions().stream().map(t -> t.getTxnId()).toList()
        : v.getWitness().getEdges().stream().map(WitnessEdge::getFromTxnId).toList();
    return describe(v.getHistoryId(), v.getAnomaly(), txns);
  }

  private static String describe(String historyId, String anomaly, List<String> txns) {
    return historyId + " " + anomaly + " " + txns.stream().sorted().distinct().toList();
  }

  /**
   * The uninterrupted run: the monitor's topology in a {@link TopologyTestDriver}, fed {@code
   * events} in order.
   *
   * @param config the monitor's configuration (topics, level)
   * @param events the events
   * @param stateDir an empty directory for the driver's state stores
   * @return the published violations, id to {@link #describe}d form, sorted by id
   */
  public static Map<String, String> uninterrupted(MonitorConfig config, List<HistoryRecords.Keyed> events, Path stateDir) {
    Properties p = MonitorTopology.streamsProperties("uninterrupted", "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    Map<String, String> out = new TreeMap<>();
    try (TopologyTestDriver driver = new TopologyTestDriver(MonitorTopology.build(config, MonitorMetrics.inMemory()), p)) {
      TestInputTopic<String, byte[]> in =
          driver.createInputTopic(config.eventsTopic(), new StringSerializer(), new ByteArraySerializer());
      for (HistoryRecords.Keyed e : events) {
        in.pipeInput(e.key(), RecordCodec.encode(e.value()), eventTime(e.value()));
      }
      for (SpecificRecord r : driver.createOutputTopic(config.violationsTopic(), new StringDeserializer(),
          new RecordSerde().deserializer()).readValuesToList()) {
        Violation v = (Violation) r;
        if (out.put(v.getViolationId(), describe(v)) != null) {
          throw new IllegalStateException("the uninterrupted run published " + v.getViolationId() + " twice");
        }
      }
    }
    return out;
  }

  private static long eventTime(SpecificRecord r) {
    return ((TxnEvent) r).getTime().toEpochMilli();
  }

  /**
   * Publishes events with the project's {@link Replayer} (one request in flight per broker; its
   * constructor says why) and checks that all were acknowledged.
   *
   * @param clients client settings (bootstrap servers, security)
   * @param topic the events topic
   * @param events what to publish
   */
  public static void publish(Properties clients, String topic, List<HistoryRecords.Keyed> events) {
    try (Replayer replayer = new Replayer(clients, topic)) {
      assertThat(replayer.publish(events)).isEqualTo(events.size());
    }
  }

  /** @return every committed violation of the topic, in partition and offset order */
  public static List<Violation> violations(Properties clients, String topic) {
    List<Violation> out = new ArrayList<>();
    for (TopicRecords.Read r : TopicRecords.readAll(clients, topic)) {
      out.add((Violation) r.value());
    }
    return out;
  }

  /**
   * @return the sum over the partitions of {@code topic} of the offsets {@code group} committed
   *     (a partition without a commit counts 0)
   */
  public static long committed(Admin admin, String group, String topic) throws ExecutionException, InterruptedException {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
        .mapToLong(e -> e.getValue().offset()).sum();
  }

  /**
   * @return whether {@code group}'s committed offsets reached the end of every partition of {@code
   *     topic} that holds records (a partition nothing was written to needs no commit)
   */
  public static boolean consumed(Admin admin, String group, String topic) throws ExecutionException, InterruptedException {
    int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
    Map<TopicPartition, OffsetSpec> latest = Stream.iterate(0, p -> p + 1).limit(partitions)
        .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all().get();
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    return ends.entrySet().stream().allMatch(e -> e.getValue().offset() == 0
        || (offsets.get(e.getKey()) != null && offsets.get(e.getKey()).offset() >= e.getValue().offset()));
  }

  /**
   * Waits until {@code appId} consumed every event and the violations topic stops growing, then
   * checks that it holds exactly the violations of {@code expected}: the same ids, each once.
   *
   * @param admin a client of the cluster
   * @param clients client settings for reading the violations topic
   * @param config topics
   * @param appId the monitor's application id
   * @param expected the uninterrupted run's violations, id to described form
   */
  /**
   * Waits until a violations topic stops growing: the same number of committed violations over 3 s,
   * within 30 s.
   *
   * @return the topic's violations then
   */
  public static List<Violation> awaitSettled(Properties clients, String topic) {
    int[] last = {-1};
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(30)).until(() -> {
      int n = violations(clients, topic).size();
      boolean same = n == last[0];
      last[0] = n;
      return same;
    });
    return violations(clients, topic);
  }

  /**
   * Waits until the monitor {@code appId} consumed the events topic and its violations topic
   * settled, then asserts that it holds each violation once and exactly {@code expected}.
   *
   * @param expected violation id to {@link #describe}d form, from {@link #uninterrupted}
   */
  public static void awaitExactly(Admin admin, Properties clients, MonitorConfig config, String appId,
      Map<String, String> expected) {
    await().atMost(PATIENCE).until(() -> consumed(admin, appId, config.eventsTopic()));
    await().atMost(PATIENCE).until(() -> violations(clients, config.violationsTopic()).size() >= expected.size());
    List<Violation> got = awaitSettled(clients, config.violationsTopic());
    String shown = got.stream().map(v -> v.getViolationId() + " " + describe(v)).collect(Collectors.joining("\n"));
    assertThat(got.stream().map(Violation::getViolationId).toList()).as(shown).doesNotHaveDuplicates();
    Map<String, String> byId = new TreeMap<>();
    got.forEach(v -> byId.put(v.getViolationId(), describe(v)));
    assertThat(byId).as(shown).isEqualTo(expected);
  }
}
