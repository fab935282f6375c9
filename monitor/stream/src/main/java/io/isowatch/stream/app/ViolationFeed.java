package io.isowatch.stream.app;

import io.isowatch.schemas.Violation;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.RegistryFormat;
import io.isowatch.schemas.serde.WireFormat;
import io.isowatch.stream.check.CheckerStage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
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
import org.apache.kafka.common.header.Header;
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
 * <p>Several monitor applications may publish to one violations topic, and any producer may write
 * to it. Given an application id, the feed hands over only the records whose header {@value
 * CheckerStage#APPLICATION_ID_HEADER} holds that id, which the checker sets on every violation
 * it publishes, and skips the others silently: the record is the only place that says who
 * published it (the {@code Violation} schema has no such field, and two applications may check the
 * same {@code historyId} at different levels, so filtering by history or partition could not tell
 * them apart), and a header needs no schema change. Violations written before the header existed
 * have none and are skipped too.
 *
 * <p>A record that does not decode as a {@code Violation} goes to the {@code undecodable} callback
 * with the codec's reason (or why the schema registry could not be asked). Callbacks run on the feed's thread, one at a time.
 */
public final class ViolationFeed implements AutoCloseable {
  private final KafkaConsumer<String, byte[]> consumer;
  private final WireFormat format;
  private final Thread thread;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final byte[] applicationId;

  /**
   * Starts following.
   *
   * @param clientProperties client settings (bootstrap servers, security, and {@code
   *     apicurio.*} when the topic is in a registry's wire format, see {@link
   *     WireFormat#of}); deserializers, isolation level and offset reset are set here
   * @param topic the violations topic
   * @param fromBeginning read the violations already there ({@code true}) or only new ones
   * @param applicationId the application whose violations to follow, {@code null} for every record
   * @param sink receives each violation
   * @param undecodable receives the record's coordinates ({@code topic-partition@offset}) and the
   *     reason of a record that is not a violation
   * @throws IllegalStateException if the topic does not exist
   * @throws org.apache.kafka.common.KafkaException if the cluster cannot be reached in time
   */
  public ViolationFeed(Properties clientProperties, String topic, boolean fromBeginning, String applicationId,
      Consumer<Violation> sink, BiConsumer<String, String> undecodable) {
    this(clientProperties, topic, fromBeginning ? Long.MAX_VALUE : 0, applicationId, sink, undecodable);
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
   * @param applicationId the application whose violations to follow, {@code null} for every record
   * @param sink receives each violation
   * @param undecodable receives the coordinates and reason of a record that is not a violation
   * @throws IllegalStateException if the topic does not exist
   * @throws org.apache.kafka.common.KafkaException if the cluster cannot be reached in time
   */
  public ViolationFeed(Properties clientProperties, String topic, long backlog, String applicationId,
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
    this.applicationId = applicationId == null ? null : applicationId.getBytes(StandardCharsets.UTF_8);
    thread = new Thread(() -> run(sink, undecodable), "isowatch-violation-feed");
    thread.setDaemon(true);
    thread.start();
  }

  private void run(Consumer<Violation> sink, BiConsumer<String, String> undecodable) {
    try {
      while (true) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          if (!publishedByUs(r)) {
            continue;
          }
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

  /** @return whether the record is the followed application's (every record when none is given) */
  private boolean publishedByUs(ConsumerRecord<String, byte[]> r) {
    if (applicationId == null) {
      return true;
    }
    Header h = r.headers().lastHeader(CheckerStage.APPLICATION_ID_HEADER);
    return h != null && Arrays.equals(h.value(), applicationId);
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
