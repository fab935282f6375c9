package io.isowatch.stream.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.level.Level;
import io.isowatch.checker.window.CheckFamily;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.stream.check.CheckerStage;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.topology.MonitorTopology;
import io.micrometer.core.instrument.search.Search;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rebalances: instances of one {@code application.id} share the work while histories move between
 * them. Two instances start; a third joins mid-run and takes tasks (restoring their stores from the
 * changelogs); then the first leaves mid-run and its tasks move to the other two. The events
 * topic has 6 partitions and 4 histories of 8 sessions each, so every instance holds tasks with
 * state. Afterwards the violations topic holds exactly an uninterrupted run's violations, each once.
 * At each stage every history's window gauge ({@code isowatch.window.transactions}) is exported
 * by exactly one instance, the one holding its checker task (issue 5: a task's former owner used to
 * keep exporting the last size it saw), and at the end each reads its history's 200 transactions.
 */
@ExtendWith(KafkaBroker.class)
class MonitorRebalanceTest {
  private static final int PARTITIONS = 6;
  private static final int HISTORIES = 4;
  private static final String PREFIX = "h-rebalance-";

  /** A started instance: its name, the app, and the metrics it registers in. */
  private record Instance(String name, MonitorApp app, MonitorMetrics metrics) {}

  @TempDir Path tmp;

  /**
   * @param split whether the checker stage is split per family of checks ({@link
   *     MonitorConfig#splitLevels()}): then the window gauges are the primary family's, and the
   *     reference run is the split topology's
   */
  @ParameterizedTest(name = "split {0}")
  @ValueSource(booleans = {false, true})
  void instancesJoiningAndLeavingMidRunLoseAndDuplicateNothing(boolean split) throws Exception {
    String prefix = "it-rebalance" + (split ? "-split" : "");
    String appId = prefix + "-app";
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics(prefix + ".events", prefix + ".violations", prefix + ".dlq")
        .withExpectedLevel(Level.SERIALIZABLE)
        .withSplitLevels(split);
    // sub-topologies with a task per partition: assembler and checker, or assembler, two families' checkers, merge
    int subTopologies = split ? 2 + CheckFamily.values().length : 2;
    ExactOutput.Workload run = ExactOutput.writeSkews(PREFIX, HISTORIES, 200, 31);
    Map<String, String> expected = ExactOutput.uninterrupted(config, run.events(), tmp.resolve("reference"));
    assertThat(expected.values()).containsExactlyInAnyOrderElementsOf(run.expected());

    Admin admin = KafkaBroker.broker().admin();
    Topics.create(admin, Topics.of(config), Optional.of(PARTITIONS), Optional.of((short) 1), Optional.empty());
    Properties clients = new Properties();
    clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    int n = run.events().size();
    AtomicInteger rebalances = new AtomicInteger();
    List<Instance> started = new ArrayList<>();
    List<MonitorApp> apps = new ArrayList<>();
    try {
      apps.add(start(config, appId, "a", started, rebalances));
      apps.add(start(config, appId, "b", started, rebalances));
      ExactOutput.publish(clients, config.eventsTopic(), run.slice(0, n / 3));
      await().atMost(ExactOutput.PATIENCE).until(() -> ExactOutput.committed(admin, appId, config.eventsTopic()) > n / 6);
      List<Map<String, List<String>>> owners = new ArrayList<>();
      owners.add(awaitWindowGaugesOnOwnersOnly(config, appId, started, apps));

      MonitorApp c = start(config, appId, "c", started, rebalances);
      apps.add(c);
      await().atMost(ExactOutput.PATIENCE).until(() -> activeTasks(c) > 0 && allRunning(apps));
      ExactOutput.publish(clients, config.eventsTopic(), run.slice(n / 3, 2 * n / 3));
      await().atMost(ExactOutput.PATIENCE).until(() -> ExactOutput.committed(admin, appId, config.eventsTopic()) > n / 2);
      owners.add(awaitWindowGaugesOnOwnersOnly(config, appId, started, apps));

      MonitorApp a = apps.remove(0);
      a.close(Duration.ofSeconds(30));
      await().atMost(ExactOutput.PATIENCE)
          .until(() -> allRunning(apps) && apps.stream().mapToInt(MonitorRebalanceTest::activeTasks).sum() == subTopologies * PARTITIONS);
      owners.add(awaitWindowGaugesOnOwnersOnly(config, appId, started, apps));
      System.out.println("MonitorRebalanceTest: histories' checker task owners, each the only exporter of the"
          + " history's window gauge: " + owners);
      ExactOutput.publish(clients, config.eventsTopic(), run.slice(2 * n / 3, n));
      ExactOutput.awaitExactly(admin, clients, config, appId, expected);
      assertThat(apps).allMatch(app -> app.state() == KafkaStreams.State.RUNNING);
      // every transaction checked, none evicted (200 per history, window 100,000): each owner's
      // gauge reads its history's transaction count, whether the history's window was restored
      // there from the changelog or built there
      Map<String, List<String>> last = awaitWindowGaugesOnOwnersOnly(config, appId, started, apps);
      Map<String, Double> windows = new TreeMap<>();
      last.forEach((history, owner) -> windows.put(history, started.stream().filter(i -> i.name().equals(owner.get(0)))
          .findFirst().orElseThrow().metrics().registry().get("isowatch.window.transactions").tag("history", history)
          .gauge().value()));
      assertThat(windows).isEqualTo(run.events().stream().map(e -> ((TxnEvent) e.value()).getTxnId().toString()).distinct()
          .collect(Collectors.groupingBy(id -> id.substring(0, id.indexOf('/')), TreeMap::new,
              Collectors.summingDouble(id -> 1.0))));
      System.out.println("MonitorRebalanceTest: window gauges at the end, each on its history's owner: " + windows);
    } finally {
      apps.forEach(MonitorApp::close);
    }
    assertThat(started).allSatisfy(i -> assertThat(i.metrics().registry().find("isowatch.window.transactions").gauges())
        .as("window gauges of %s after it stopped", i.name()).isEmpty());
    double restoredByC = Search.in(started.get(2).metrics().registry()).name("isowatch.state.restored.records").counters()
        .stream().mapToDouble(cnt -> cnt.count()).sum();
    assertThat(restoredByC).as("records the joining instance restored from changelogs").isPositive();
    System.out.printf("MonitorRebalanceTest: 2 -> 3 -> 2 instances over %d partitions, %d entries into REBALANCING, %.0f records"
        + " restored by the joining instance; %d violations, each once%n", PARTITIONS, rebalances.get(), restoredByC,
        expected.size());
  }

