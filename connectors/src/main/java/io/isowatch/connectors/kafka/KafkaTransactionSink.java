package io.isowatch.connectors.kafka;

import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.serde.RecordCodec;
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
 * single-object encoding), keyed {@code historyId/sessionId} so that one session's transactions stay
 * in one partition in session order.
 *
 * <p>The producer has idempotence on with {@code acks=all} (Kafka producer configs, {@code
 * enable.idempotence}): retries never duplicate or reorder records within a partition. Sending is
 * asynchronous; the first send failure is kept and thrown by the next {@link #accept} or by {@link
 * #close}, so no failure is dropped silently. {@link #close} flushes every record sent.
 */
public final class KafkaTransactionSink implements TransactionSink, Flushable, AutoCloseable {
  /** The topic the monitor reads by default (ARCHITECTURE.md, "Data flow"). */
  public static final String DEFAULT_TOPIC = "isowatch.events";

  private final Producer<String, byte[]> producer;
  private final String topic;
  private final AtomicReference<Exception> failure = new AtomicReference<>();

  /**
   * @param bootstrapServers e.g. {@code localhost:9092}
   * @param topic the events topic, e.g. {@link #DEFAULT_TOPIC}
   * @param overrides further producer properties (security settings, for example); they win over
   *     the defaults, except that idempotence stays on
   */
  public KafkaTransactionSink(String bootstrapServers, String topic, Map<String, Object> overrides) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.putAll(overrides);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    this.topic = topic;
  }

  /**
   * Sends one transaction without waiting for the broker.
   *
   * @throws IllegalStateException if an earlier send failed (the cause is that failure)
   */
  @Override
  public void accept(Transaction txn) {
    throwIfFailed();
    String key = txn.getHistoryId() + "/" + txn.getSessionId();
    producer.send(new ProducerRecord<>(topic, key, RecordCodec.encode(txn)), (md, e) -> {
      if (e != null) {
        failure.compareAndSet(null, e);
      }
    });
  }

  /**
   * Waits until every record sent so far is acknowledged by the broker or has failed.
   *
   * @throws IllegalStateException if a send failed
   */
  @Override
  public void flush() {
    producer.flush();
    throwIfFailed();
  }

  /**
   * Flushes every record sent and closes the producer.
   *
   * @throws IllegalStateException if a send failed
   */
  @Override
  public void close() {
    try {
      producer.flush();
    } finally {
      producer.close(Duration.ofSeconds(30));
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
