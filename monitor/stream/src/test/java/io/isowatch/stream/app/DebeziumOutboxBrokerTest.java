package io.isowatch.stream.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.debezium.OutboxRows;
import io.isowatch.stream.config.EventsInput;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.topology.OutboxEvents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code monitor --input debezium-outbox} on a real broker ({@link KafkaBroker}): a topic as
 * Debezium writes it for the outbox table, with the list write skew's three inserts, a pruning
 * delete and its tombstone and one malformed event, gives exactly one G2-item on the violations
 * topic and the malformed event on the DLQ.
 */
@ExtendWith(KafkaBroker.class)
class DebeziumOutboxBrokerTest {
  @TempDir Path tmp;

  @Test
  void aDebeziumTopicOfTheOutboxReachesTheViolationsTopicAsG2Item() throws Exception {
    String prefix = "it-debezium";
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics(prefix + ".events", prefix + ".violations", prefix + ".dlq")
        .withInput(EventsInput.DEBEZIUM_OUTBOX);
    Topics.create(KafkaBroker.broker().admin(), Topics.of(config), Optional.of(1), Optional.of((short) 1),
        Optional.empty());
    Properties clients = new Properties();
    clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    List<Transaction> skew = OutboxEvents.listWriteSkew();
    String malformed = "{\"payload\": 7}";
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(clients, new StringSerializer(), new ByteArraySerializer())) {
      for (int i = 0; i < skew.size(); i++) {
        send(producer, config, i + 1, OutboxEvents.insert(skew.get(i), 900 + i, 1000 * (i + 1)));
      }
      send(producer, config, 1, OutboxEvents.change("d", OutboxRows.TABLE, 950, 9000, "null"));
      send(producer, config, 1, null);
      send(producer, config, 4, malformed);
      producer.flush();
    }

    Properties overlay = new Properties();
    overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state").toString());
    Properties props = MonitorApp.properties(prefix + "-app", KafkaBroker.bootstrapServers(), overlay);
    MonitorMetrics metrics = MonitorMetrics.inMemory();
    try (MonitorApp app = MonitorApp.start(config, metrics, props, state -> { })) {
      await().atMost(ExactOutput.PATIENCE)
          .until(() -> !ExactOutput.violations(clients, config.violationsTopic()).isEmpty());
      assertThat(ExactOutput.awaitSettled(clients, config.violationsTopic())).extracting(ExactOutput::describe)
          .containsExactly("db G2-item [db/s1/0, db/s2/0]");
      assertThat(TopicRecords.readAll(clients, config.dlqTopic())).extracting(r -> ((DeadLetter) r.value()).getReason())
          .containsExactly("bad-envelope: change event has no source");
    }
    assertThat(metrics.registry().get("isowatch.debezium.skipped").tag("reason", "delete").counter().count())
        .isEqualTo(1.0);
    assertThat(metrics.registry().get("isowatch.debezium.skipped").tag("reason", "tombstone").counter().count())
        .isEqualTo(1.0);
  }

  private static void send(KafkaProducer<String, byte[]> producer, MonitorConfig config, long id, String value) {
    byte[] bytes = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
    producer.send(new ProducerRecord<>(config.eventsTopic(), "{\"id\":" + id + "}", bytes));
  }
}
