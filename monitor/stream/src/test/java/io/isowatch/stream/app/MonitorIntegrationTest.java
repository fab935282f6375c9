package io.isowatch.stream.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Edge;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.replay.HistoryRecords;
import io.isowatch.stream.replay.Replayer;
import io.isowatch.stream.replay.WriteSkewWorkload;
import io.isowatch.stream.topology.MonitorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real topology on a real broker ({@link KafkaBroker}): a snapshot-isolation run with injected
 * write skews, replayed as op-level events, gives on the violations topic (read committed) exactly
 * the violations the offline checker finds in the same history, each once; also when the monitor's
 * process is killed with SIGKILL mid-run and restarted with its state directory wiped.
 */
@ExtendWith(KafkaBroker.class)
class MonitorIntegrationTest {
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @TempDir Path tmp;

  @Test
  void publishesExactlyTheViolationsTheOfflineCheckerFinds() throws Exception {
    String prefix = "it-exact";
    MonitorConfig config = config(prefix);
    WriteSkewWorkload.Generated run = WriteSkewWorkload.generate(600, 6, 8, 60, 11);
    HistoryRecords records = new HistoryRecords(run.history(), "h-exact", Instant.now(), Duration.ofMillis(1));
    Set<String> expected = offline(run.history(), records);
    assertThat(expected).isEqualTo(injected(run)).hasSize(9);

    createTopics(config);
    Properties props = MonitorApp.properties(prefix + "-app", KafkaBroker.bootstrapServers(),
        stateDir("exact"));
    try (MonitorApp app = MonitorApp.start(config, MonitorMetrics.inMemory(), props, state -> { })) {
      List<HistoryRecords.Keyed> events = new ArrayList<>();
      records.forEachEvent(events::add);
      publish(config, events);
      awaitExactly(config, prefix + "-app", expected);
      assertThat(app.state()).isEqualTo(KafkaStreams.State.RUNNING);
    }
  }

  @Test
  void aMonitorKilledMidRunAndRestartedLosesAndDuplicatesNothing() throws Exception {
    String prefix = "it-kill";
    String appId = prefix + "-app";
    MonitorConfig config = config(prefix);
    WriteSkewWorkload.Generated run = WriteSkewWorkload.generate(1600, 8, 16, 80, 23);
    HistoryRecords records = new HistoryRecords(run.history(), "h-kill", Instant.now(), Duration.ofMillis(1));
    Set<String> expected = offline(run.history(), records);
    assertThat(expected).isEqualTo(injected(run));
    createTopics(config);
    Path stateDir = tmp.resolve("kill-state");
    Path configFile = tmp.resolve("kill.properties");
    // a killed member leaves the group after session.timeout.ms: the broker's minimum, 6 s
    Files.writeString(configFile, "session.timeout.ms=6000\nheartbeat.interval.ms=1000\n");

    List<HistoryRecords.Keyed> events = new ArrayList<>();
    records.forEachEvent(events::add);
    int half = events.size() / 2;
    publish(config, events.subList(0, half));
    MonitorProcess first = MonitorProcess.start(tmp.resolve("first.log"), appId, config, stateDir, configFile);
    try {
      await().atMost(PATIENCE).until(() -> violations(config).size() >= 2);
      publish(config, events.subList(half, events.size()));
    } finally {
      first.kill();
    }
    int seenAtKill = violations(config).size();
    assertThat(seenAtKill).isLessThan(expected.size());

    deleteTree(stateDir);
    MonitorProcess second = MonitorProcess.start(tmp.resolve("second.log"), appId, config, stateDir, configFile);
    try {
      awaitExactly(config, appId, expected);
    } finally {
      second.kill();
    }
  }

