package io.isowatch.connectors.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.isowatch.connectors.privacy.Privacy;
import io.isowatch.connectors.recorder.BufferedSink;
import io.isowatch.connectors.recorder.PublishMetrics;
import io.isowatch.connectors.recorder.PublishMetrics.DropReason;
import io.isowatch.connectors.recorder.SessionRecorder;
import io.isowatch.connectors.recorder.TransactionRecorder;
import io.isowatch.schemas.Transaction;
import io.isowatch.registry.RegistryServer;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.RegistryFormat;
import io.isowatch.schemas.serde.WireFormat;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The recorder publishing through a {@link BufferedSink} and an idempotent producer to a real broker. */
class KafkaPublishingTest {
  private static final Privacy HASHED = Privacy.hashed("recorder-test-secret".getBytes(StandardCharsets.UTF_8));
  private static LocalKafka kafka;

  @BeforeAll
  static void startBroker() throws Exception {
    kafka = LocalKafka.start();
  }

  @AfterAll
  static void stopBroker() throws Exception {
    kafka.close();
  }

  @Test
  void everyTransactionReachesTheBrokerInSessionOrder() throws Exception {
    String topic = "recorder-publish-all";
    PublishMetrics metrics = new PublishMetrics(new SimpleMeterRegistry());
    BufferedSink sink = new BufferedSink(
        new KafkaTransactionSink(kafka.bootstrapServers(), topic, Map.of(), metrics),
        1_000, Duration.ofSeconds(1), metrics);
    TransactionRecorder recorder = new TransactionRecorder("orders-db", sink, HASHED);
    List<Transaction> sent = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      for (String session : List.of("a", "b")) {
        SessionRecorder s = recorder.begin(session);
        s.read("x", i);
        s.write("x", i + 1);
        sent.add(i % 5 == 4 ? s.abort() : s.commit());
      }
    }
    sink.close();

    assertThat(metrics.publishedCount()).isEqualTo(100);
    for (DropReason r : DropReason.values()) {
      assertThat(metrics.droppedCount(r)).as(r.id()).isZero();
    }
    List<Transaction> received = transactions(topic, 100);
    for (String session : List.of("a", "b")) {
      assertThat(received.stream().filter(t -> t.getSessionId().equals(session)).toList())
          .as("session %s", session)
          .isEqualTo(sent.stream().filter(t -> t.getSessionId().equals(session)).toList());
    }
  }

  /**
   * The broker's address is a closed port: the producer's {@code send} would block for its {@code
   * max.block.ms} (60 s here) waiting for metadata. The publisher thread takes the first record and
   * blocks there; the buffer (capacity 8) then fills, and every later commit waits at most 20 ms
   * and is counted as dropped. Closing gives up on the rest, counted too: 41 commits, 41 records
   * accounted for, none published.
   */
  @Test
  void anUnreachableBrokerNeverHoldsTheApplicationAndEveryDropIsCounted() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    PublishMetrics metrics = new PublishMetrics(registry);
    BufferedSink sink = new BufferedSink(
        new KafkaTransactionSink("127.0.0.1:" + closedPort(), "recorder-unreachable",
            Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000), metrics),
        8, Duration.ofMillis(20), metrics);
    TransactionRecorder recorder = new TransactionRecorder("orders-db", sink, HASHED);
    commit(recorder, 0);
    await().atMost(Duration.ofSeconds(10)).until(() -> sink.buffered() == 0);

    // 40 commits at most 20 ms each: far below the producer's 60 s block, whichever the machine
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      for (int i = 1; i <= 40; i++) {
        commit(recorder, i);
      }
    });

    assertThat(sink.buffered()).isEqualTo(8);
    assertThat(registry.get(PublishMetrics.BUFFERED).gauge().value()).isEqualTo(8.0);
    assertThat(metrics.droppedCount(DropReason.BUFFER_FULL)).isEqualTo(32);
    assertThat(registry.get(PublishMetrics.DROPPED).tag("reason", "buffer-full").counter().count()).isEqualTo(32.0);

    sink.close(Duration.ofMillis(200));

    assertThat(metrics.droppedCount(DropReason.PUBLISH_FAILED)).isEqualTo(1);
    assertThat(metrics.droppedCount(DropReason.CLOSED)).isEqualTo(8);
    assertThat(metrics.publishedCount()).isZero();
    commit(recorder, 41);
    assertThat(metrics.droppedCount(DropReason.CLOSED)).isEqualTo(9);
  }

  private static void commit(TransactionRecorder recorder, long value) {
    SessionRecorder s = recorder.begin("app-1");
    s.write("x", value);
    s.commit();
  }

  @Test
  void aRegistryUrlAmongTheOverridesPublishesTheRegistryWireFormat() throws Exception {
    String topic = "recorder-publish-registry";
    try (RegistryServer registry = RegistryServer.start();
        WireFormat reader = WireFormat.of(Map.of(RegistryFormat.URL, registry.url()))) {
      KafkaTransactionSink sink = new KafkaTransactionSink(kafka.bootstrapServers(), topic,
          Map.of(RegistryFormat.URL, registry.url()));
      TransactionRecorder recorder = new TransactionRecorder("orders-db", sink, HASHED);
      List<Transaction> sent = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        SessionRecorder s = recorder.begin("app-1");
        s.write("x", i);
        sent.add(s.commit());
      }
      sink.close();

      List<byte[]> values = consumeAll(topic, 3).stream().map(ConsumerRecord::value).toList();
      assertThat(values).allSatisfy(v -> assertThat(v[0]).isEqualTo((byte) 0));
      assertThat(values.stream().map(v -> reader.decode(topic, v).record()).toList()).isEqualTo(sent);
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** @return the transactions of the first {@code expected} records, in single-object encoding */
  private static List<Transaction> transactions(String topic, int expected) {
    List<Transaction> out = new ArrayList<>();
    for (ConsumerRecord<String, byte[]> r : consumeAll(topic, expected)) {
      Transaction t = (Transaction) RecordCodec.decode(r.value()).record();
      assertThat(r.key()).isEqualTo("orders-db/" + t.getSessionId());
      out.add(t);
    }
    return out;
  }

  private static List<ConsumerRecord<String, byte[]>> consumeAll(String topic, int expected) {
    List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, topic + "-reader",
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
        new StringDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      await().atMost(Duration.ofSeconds(30)).until(() -> {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          out.add(r);
        }
        return out.size() >= expected;
      });
    }
    assertThat(out).hasSize(expected);
    return out;
  }
}
