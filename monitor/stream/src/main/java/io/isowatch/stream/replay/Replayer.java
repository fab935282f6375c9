package io.isowatch.stream.replay;

import io.isowatch.schemas.serde.RecordCodec;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes {@link HistoryRecords} to the events topic with an idempotent producer ({@code
 * enable.idempotence=true}, {@code acks=all}: a retried send is written once and the records of one
 * partition keep their order; Kafka documentation, "Producer Configs"). Keys are {@code
 * historyId/sessionId} (string), values the single-object Avro encoding of {@link RecordCodec}, so
 * the records of one session land in one partition in session order.
 *
 * <p>Not thread-safe; one replay at a time.
 */
public final class Replayer implements AutoCloseable {
  /**
   * What a replay published.
   *
   * @param transactions transactions published
   * @param records records published (events, or transactions with {@code --whole-transactions})
   * @param bytes value bytes published
   * @param unknownReadsLeftOut reads left out because their result is unknown
   */
  public record Counts(long transactions, long records, long bytes, int unknownReadsLeftOut) {}

  private final KafkaProducer<String, byte[]> producer;
  private final String topic;

  /**
   * @param clientProperties client settings (bootstrap servers, security); the serializers, {@code
   *     acks} and idempotence are set here
   * @param topic the events topic
   */
  public Replayer(Properties clientProperties, String topic) {
    Properties props = new Properties();
    props.putAll(clientProperties);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "5");
    props.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    this.producer = new KafkaProducer<>(props);
    this.topic = topic;
  }

  /**
   * Publishes every record and waits until the broker acknowledged all of them.
   *
   * @param records the history as records
   * @param wholeTransactions {@link io.isowatch.schemas.Transaction}s instead of op-level events
   * @param progress receives the number of records sent so far (may be called often)
   * @return what was published
   * @throws KafkaException if a send fails after the producer's retries (the first failure, with
   *     the broker's reason)
   */
  public Counts publish(HistoryRecords records, boolean wholeTransactions, LongConsumer progress) {
    long[] sent = new long[2];
    AtomicReference<Exception> failure = new AtomicReference<>();
    java.util.function.Consumer<HistoryRecords.Keyed> send = keyed -> {
      if (failure.get() != null) {
        return;
      }
      byte[] value = RecordCodec.encode(keyed.value());
      producer.send(new ProducerRecord<>(topic, keyed.key(), value), (meta, e) -> {
        if (e != null) {
          failure.compareAndSet(null, e);
        }
      });
      sent[0]++;
      sent[1] += value.length;
      progress.accept(sent[0]);
    };
    if (wholeTransactions) {
      records.forEachTransaction(send);
    } else {
      records.forEachEvent(send);
    }
    producer.flush();
    Exception e = failure.get();
    if (e != null) {
      throw new KafkaException("publishing to " + topic + " failed: " + e.getMessage(), e);
    }
    return new Counts(records.transactions(), sent[0], sent[1], records.unknownReadsLeftOut());
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(30));
  }
}
