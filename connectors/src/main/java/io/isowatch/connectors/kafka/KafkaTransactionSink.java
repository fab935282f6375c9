package io.isowatch.connectors.kafka;

import io.isowatch.connectors.recorder.PublishMetrics;
import io.isowatch.connectors.recorder.PublishMetrics.DropReason;
import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.WireFormat;
import java.io.Flushable;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes each {@link Transaction} to a Kafka topic, encoded by {@link RecordCodec} (Avro
 * single-object encoding) or, when the overrides name a schema registry ({@code
 * apicurio.registry.url}), in the registry's wire format ({@link WireFormat#of}), keyed {@code historyId/sessionId} so that one session's transactions stay
 * in one partition in session order.
 *
 * <p>The producer has idempotence on with {@code acks=all} (Kafka producer configs, {@code
 * enable.idempotence}): retries never duplicate or reorder records within a partition. Sending is
 * asynchronous. No failure is dropped silently, in one of two ways chosen by the constructor:
 *
 * <ul>
 *   <li>without {@link PublishMetrics}: the first send failure is kept and thrown by the next {@link
 *       #accept} and by {@link #close} (every later record is refused too);
 *   <li>with {@link PublishMetrics}: each record's outcome is counted, acknowledged ones in {@link
 *       PublishMetrics#PUBLISHED}, failed ones (a {@code send} that threw, e.g. no metadata within
 *       {@code max.block.ms}, or a delivery that failed, e.g. after {@code delivery.timeout.ms}) in
 *       {@link PublishMetrics#DROPPED} with reason {@code publish-failed} and a log line; {@link
 *       #accept} then never throws, and later records are still tried. This is the mode to put
 *       behind a {@link io.isowatch.connectors.recorder.BufferedSink}.
 * </ul>
 *
 * <p>{@code send} may block for up to the producer's {@code max.block.ms} (default 60 s) while the
 * broker is unreachable or {@code buffer.memory} is full; a {@link
 * io.isowatch.connectors.recorder.BufferedSink} in front keeps that wait off the application's
 * threads. {@link #close} flushes every record sent.
 */
public final class KafkaTransactionSink implements TransactionSink, Flushable, AutoCloseable {
  /** The topic the monitor reads by default (ARCHITECTURE.md, "Data flow"). */
  public static final String DEFAULT_TOPIC = "isowatch.events";

  private final Producer<String, byte[]> producer;
  private final WireFormat format;
  private final String topic;
  private final AtomicReference<Exception> failure = new AtomicReference<>();
  private final PublishMetrics metrics;

  /**
   * A sink that keeps the first failure and throws it from then on.
   *
   * @param bootstrapServers e.g. {@code localhost:9092}
   * @param topic the events topic, e.g. {@link #DEFAULT_TOPIC}
   * @param overrides further producer properties (security settings, for example; {@code
   *     apicurio.*} for a schema registry); they win over the defaults, except that
   *     idempotence stays on
   */
  public KafkaTransactionSink(String bootstrapServers, String topic, Map<String, Object> overrides) {
    this(bootstrapServers, topic, overrides, null);
  }

  /**
   * A sink that counts each record's outcome in {@code metrics} and never throws from {@link #accept}.
   *
   * @param bootstrapServers e.g. {@code localhost:9092}
   * @param topic the events topic, e.g. {@link #DEFAULT_TOPIC}
   * @param overrides further producer properties (security settings, {@code max.block.ms}, for
   *     example; {@code apicurio.*} for a schema registry); they win over the defaults,
   *     except that idempotence stays on
   * @param metrics where outcomes are counted; null for the throwing sink of the other constructor
   */
  public KafkaTransactionSink(
      String bootstrapServers, String topic, Map<String, Object> overrides, PublishMetrics metrics) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    // one request in flight per broker: see Replayer (monitor/stream) for the out-of-sequence loop
    // that a fresh idempotent producer met on a partition not yet led, with Kafka 4.3.1
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    p.putAll(overrides);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    this.format = WireFormat.of(overrides);
    this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    this.topic = topic;
    this.metrics = metrics;
  }

  /**
   * Sends one transaction without waiting for the broker's answer (but waiting up to {@code
   * max.block.ms} for metadata or buffer room).
   *
   * @throws IllegalStateException without metrics only: if an earlier send failed (the cause is
   *     that failure)
   */
  @Override
  public void accept(Transaction txn) {
    if (metrics != null) {
      sendCounted(txn);
      return;
    }
    throwIfFailed();
    producer.send(record(txn), (md, e) -> {
      if (e != null) {
        failure.compareAndSet(null, e);
      }
    });
  }

  private void sendCounted(Transaction txn) {
    try {
      producer.send(record(txn), (md, e) -> {
        if (e == null) {
          metrics.published();
        } else {
          metrics.dropped(txn, DropReason.PUBLISH_FAILED, e);
        }
      });
    } catch (RuntimeException e) {
      metrics.dropped(txn, DropReason.PUBLISH_FAILED, e);
    }
  }

  private ProducerRecord<String, byte[]> record(Transaction txn) {
    return new ProducerRecord<>(topic, txn.getHistoryId() + "/" + txn.getSessionId(), format.encode(topic, txn));
  }

  /**
   * Waits until every record sent so far is acknowledged by the broker or has failed (the outbox
   * relay calls it before storing offsets; use the mode without metrics there, so that a failure
   * stops the relay instead of being counted as a drop).
   *
   * @throws IllegalStateException without metrics only: if a send failed
   */
  @Override
  public void flush() {
    producer.flush();
    throwIfFailed();
  }

  /**
   * Flushes every record sent and closes the producer.
   *
   * @throws IllegalStateException without metrics only: if a send failed
   */
  @Override
  public void close() {
    try {
      producer.flush();
    } finally {
      producer.close(Duration.ofSeconds(30));
      format.close();
    }
    throwIfFailed();
  }

  private void throwIfFailed() {
    Exception e = failure.get();
    if (e != null) {
      throw new IllegalStateException("publishing to topic " + topic + " failed: " + e.getMessage(), e);
    }
  }
}
