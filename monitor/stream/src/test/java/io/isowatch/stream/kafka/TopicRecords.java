package io.isowatch.stream.kafka;

import io.isowatch.schemas.serde.WireFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Test helper: every committed record of a topic, from the beginning, decoded with {@link
 * WireFormat#of} the client settings (read_committed, no consumer group).
 */
public final class TopicRecords {
  private TopicRecords() {}

  /**
   * A decoded record with its key and partition.
   *
   * @param key the record key
   * @param partition its partition
   * @param value the decoded record, or null when it does not decode
   * @param raw the value's bytes as read
   * @param timestamp the record's Kafka timestamp, milliseconds since the epoch
   */
  public record Read(String key, int partition, SpecificRecord value, byte[] raw, long timestamp) {}

  /**
   * Reads what the topic holds now: polls until the consumer's position reaches the end offsets
   * taken at the start (the last stable offsets, for read_committed).
   *
   * @param bootstrapServers the cluster
   * @param topic the topic
   * @return its records, partition after partition, each in offset order
   */
  public static List<Read> readAll(String bootstrapServers, String topic) {
    Properties clients = new Properties();
    clients.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    return readAll(clients, topic);
  }

  /**
   * As {@link #readAll(String, String)}, with client settings (bootstrap servers, security).
   *
   * @param clients client settings; isolation level and auto-commit are set here; {@code
   *     apicurio.*} to read a registry's wire format ({@link WireFormat#of})
   * @param topic the topic
   * @return its records, partition after partition, each in offset order
   */
  public static List<Read> readAll(Properties clients, String topic) {
    Properties props = new Properties();
    props.putAll(clients);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
          .map(p -> new TopicPartition(topic, p.partition())).sorted(
              java.util.Comparator.comparingInt(TopicPartition::partition)).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
      List<Read> out = new ArrayList<>();
      try (WireFormat format = WireFormat.of(clients)) {
        for (TopicPartition p : partitions) {
          for (ConsumerRecord<String, byte[]> r : records) {
            if (r.partition() == p.partition()) {
              out.add(new Read(r.key(), r.partition(), format.decode(topic, r.value()).record(), r.value(),
                  r.timestamp()));
            }
          }
        }
      }
      return out;
    }
  }
}
