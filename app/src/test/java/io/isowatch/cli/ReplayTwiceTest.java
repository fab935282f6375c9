package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.level.Level;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.metrics.MetricsEndpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the README and docs/events.md say of replaying one history twice under the same {@code
 * --history-id}: the second replay's events, whose transactions the assembler still holds (for
 * {@code duplicateRetention}, 60 s of event time), are {@code conflicting-duplicate} dead letters (the
 * same txnId and opIndex with another time), and nothing new is published. Events of transactions
 * held longer ago would be {@code late-event}s (docs/session-assembly.md).
 */
@ExtendWith(KafkaBroker.class)
class ReplayTwiceTest {
  @TempDir Path tmp;

  @Test
  void theSecondReplayUnderTheSameIdIsDeadLettered() throws Exception {
    MonitorConfig config = MonitorConfig.defaults().withTopics("twice.events", "twice.violations", "twice.dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
    Properties overlay = new Properties();
    overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.toString());
    MonitorRequest request = new MonitorRequest(config, KafkaBroker.bootstrapServers(), "twice-app", overlay, true,
        Optional.of(1), Optional.of((short) 1), MetricsEndpoint.DEFAULT_BIND, -1, Optional.empty(), false);
    Path file = Path.of(ReplayTwiceTest.class.getResource("/cli/write-skew.jsonl").toURI());
    try (RunningMonitor monitor = RunningMonitor.start(request)) {
      for (int i = 0; i < 2; i++) {
        CliRun run = CliRun.of("replay", "--bootstrap-servers", KafkaBroker.bootstrapServers(), "-q",
            "--from", file.toString(), "--history-id", "db", "--events-topic", "twice.events");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.CONSISTENT);
        if (i == 0) {
          await().atMost(Duration.ofSeconds(90)).until(() -> TopicRecords.readAll(
              KafkaBroker.bootstrapServers(), "twice.violations").size() == 1);
        }
      }
      // the history's 4 transactions are 18 events (BEGIN, 10 operations, COMMIT): each a dead letter
      await().atMost(Duration.ofSeconds(90)).until(() -> reasons().equals(Map.of("conflicting-duplicate", 18)));
      assertThat(TopicRecords.readAll(KafkaBroker.bootstrapServers(), "twice.violations")).hasSize(1);
    }
  }

  private static Map<String, Integer> reasons() {
    Map<String, Integer> byClass = new TreeMap<>();
    for (TopicRecords.Read r : TopicRecords.readAll(KafkaBroker.bootstrapServers(), "twice.dlq")) {
      String reason = ((DeadLetter) r.value()).getReason();
      byClass.merge(reason.substring(0, reason.indexOf(':')), 1, Integer::sum);
    }
    return byClass;
  }
}
