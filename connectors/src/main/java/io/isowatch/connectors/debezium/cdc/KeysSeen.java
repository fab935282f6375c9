package io.isowatch.connectors.debezium.cdc;

import io.isowatch.schemas.debezium.ListAppendRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The keys a CDC capture has shown ({@link ListAppendRows}: a key's baseline is published before
 * its first captured transaction, and never again), kept beside the capture's position so that a
 * restart knows them. Keys are added at the end of a batch, after the batch's records were
 * acknowledged and before its position is stored: a crash in between leaves keys whose
 * transactions will be read again, which then publish the same records (dropped by the monitor as
 * duplicates) and no second baseline.
 */
public sealed interface KeysSeen extends AutoCloseable {
  /**
   * @return every key added so far, by this run or an earlier one of the same capture
   * @throws UncheckedIOException if the store cannot be read
   */
  Set<String> load();

  /**
   * Adds keys durably: a file is written and forced to disk, a topic's records acknowledged.
   *
   * @param keys the keys, none already added
   * @throws UncheckedIOException if they cannot be stored; the capture then stops before storing its
   *     position
   */
  void add(Collection<String> keys);

  @Override
  void close();

  /**
   * One key per line, URL-encoded (UTF-8), appended.
   *
   * @param path the file, created on the first key
   */
  record File(Path path) implements KeysSeen {
    @Override
    public Set<String> load() {
      Set<String> keys = new HashSet<>();
      if (!Files.exists(path)) {
        return keys;
      }
      try {
        for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
          if (!line.isEmpty()) {
            keys.add(URLDecoder.decode(line, StandardCharsets.UTF_8));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the keys seen from " + path + ": " + e.getMessage(), e);
      }
      return keys;
    }

    @Override
    public void add(Collection<String> keys) {
      if (keys.isEmpty()) {
        return;
      }
      StringBuilder sb = new StringBuilder();
      keys.forEach(k -> sb.append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('\n'));
      try {
        Files.writeString(path, sb, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
            StandardOpenOption.WRITE, StandardOpenOption.SYNC);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot store the keys seen in " + path + ": " + e.getMessage(), e);
      }
    }

    @Override
    public void close() {}
  }

  /**
   * A compacted topic, created if absent (1 partition, the brokers' default replication factor),
   * each record's key {@code <capture name>/<key>} (so that captures may share it) and value {@code
   * 1}. {@link #load} reads the topic from its start to its end.
   */
  final class Kafka implements KeysSeen {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final String topic;
    private final String prefix;
    private final Map<String, String> clients;
    private KafkaProducer<String, String> producer;

    /**
     * @param topic the topic, e.g. {@code isowatch.capture-offsets.keys}
     * @param name the capture's name
     * @param clients Kafka client settings (bootstrap servers, security)
     */
    public Kafka(String topic, String name, Map<String, String> clients) {
      this.topic = topic;
      this.prefix = name + "/";
      this.clients = Map.copyOf(clients);
    }

    @Override
    public Set<String> load() {
      Properties p = properties();
      try (Admin admin = Admin.create(p)) {
        NewTopic t = new NewTopic(topic, Optional.of(1), Optional.empty())
            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        admin.createTopics(List.of(t)).all().get();
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new UncheckedIOException(new IOException("cannot create topic " + topic + ": "
              + e.getCause().getMessage(), e.getCause()));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UncheckedIOException(new IOException("interrupted creating " + topic, e));
      }
      p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
      p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
      p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      Set<String> keys = new HashSet<>();
      try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
        List<TopicPartition> parts = new ArrayList<>();
        for (PartitionInfo info : consumer.partitionsFor(topic, TIMEOUT)) {
          parts.add(new TopicPartition(topic, info.partition()));
        }
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        Map<TopicPartition, Long> end = consumer.endOffsets(parts, TIMEOUT);
        while (parts.stream().anyMatch(tp -> consumer.position(tp, TIMEOUT) < end.get(tp))) {
          for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
            if (r.key() != null && r.key().startsWith(prefix)) {
              keys.add(r.key().substring(prefix.length()));
            }
          }
        }
      } catch (org.apache.kafka.common.KafkaException e) {
        throw new UncheckedIOException(new IOException("cannot read the keys seen from topic " + topic + ": "
            + e.getMessage(), e));
      }
      return keys;
    }

    @Override
    public void add(Collection<String> keys) {
      if (keys.isEmpty()) {
        return;
      }
      if (producer == null) {
        Properties p = properties();
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(p);
      }
      try {
        var sent = keys.stream().map(k -> producer.send(new ProducerRecord<>(topic, prefix + k, "1"))).toList();
        producer.flush();
        for (var f : sent) {
          f.get();
        }
      } catch (ExecutionException | org.apache.kafka.common.KafkaException e) {
        throw new UncheckedIOException(new IOException("cannot store the keys seen in topic " + topic + ": "
            + e.getMessage(), e));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UncheckedIOException(new IOException("interrupted storing the keys seen", e));
      }
    }

    @Override
    public void close() {
      if (producer != null) {
        producer.close(TIMEOUT);
      }
    }

    private Properties properties() {
      Properties p = new Properties();
      p.putAll(clients);
      return p;
    }
  }
}
