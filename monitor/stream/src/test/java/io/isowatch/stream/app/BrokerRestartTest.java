package io.isowatch.stream.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.level.Level;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.EmbeddedKafka;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broker restarts: the only broker of the cluster (its own {@link EmbeddedKafka}, not the shared
 * one) stops and starts again on the same port and log directories while the monitor works through
 * a replay published beforehand, {@value
 * #DEFAULT_RESTARTS} time by default. The broker stays down until the monitor's consumers and
 * producers have lost their connections. The monitor rides through on its clients' retries: it never goes to {@code
 * ERROR} or stops, and afterwards the violations topic holds exactly an uninterrupted run's
 * violations, each once.
 *
 * <p>Longer runs: {@code -Disowatch.faults.broker.restarts=10} (see docs/reliability.md).
 */
class BrokerRestartTest {
  private static final int DEFAULT_RESTARTS = 1;

  @TempDir Path tmp;

  @Test
  void theMonitorRidesThroughBrokerRestartsAndStaysExact() {
    int restarts = Integer.getInteger("isowatch.faults.broker.restarts", DEFAULT_RESTARTS);
    String prefix = "it-broker-restart";
    String appId = prefix + "-app";
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics(prefix + ".events", prefix + ".violations", prefix + ".dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
    ExactOutput.Workload run = ExactOutput.writeSkews("h-restart-", 2, 300, 41);
    Map<String, String> expected = ExactOutput.uninterrupted(config, run.events(), tmp.resolve("reference"));
    assertThat(expected.values()).containsExactlyInAnyOrderElementsOf(run.expected());

    List<KafkaStreams.State> states = new CopyOnWriteArrayList<>();
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      Topics.create(kafka.admin(), Topics.of(config), Optional.of(2), Optional.of((short) 1), Optional.empty());
      Properties clients = new Properties();
      clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      Properties overlay = new Properties();
      overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state").toString());
      int n = run.events().size();
      try (MonitorApp app = MonitorApp.start(config, MonitorMetrics.inMemory(),
          MonitorApp.properties(appId, kafka.bootstrapServers(), overlay), states::add)) {
        ExactOutput.publish(clients, config.eventsTopic(), run.events());
        for (int r = 0; r < restarts; r++) {
          long progress = (long) (r + 1) * n / (restarts + 2);
          await().atMost(ExactOutput.PATIENCE)
              .until(() -> ExactOutput.committed(kafka.admin(), appId, config.eventsTopic()) > progress);
          kafka.restartBroker(() -> await().atMost(ExactOutput.PATIENCE).until(() -> connections(app) == 0));
        }
        ExactOutput.awaitExactly(kafka.admin(), clients, config, appId, expected);
        assertThat(app.state()).isEqualTo(KafkaStreams.State.RUNNING);
      }
    }
    assertThat(states).as("states of the monitor until its close")
        .doesNotContain(KafkaStreams.State.ERROR, KafkaStreams.State.PENDING_ERROR)
        .containsSubsequence(KafkaStreams.State.RUNNING, KafkaStreams.State.PENDING_SHUTDOWN);
    assertThat(states.indexOf(KafkaStreams.State.PENDING_SHUTDOWN)).isEqualTo(states.size() - 2);
    System.out.printf("BrokerRestartTest: %d broker restart(s) ridden through; monitor states %s; %d violations,"
        + " each once%n", restarts, states, expected.size());
  }

  /**
   * @return open connections of the monitor's stream threads' main consumers and producers, the
   *     clients that poll all the time (an idle restore consumer would notice the loss only at its
   *     next poll)
   */
  private static double connections(MonitorApp app) {
    return app.streams().metrics().values().stream()
        .filter(m -> m.metricName().name().equals("connection-count"))
        .filter(m -> {
          String client = m.metricName().tags().getOrDefault("client-id", "");
          return client.endsWith("-producer") || client.endsWith("-consumer") && !client.endsWith("-restore-consumer");
        })
        .mapToDouble(m -> ((Number) m.metricValue()).doubleValue())
        .sum();
  }
}
