package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.level.Level;
import io.isowatch.schemas.Violation;
import io.isowatch.stream.check.CheckerStage;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.metrics.MetricsEndpoint;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code isowatch monitor} prints the violations it published, not every record of the violations
 * topic: another monitor application's violation (its header names that application) and a record
 * another producer wrote without the header are not printed.
 */
@ExtendWith(KafkaBroker.class)
class MonitorPrintsOwnViolationsTest {
  private static final String EVENTS = "own.events";
  private static final String VIOLATIONS = "own.violations";

  @TempDir Path tmp;

  @Test
  void printsOnlyTheViolationsOfItsOwnApplication() throws Exception {
    MonitorConfig config = MonitorConfig.defaults().withTopics(EVENTS, VIOLATIONS, "own.dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
    Properties overlay = new Properties();
    overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.toString());
    MonitorRequest request = new MonitorRequest(config, KafkaBroker.bootstrapServers(), "own-app", overlay, true,
        Optional.of(1), Optional.of((short) 1), MetricsEndpoint.DEFAULT_BIND, -1, Optional.empty(), true);
    try (RunningMonitor monitor = RunningMonitor.start(request)) {
      replay("h1");
      await().atMost(Duration.ofSeconds(90)).until(() -> published().size() == 1 && monitor.lines().size() == 2);
      TopicRecords.Read first = published().get(0);
      try (KafkaProducer<String, byte[]> other = producer()) {
        ProducerRecord<String, byte[]> theirs = new ProducerRecord<>(VIOLATIONS, first.key(), first.raw());
        theirs.headers().add(CheckerStage.APPLICATION_ID_HEADER, "other-app".getBytes(StandardCharsets.UTF_8));
        other.send(theirs).get();
        other.send(new ProducerRecord<>(VIOLATIONS, first.key(), first.raw())).get();
      }
      replay("h2");
      await().atMost(Duration.ofSeconds(90)).until(() -> published().size() == 4 && monitor.lines().size() == 3);
      List<TopicRecords.Read> all = published();
      Violation h1 = (Violation) all.get(0).value();
      Violation h2 = (Violation) all.get(3).value();
      assertThat(ViolationText.headline(h1)).isEqualTo("violation " + h1.getViolationId()
          + ": G2-item in history h1 (weakest level broken: serializable)");
      assertThat(ViolationText.headline(h2)).isEqualTo("violation " + h2.getViolationId()
          + ": G2-item in history h2 (weakest level broken: serializable)");
      assertThat(monitor.lines().subList(1, 3))
          .containsExactly(ViolationText.headline(h1), ViolationText.headline(h2));
    }
  }

  private static void replay(String historyId) throws Exception {
    Path file = Path.of(MonitorPrintsOwnViolationsTest.class.getResource("/cli/write-skew.jsonl").toURI());
    CliRun run = CliRun.of("replay", "--bootstrap-servers", KafkaBroker.bootstrapServers(), "-q",
        "--from", file.toString(), "--history-id", historyId, "--events-topic", EVENTS);
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.CONSISTENT);
  }

  private static List<TopicRecords.Read> published() {
    return TopicRecords.readAll(KafkaBroker.bootstrapServers(), VIOLATIONS);
  }

  private static KafkaProducer<String, byte[]> producer() {
    Properties p = new Properties();
    p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }
}
