package io.isowatch.stream.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.level.Level;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real topology on a real broker ({@link KafkaBroker}): a snapshot-isolation run with injected
 * write skews, replayed as op-level events, gives on the violations topic (read committed) exactly
 * the violations the offline checker finds in the same history, each once, with the ids of an
 * uninterrupted run. The same under faults: {@link MonitorCrashTest}, {@link MonitorRebalanceTest},
 * {@link BrokerRestartTest}.
 */
@ExtendWith(KafkaBroker.class)
class MonitorIntegrationTest {
  @TempDir Path tmp;

  @Test
  void publishesExactlyTheViolationsTheOfflineCheckerFinds() {
    String prefix = "it-exact";
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics(prefix + ".events", prefix + ".violations", prefix + ".dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
    ExactOutput.Workload run = ExactOutput.writeSkews("h-exact-", 1, 600, 11);
    Map<String, String> expected = ExactOutput.uninterrupted(config, run.events(), tmp.resolve("reference"));
    assertThat(expected.values()).containsExactlyInAnyOrderElementsOf(run.expected()).hasSize(7);

    Topics.create(KafkaBroker.broker().admin(), Topics.of(config), Optional.of(2), Optional.of((short) 1),
        Optional.empty());
    Properties overlay = new Properties();
    overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state").toString());
    Properties props = MonitorApp.properties(prefix + "-app", KafkaBroker.bootstrapServers(), overlay);
    Properties clients = new Properties();
    clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    try (MonitorApp app = MonitorApp.start(config, MonitorMetrics.inMemory(), props, state -> { })) {
      ExactOutput.publish(clients, config.eventsTopic(), run.events());
      ExactOutput.awaitExactly(KafkaBroker.broker().admin(), clients, config, prefix + "-app", expected);
      assertThat(app.state()).isEqualTo(KafkaStreams.State.RUNNING);
    }
  }
}
