package io.isowatch.stream.app;

import io.isowatch.schemas.Violation;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.RegistryFormat;
import io.isowatch.schemas.serde.WireFormat;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows the violations topic on its own thread and hands each {@link Violation} to a callback as
 * soon as its transaction is committed: the consumer reads with {@code
 * isolation.level=read_committed}, so violations of a transaction the monitor aborted (a crashed
 * stream thread under {@code exactly_once_v2}) are never seen (Kafka documentation, "Consumer
 * Configs", {@code isolation.level}). It has no consumer group: it is assigned every partition
 * and reads from the beginning or the end.
 *
 * <p>A record that does not decode as a {@code Violation} goes to the {@code undecodable} callback
 * with the codec's reason (or why the schema registry could not be asked). Callbacks run on the feed's thread, one at a time.
 */
public final class ViolationFeed implements AutoCloseable {
  private final KafkaConsumer<String, byte[]> consumer;
  private final WireFormat format;
  private final Thread thread;
  private final CountDownLatch stopped = new CountDownLatch(1);

  /**
   * Starts following.
   *
   * @param clientProperties client settings (bootstrap servers, security, and {@code
   *     apicurio.*} when the topic is in a registry's wire format, see {@link
   *     WireFormat#of}); deserializers, isolation level and offset reset are set here
   * @param topic the violations topic
   * @param fromBeginning read the violations already there ({@code true}) or only new ones
   * @param sink receives each violation
   * @param undecodable receives the record's coordinates ({@code topic-partition@offset}) and the
   *     reason of a record that is not a violation
   * @throws IllegalStateException if the topic does not exist
   * @throws org.apache.kafka.common.KafkaException if the cluster cannot be reached in time
   */
  public ViolationFeed(Properties clientProperties, String topic, boolean fromBeginning,
      Consumer<Violation> sink, BiConsumer<String, String> undecodable) {
    this(clientProperties, topic, fromBeginning ? Long.MAX_VALUE : 0, sink, undecodable);
  }

  /**
   * Starts following, first re-reading up to {@code backlog} offsets of each partition: the
   * violations page's way to show what was published before this instance started. Offsets, not
   * records: transaction markers take offsets too, so somewhat fewer violations are re-read.
   *
   * @param clientProperties client settings, as for the other constructor
   * @param topic the violations topic
   * @param backlog offsets per partition to re-read before the end, 0 for only new violations,
   *     {@link Long#MAX_VALUE} for all
   * @param sink receives each violation
   * @param undecodable receives the coordinates and reason of a record that is not a violation
   * @throws IllegalStateException if the topic does not exist
   * @throws org.apache.kafka.common.KafkaException if the cluster cannot be reached in time
   */
  public ViolationFeed(Properties clientProperties, String topic, long backlog,
      Consumer<Violation> sink, BiConsumer<String, String> undecodable) {
    Properties props = new Properties();
    props.putAll(clientProperties);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.remove(ConsumerConfig.GROUP_ID_CONFIG);
    format = WireFormat.of(clientProperties);
    consumer = new KafkaConsumer<>(props);
    List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
        .map(p -> new TopicPartition(topic, p.partition())).toList();
    if (partitions.isEmpty()) {
      consumer.close();
      throw new IllegalStateException("topic " + topic + " does not exist");
    }
    consumer.assign(partitions);
    Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions);
    Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
    for (TopicPartition p : partitions) {
      consumer.seek(p, Math.max(begin.get(p), end.get(p) - Math.min(backlog, end.get(p))));
    }
    thread = new Thread(() -> run(sink, undecodable), "isowatch-violation-feed");
    thread.setDaemon(true);
    thread.start();
  }

  private void run(Consumer<Violation> sink, BiConsumer<String, String> undecodable) {
    try {
      while (true) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          String where = r.topic() + "-" + r.partition() + "@" + r.offset();
          RecordCodec.Decoded d;
          try {
            d = format.decode(r.topic(), r.value());
          } catch (RegistryFormat.RegistryFailureException e) {
            undecodable.accept(where, e.getMessage());
            continue;
          }
          if (d.record() instanceof Violation v) {
            sink.accept(v);
          } else {
            undecodable.accept(where, d.error() != null ? d.error()
                : "a " + d.record().getSchema().getName() + ", not a Violation");
          }
        }
      }
    } catch (WakeupException e) {
      // close() asked us to stop
    } finally {
      consumer.close(Duration.ofSeconds(5));
      format.close();
      stopped.countDown();
    }
  }

  /** Stops following and waits until the consumer is closed. */
  @Override
  public void close() {
    consumer.wakeup();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
