package io.isowatch.stream.replay;

import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.WireFormat;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes {@link HistoryRecords} to the events topic with an idempotent producer ({@code
 * enable.idempotence=true}, {@code acks=all}: a retried send is written once and the records of one
 * partition keep their order; Kafka documentation, "Producer Configs"). Keys are {@code
 * historyId/sessionId} (string), values the single-object Avro encoding of {@link RecordCodec} (or a schema registry's
 * wire format, {@link WireFormat#of}), so
 * the records of one session land in one partition in session order; each record's timestamp is
 * its event time ({@link #eventTimeMillis}).
 *
 * <p>A broker that stops answering is told within {@link #GIVE_UP_AFTER}: the producer's {@code
 * delivery.timeout.ms} and {@code max.block.ms} are set to it (Kafka documentation, "Producer
 * Configs"), and {@link #publish} stops waiting at the first record that fails.
 *
 * <p>Not thread-safe; one replay at a time.
 */
public final class Replayer implements AutoCloseable {
  /**
   * How long a record may wait for the broker's acknowledgement, and a send for metadata or buffer
   * space, before the replay fails, in seconds.
   */
  public static final int GIVE_UP_AFTER_SECONDS = 30;

  /** {@link #GIVE_UP_AFTER_SECONDS} as a duration. */
  public static final Duration GIVE_UP_AFTER = Duration.ofSeconds(GIVE_UP_AFTER_SECONDS);

  /**
   * A replay that failed part-way, with how many of its records the broker had acknowledged.
   * Records are acknowledged in order within a partition, not across partitions: the count says how
   * many are stored, not which.
   */
  public static final class PublishException extends KafkaException {
    private final long acknowledged;
    private final long total;

    PublishException(String message, Throwable cause, long acknowledged, long total) {
      super(message, cause);
      this.acknowledged = acknowledged;
      this.total = total;
    }

    /** @return records the broker acknowledged (stored) before the failure */
    public long acknowledged() {
      return acknowledged;
    }

    /** @return records the replay meant to publish */
    public long total() {
      return total;
    }

    /**
     * @return whether the broker stopped answering (a record's delivery or a send timed out after
     *     {@link #GIVE_UP_AFTER}), rather than refusing a record
     */
    public boolean brokerStoppedAnswering() {
      return getCause() instanceof TimeoutException;
    }
  }

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
  private final WireFormat format;
  private final String topic;
  private boolean failed;

  /**
   * @param clientProperties client settings (bootstrap servers, security, and {@code
   *     apicurio.*} to write in a registry's wire format, see {@link WireFormat#of}); the serializers, {@code
   *     acks} and idempotence are set here, and one request in flight per broker unless {@code
   *     max.in.flight.requests.per.connection} is given: with more, a fresh idempotent producer
   *     whose first batch met a partition not yet led (a topic just created, a broker just
   *     restarted) was seen to get {@code OUT_OF_ORDER_SEQUENCE_NUMBER} for every later batch until
   *     its delivery timeout (Kafka 4.3.1 clients and broker, even after the admin client showed a
   *     leader); {@code delivery.timeout.ms} and {@code max.block.ms} are {@link #GIVE_UP_AFTER}
   *     ({@code delivery.timeout.ms} more if {@code linger.ms + request.timeout.ms} needs it), and
   *     {@code request.timeout.ms} 10 s unless given
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
    props.putIfAbsent(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
    props.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
    long floor = Long.parseLong(props.get(ProducerConfig.LINGER_MS_CONFIG).toString())
        + Long.parseLong(props.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG).toString());
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(Math.max(GIVE_UP_AFTER.toMillis(), floor)));
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(GIVE_UP_AFTER.toMillis()));
    this.format = WireFormat.of(clientProperties);
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
   * @throws PublishException if a send fails after the producer's retries (the first failure, with
   *     the broker's reason, and how many records were acknowledged), at most about {@link
   *     #GIVE_UP_AFTER} after the broker stopped answering
   */
  public Counts publish(HistoryRecords records, boolean wholeTransactions, LongConsumer progress) {
    Sender sender = new Sender(progress, wholeTransactions ? records.transactions() : records.events());
    if (wholeTransactions) {
      records.forEachTransaction(sender);
    } else {
      records.forEachEvent(sender);
    }
    sender.finish();
    return new Counts(records.transactions(), sender.records, sender.bytes, records.unknownReadsLeftOut());
  }

  /**
   * Publishes some records (e.g. part of a history's events) and waits until the broker
   * acknowledged all of them.
   *
   * @param records records with their keys, in the order to publish
   * @return the number of records published
   * @throws PublishException if a send fails after the producer's retries
   */
  public long publish(List<HistoryRecords.Keyed> records) {
    Sender sender = new Sender(n -> { }, records.size());
    records.forEach(sender);
    sender.finish();
    return sender.records;
  }

  /**
   * @return the record's event time in milliseconds since the epoch: a {@link TxnEvent}'s {@code
   *     time}, a {@link Transaction}'s {@code endTime}; it becomes the Kafka record's timestamp, so
   *     that Kafka Streams' stream time follows the history's event time (Kafka Streams
   *     documentation, "Time": the default timestamp extractor reads the record timestamp)
   */
  static long eventTimeMillis(SpecificRecord record) {
    if (record instanceof TxnEvent e) {
      return e.getTime().toEpochMilli();
    }
    if (record instanceof Transaction t) {
      return t.getEndTime().toEpochMilli();
    }
    throw new IllegalArgumentException("not a TxnEvent or Transaction: " + record.getSchema().getName());
  }

  /**
   * Sends records asynchronously, counting acknowledgements and remembering the first failure,
   * after which it sends nothing more.
   */
  private final class Sender implements Consumer<HistoryRecords.Keyed> {
    private final LongConsumer progress;
    private final long total;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    /** Records whose send completed, acknowledged or failed; guarded by this. */
    private long completed;
    /** Records acknowledged; guarded by this. */
    private long acknowledged;
    private long records;
    private long bytes;

    Sender(LongConsumer progress, long total) {
      this.progress = progress;
      this.total = total;
    }

    @Override
    public void accept(HistoryRecords.Keyed keyed) {
      if (failure.get() != null) {
        return;
      }
      byte[] value = format.encode(topic, keyed.value());
      producer.send(new ProducerRecord<>(topic, null, eventTimeMillis(keyed.value()), keyed.key(), value), (meta, e) -> {
        if (e != null) {
          failure.compareAndSet(null, e);
        }
        synchronized (this) {
          completed++;
          if (e == null) {
            acknowledged++;
          }
          notifyAll();
        }
      });
      records++;
      bytes += value.length;
      progress.accept(records);
    }

    /**
     * Waits until every record sent is acknowledged, or until the first failure, which it throws
     * (the records still waiting are then dropped by {@link #close}). Not {@code producer.flush()},
     * which would wait for every record to fail too: up to {@code delivery.timeout.ms} after the
     * last one was sent. Batches leave after {@code linger.ms} by themselves.
     */
    void finish() {
      synchronized (this) {
        while (completed < records && failure.get() == null) {
          try {
            wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted while publishing to " + topic, e);
          }
        }
        Exception e = failure.get();
        if (e != null) {
          failed = true;
          throw new PublishException("publishing to " + topic + " failed: " + e.getMessage(), e, acknowledged, total);
        }
      }
    }
  }

  /**
   * Closes the producer: waits up to 30 s for records still being sent, or, after a failed {@link
   * #publish}, drops them at once.
   */
  @Override
  public void close() {
    producer.close(failed ? Duration.ZERO : Duration.ofSeconds(30));
    format.close();
  }
}
