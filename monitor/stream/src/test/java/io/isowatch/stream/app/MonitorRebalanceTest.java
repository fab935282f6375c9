package io.isowatch.stream.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.level.Level;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.topology.MonitorConfig;
import io.micrometer.core.instrument.search.Search;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rebalances: instances of one {@code application.id} share the work while histories move between
 * them. Two instances start; a third joins mid-run and takes tasks (restoring their stores from the
 * changelogs); then the first leaves mid-run and its tasks move to the other two. The events
 * topic has 6 partitions and 4 histories of 8 sessions each, so every instance holds tasks with
 * state. Afterwards the violations topic holds exactly an uninterrupted run's violations, each once.
 */
@ExtendWith(KafkaBroker.class)
class MonitorRebalanceTest {
  private static final int PARTITIONS = 6;

  @TempDir Path tmp;

  @Test
  void instancesJoiningAndLeavingMidRunLoseAndDuplicateNothing() throws Exception {
    String prefix = "it-rebalance";
    String appId = prefix + "-app";
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics(prefix + ".events", prefix + ".violations", prefix + ".dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
    ExactOutput.Workload run = ExactOutput.writeSkews("h-rebalance-", 4, 200, 31);
    Map<String, String> expected = ExactOutput.uninterrupted(config, run.events(), tmp.resolve("reference"));
    assertThat(expected.values()).containsExactlyInAnyOrderElementsOf(run.expected());

    Admin admin = KafkaBroker.broker().admin();
    Topics.create(admin, Topics.of(config), Optional.of(PARTITIONS), Optional.of((short) 1), Optional.empty());
    Properties clients = new Properties();
    clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    int n = run.events().size();
    AtomicInteger rebalances = new AtomicInteger();
    List<MonitorMetrics> metrics = new ArrayList<>();
    List<MonitorApp> apps = new ArrayList<>();
    try {
      apps.add(start(config, appId, "a", metrics, rebalances));
      apps.add(start(config, appId, "b", metrics, rebalances));
      ExactOutput.publish(clients, config.eventsTopic(), run.slice(0, n / 3));
      await().atMost(ExactOutput.PATIENCE).until(() -> ExactOutput.committed(admin, appId, config.eventsTopic()) > n / 6);

      MonitorApp c = start(config, appId, "c", metrics, rebalances);
      apps.add(c);
      await().atMost(ExactOutput.PATIENCE).until(() -> activeTasks(c) > 0 && allRunning(apps));
      ExactOutput.publish(clients, config.eventsTopic(), run.slice(n / 3, 2 * n / 3));
      await().atMost(ExactOutput.PATIENCE).until(() -> ExactOutput.committed(admin, appId, config.eventsTopic()) > n / 2);

      MonitorApp a = apps.remove(0);
      a.close(Duration.ofSeconds(30));
      await().atMost(ExactOutput.PATIENCE)
          .until(() -> allRunning(apps) && apps.stream().mapToInt(MonitorRebalanceTest::activeTasks).sum() == 2 * PARTITIONS);
      ExactOutput.publish(clients, config.eventsTopic(), run.slice(2 * n / 3, n));
      ExactOutput.awaitExactly(admin, clients, config, appId, expected);
      assertThat(apps).allMatch(app -> app.state() == KafkaStreams.State.RUNNING);
    } finally {
      apps.forEach(MonitorApp::close);
    }
    double restoredByC = Search.in(metrics.get(2).registry()).name("isowatch.state.restored.records").counters()
        .stream().mapToDouble(cnt -> cnt.count()).sum();
    assertThat(restoredByC).as("records the joining instance restored from changelogs").isPositive();
    System.out.printf("MonitorRebalanceTest: 2 -> 3 -> 2 instances over %d partitions, %d entries into REBALANCING, %.0f records"
        + " restored by the joining instance; %d violations, each once%n", PARTITIONS, rebalances.get(), restoredByC,
        expected.size());
  }

  private MonitorApp start(MonitorConfig config, String appId, String name, List<MonitorMetrics> metrics,
      AtomicInteger rebalances) {
    Properties overlay = new Properties();
    overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state-" + name).toString());
    // a member that left without a LeaveGroup is dropped after session.timeout.ms: the broker's minimum
    overlay.setProperty("session.timeout.ms", "6000");
    overlay.setProperty("heartbeat.interval.ms", "1000");
    MonitorMetrics m = MonitorMetrics.inMemory();
    metrics.add(m);
    return MonitorApp.start(config, m, MonitorApp.properties(appId, KafkaBroker.bootstrapServers(), overlay), s -> {
      if (s == KafkaStreams.State.REBALANCING) {
        rebalances.incrementAndGet();
      }
    });
  }

  /** @return active tasks of the instance, over both sub-topologies */
  private static int activeTasks(MonitorApp app) {
    return app.streams().metadataForLocalThreads().stream().mapToInt(t -> t.activeTasks().size()).sum();
  }

  private static boolean allRunning(List<MonitorApp> apps) {
    return apps.stream().allMatch(a -> a.state() == KafkaStreams.State.RUNNING);
  }
}
