package io.isowatch.connectors.debezium.adapter;

import io.isowatch.connectors.debezium.cdc.CapturedTransaction;
import io.isowatch.connectors.debezium.cdc.ChangeAssembly;
import io.isowatch.connectors.debezium.cdc.TransactionAssembler;
import io.isowatch.connectors.debezium.envelope.Rejects;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the change events that a Debezium connector running elsewhere (Kafka Connect, Debezium
 * Server; any of the PostgreSQL, MySQL or MariaDB connectors) wrote to Kafka with the {@code
 * JsonConverter}, with or without schemas, together with its transaction-metadata topic ({@code
 * <topic.prefix>.transaction}, {@code provide.transaction.metadata=true}), and turns them into
 * database transactions ({@link CapturedTransaction}) grouped by the database's transaction id, the
 * same path as the embedded engine ({@link ChangeAssembly}, {@link TransactionAssembler}). Feed the
 * result to {@link io.isowatch.connectors.debezium.cdc.CommitCrossCheck}.
 *
 * <p>Offsets are stored in Kafka under the consumer group, committed only at quiet points, when
 * every transaction read so far is whole: a restart then resumes where no transaction is half read.
 * Transactions emitted after the last quiet point are emitted again after a crash (at least once);
 * the monitor ignores a repeated identical record. Not thread-safe: call {@link #poll} from one
 * thread.
 */
public final class TopicAdapter implements AutoCloseable {
  private final KafkaConsumer<String, String> consumer;
  private final TransactionAssembler assembler;
  private final ChangeAssembly assembly;

  /**
   * @param bootstrapServers e.g. {@code localhost:9092}
   * @param groupId the consumer group keeping the adapter's offsets, e.g. {@code isowatch-cdc}
   * @param topics the connector's table topics and its transaction-metadata topic, e.g. {@code
   *     dbserver1.shop.orders}, {@code dbserver1.transaction}
   * @param overrides further consumer properties (security); auto commit stays off
   * @param out receives each whole transaction, on the polling thread
   * @param rejects receives undecodable events with the reason
   */
  public TopicAdapter(String bootstrapServers, String groupId, Collection<String> topics,
      Map<String, Object> overrides, Consumer<CapturedTransaction> out, Rejects rejects) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.putAll(overrides);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    this.assembler = new TransactionAssembler(out);
    this.assembly = new ChangeAssembly(assembler, rejects);
    consumer.subscribe(List.copyOf(topics));
  }

  /**
   * Polls once, feeds every record to the assembly, and commits the group's offsets if no
   * transaction is left half read.
   *
   * @param timeout how long to wait for records
   * @return how many records were read
   * @throws org.apache.kafka.common.KafkaException if the consumer fails
   */
  public int poll(Duration timeout) {
    int n = 0;
    for (ConsumerRecord<String, String> r : consumer.poll(timeout)) {
      assembly.handle(r.topic(), r.key(), r.value());
      n++;
    }
    if (n > 0 && !assembler.hasPending()) {
      consumer.commitSync();
    }
    return n;
  }

  /** @return the transactions read in part so far (see {@link TransactionAssembler#pending}) */
  public List<CapturedTransaction> pending() {
    return assembler.pending();
  }

  /** @return how many events were rejected so far */
  public long rejected() {
    return assembly.rejected();
  }

  /** Closes the consumer without committing further. */
  @Override
  public void close() {
    consumer.close(CloseOptions.timeout(Duration.ofSeconds(10)));
  }
}