  /**
   * Waits until the events are all consumed and the violations topic stops growing, then checks
   * that it holds exactly {@code expected}, each once.
   */
  private static void awaitExactly(MonitorConfig config, String appId, Set<String> expected) {
    await().atMost(PATIENCE).until(() -> eventsConsumed(config, appId));
    await().atMost(PATIENCE).until(() -> violations(config).size() >= expected.size());
    int[] last = {-1};
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(30)).until(() -> {
      int n = violations(config).size();
      boolean same = n == last[0];
      last[0] = n;
      return same;
    });
    List<Violation> got = violations(config);
    String shown = got.stream().map(v -> v.getViolationId() + " " + describe(v)).collect(Collectors.joining("\n"));
    assertThat(got.stream().map(Violation::getViolationId).toList()).as(shown).doesNotHaveDuplicates();
    Set<String> described = got.stream().map(MonitorIntegrationTest::describe)
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(described).as(shown).isEqualTo(expected);
    assertThat(got).as(shown).hasSize(expected.size());
  }

  /** @return {@code G2-item [T12, T13]}: the anomaly and the cycle's transactions, sorted */
  static String describe(Violation v) {
    List<String> txns = v.getWitness().getEdges().isEmpty()
        ? v.getWitness().getTransactions().stream().map(t -> t.getTxnId()).sorted().distinct().toList()
        : v.getWitness().getEdges().stream().map(WitnessEdge::getFromTxnId).sorted().distinct().toList();
    return v.getAnomaly() + " " + txns;
  }

  /** @return the offline checker's violations at serializable, described as {@link #describe} does */
  private static Set<String> offline(History h, HistoryRecords records) {
    Set<String> out = new TreeSet<>();
    for (io.isowatch.checker.witness.Violation v : Checkers.adya(Level.SERIALIZABLE, true).check(h).violations()) {
      List<String> txns = v.witness().edges().stream().map(Edge::from).map(records::txnId).sorted().distinct().toList();
      out.add(v.anomaly().id() + " " + txns);
    }
    return out;
  }

  /** @return the injected write skews, described as {@link #describe} does */
  private static Set<String> injected(WriteSkewWorkload.Generated run) {
    return run.skews().stream().map(p -> "G2-item " + Stream.of("T" + p[0], "T" + p[1]).sorted().toList())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static MonitorConfig config(String prefix) {
    return MonitorConfig.defaults()
        .withTopics(prefix + ".events", prefix + ".violations", prefix + ".dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
  }

  private static void createTopics(MonitorConfig config) {
    Topics.create(KafkaBroker.broker().admin(), Topics.of(config), Optional.of(2), Optional.of((short) 1),
        Optional.empty());
  }

  private Properties stateDir(String name) {
    Properties p = new Properties();
    p.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve(name).toString());
    return p;
  }

  private static void publish(MonitorConfig config, List<HistoryRecords.Keyed> events) {
    Properties clients = new Properties();
    clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    try (Replayer replayer = new Replayer(clients, config.eventsTopic())) {
      assertThat(replayer.publish(events)).isEqualTo(events.size());
    }
  }

  private static List<Violation> violations(MonitorConfig config) {
    List<Violation> out = new ArrayList<>();
    for (TopicRecords.Read r : TopicRecords.readAll(KafkaBroker.bootstrapServers(), config.violationsTopic())) {
      out.add((Violation) r.value());
    }
    return out;
  }

  /** @return whether the application's committed offsets on the events topic reached its end */
  private static boolean eventsConsumed(MonitorConfig config, String appId)
      throws ExecutionException, InterruptedException {
    Admin admin = KafkaBroker.broker().admin();
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin.listConsumerGroupOffsets(appId).partitionsToOffsetAndMetadata().get();
    Map<TopicPartition, OffsetSpec> latest = Stream.of(0, 1)
        .collect(Collectors.toMap(p -> new TopicPartition(config.eventsTopic(), p), p -> OffsetSpec.latest()));
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end = admin.listOffsets(latest).all().get();
    return end.entrySet().stream().allMatch(e -> committed.get(e.getKey()) != null
        && committed.get(e.getKey()).offset() >= e.getValue().offset());
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