  private MonitorApp start(MonitorConfig config, String appId, String name, List<Instance> started,
      AtomicInteger rebalances) {
    Properties overlay = new Properties();
    overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state-" + name).toString());
    // a member that left without a LeaveGroup is dropped after session.timeout.ms: the broker's minimum
    overlay.setProperty("session.timeout.ms", "6000");
    overlay.setProperty("heartbeat.interval.ms", "1000");
    // an endpoint (never served) makes the instance share key-to-partition metadata, which
    // queryMetadataForKey needs: without it, it answers partition -1
    overlay.setProperty(StreamsConfig.APPLICATION_SERVER_CONFIG, name + ".invalid:9464");
    MonitorMetrics m = MonitorMetrics.inMemory();
    MonitorApp app = MonitorApp.start(config, m, MonitorApp.properties(appId, KafkaBroker.bootstrapServers(), overlay), s -> {
      if (s == KafkaStreams.State.REBALANCING) {
        rebalances.incrementAndGet();
      }
    });
    started.add(new Instance(name, app, m));
    return app;
  }

  /**
   * Waits until each history's window gauge is registered on exactly one instance, the running one
   * whose stream thread holds the active checker task of the history's partition of the
   * repartition topic (the partition Kafka Streams computes for the history's key, {@link
   * KafkaStreams#queryMetadataForKey}); stopped instances export none.
   *
   * @param started every instance started, running or not
   * @param running the running ones
   * @return each history's owner, by the instance's name (a one-element list)
   */
  private static Map<String, List<String>> awaitWindowGaugesOnOwnersOnly(MonitorConfig config, String appId,
      List<Instance> started, List<MonitorApp> running) {
    // split: the gauges are the primary (first) family's checker's
    CheckFamily family = config.splitLevels() ? CheckFamily.values()[0] : null;
    String byHistory = appId + "-" + MonitorTopology.BY_HISTORY + (family == null ? "" : "-" + family.id())
        + "-repartition";
    String metaStore = CheckerStage.storeName(CheckerStage.META_STORE, family);
    AtomicReference<Map<String, List<String>>> settled = new AtomicReference<>();
    await().atMost(ExactOutput.PATIENCE).untilAsserted(() -> {
      Map<String, List<String>> exporters = new TreeMap<>();
      Map<String, List<String>> owners = new TreeMap<>();
      for (int i = 0; i < HISTORIES; i++) {
        String history = PREFIX + i;
        int partition = running.get(0).streams()
            .queryMetadataForKey(metaStore, history, Serdes.String().serializer()).partition();
        TopicPartition tp = new TopicPartition(byHistory, partition);
        List<String> exporting = new ArrayList<>();
        List<String> owning = new ArrayList<>();
        for (Instance instance : started) {
          if (instance.metrics().registry().find("isowatch.window.transactions").tag("history", history).gauge() != null) {
            exporting.add(instance.name());
          }
          if (running.contains(instance.app()) && instance.app().streams().metadataForLocalThreads().stream()
              .flatMap(t -> t.activeTasks().stream()).anyMatch(task -> task.topicPartitions().contains(tp))) {
            owning.add(instance.name());
          }
        }
        assertThat(owning).as("instances holding %s's checker task", history).hasSize(1);
        exporters.put(history, exporting);
        owners.put(history, owning);
      }
      assertThat(exporters).as("instances exporting each history's window gauge").isEqualTo(owners);
      settled.set(owners);
    });
    return settled.get();
  }

  /** @return active tasks of the instance, over both sub-topologies */
  private static int activeTasks(MonitorApp app) {
    return app.streams().metadataForLocalThreads().stream().mapToInt(t -> t.activeTasks().size()).sum();
  }

  private static boolean allRunning(List<MonitorApp> apps) {
    return apps.stream().allMatch(a -> a.state() == KafkaStreams.State.RUNNING);
  }
}
