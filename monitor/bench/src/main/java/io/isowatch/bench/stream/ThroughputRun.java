package io.isowatch.bench.stream;

import io.isowatch.checker.level.Level;
import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.EmbeddedKafka;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.RecordSerde;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * One throughput point: the raw consume rate of a topic (a plain consumer reading every record's
 * bytes, no decoding), the same consumer's rate when it also decodes every record, and, measured
 * right after them on the same topic, the rate at which the
 * monitor's topology checks its transactions, plus the heap the topology holds per transaction of a
 * full window.
 *
 * <p>The topology's rate is taken between the first and the last transaction the checker counts
 * ({@code isowatch.transactions.checked}), so the consumer group's start-up is not in it; the counter
 * is sampled every 10 ms (the resolution of the figure). Over the same interval it takes the CPU
 * time of the stream thread ({@link ThreadMXBean#getThreadCpuTime}) and of the whole JVM, broker
 * included ({@link com.sun.management.OperatingSystemMXBean#getProcessCpuTime}): on a shared machine
 * the wall-clock rate also measures the other load, the CPU time per transaction much less so.
 */
final class ThroughputRun {
  private static final Duration LIMIT = Duration.ofMinutes(15);

  /**
   * @param form {@code whole} or {@code events}
   * @param records records in the topic
   * @param rawTxnPerSecond transactions per second read by the plain consumer
   * @param decodedTxnPerSecond transactions per second read by the same consumer decoding each
   *     record ({@link RecordCodec#decode}), the least any topology of the monitor does
   * @param topologyTxnPerSecond transactions per second checked by the topology
   * @param heapBytesPerWindowedTxn heap held after a full GC with the window full, above the heap
   *     before the topology started, divided by the transactions in the window (bytes)
   * @param streamThreadCpuMicrosPerTxn CPU time of the stream thread while the topology was timed,
   *     per transaction checked (µs)
   * @param processCpuMicrosPerTxn CPU time of the whole JVM (broker, producers, stream thread) over
   *     the same interval, per transaction checked (µs)
   * @param changelogRecordsPerTxn records written to the topology's changelog topics (transaction
   *     markers included) per transaction
   * @param floor the no-op topology of the monitor's shape on the same topic
   */
  record Result(String form, long records, double rawTxnPerSecond, double decodedTxnPerSecond, double topologyTxnPerSecond,
      double heapBytesPerWindowedTxn, double streamThreadCpuMicrosPerTxn, double processCpuMicrosPerTxn,
      double changelogRecordsPerTxn, Timed floor) {}

  /**
   * A topology timed over a topic ({@link #timed}): the monitor's, or the no-op floor of its shape
   * (the framework's floor on the same topic, measured like the monitor).
   *
   * @param txnPerSecond transactions per second through it
   * @param streamThreadCpuMicrosPerTxn CPU time of its stream thread per transaction (µs)
   * @param processCpuMicrosPerTxn CPU time of the whole JVM per transaction (µs)
   */
  record Timed(double txnPerSecond, double streamThreadCpuMicrosPerTxn, double processCpuMicrosPerTxn) {}

  private final EmbeddedKafka kafka;
  private final String topic;
  private final String form;
  private final int transactions;
  private final long records;
  private final int window;
  private final Level level;
  private final Properties tuning;

  /**
   * @param kafka the broker
   * @param topic the input topic, one partition, already filled
   * @param form {@code whole} or {@code events}
   * @param transactions transactions in the topic
   * @param records records in the topic
   * @param window the checker's window in transactions
   * @param level the expected level
   * @param tuning Kafka Streams settings laid over the monitor's ({@code processing.guarantee},
   *     {@code commit.interval.ms})
   */
  ThroughputRun(EmbeddedKafka kafka, String topic, String form, int transactions, long records, int window, Level level,
      Properties tuning) {
    this.tuning = tuning;
    this.kafka = kafka;
    this.topic = topic;
    this.form = form;
    this.transactions = transactions;
    this.records = records;
    this.window = window;
    this.level = level;
  }

  /**
   * @return the measured point
   * @throws IOException if the state directory cannot be created
   * @throws IllegalStateException if the topology does not check every transaction within 15 min
   */
  Result run() throws IOException {
    double raw = consume(false);
    double decoded = consume(true);
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long before = heapAfterGc(memory);
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics(topic, topic + ".violations", topic + ".dlq")
        .withExpectedLevel(level)
        .withWindow(window, Duration.ZERO);
    kafka.createTopic(config.violationsTopic(), 1, Optional.empty());
    kafka.createTopic(config.dlqTopic(), 1, Optional.empty());
    MonitorMetrics metrics = MonitorMetrics.inMemory();
    Counter checked = metrics.registry().get("isowatch.transactions.checked").counter();
    Path state = Files.createTempDirectory("isowatch-bench-state");
    String applicationId = "bench-" + form + "-" + System.nanoTime();
    Properties props = streamsProperties(applicationId, kafka.bootstrapServers(), state, tuning);
    Timed timed;
    long heldPerTxn;
    try (MonitorApp app = MonitorApp.start(config, metrics, props, s -> { })) {
      timed = timed(checked::count);
      heldPerTxn = (heapAfterGc(memory) - before) / Math.min(window, transactions);
    }
    double rate = timed.txnPerSecond();
    double threadPerTxn = timed.streamThreadCpuMicrosPerTxn();
    double processPerTxn = timed.processCpuMicrosPerTxn();
    double changelogPerTxn = (double) changelogRecords(applicationId) / transactions;
    System.out.printf(Locale.ROOT, "%s: raw consume %,.0f txn/s, topology %,.0f txn/s, CPU per txn: stream thread %.1f µs, JVM %.1f µs;"
        + " %.2f changelog records per txn%n", form, raw, rate, threadPerTxn, processPerTxn, changelogPerTxn);
    Timed floor = floor(state);
    System.out.printf(Locale.ROOT, "%s: floor (no-op topology of the same shape) %,.0f txn/s, CPU per txn: stream thread %.1f µs, JVM %.1f µs%n",
        form, floor.txnPerSecond(), floor.streamThreadCpuMicrosPerTxn(), floor.processCpuMicrosPerTxn());
    return new Result(form, records, raw, decoded, rate, heldPerTxn, threadPerTxn, processPerTxn, changelogPerTxn, floor);
  }

  /**
   * Runs, on the same topic and with the monitor's Streams settings, a topology of the monitor's
   * shape that does none of its work: the events topic read as bytes, each record decoded
   * ({@link RecordCodec}) and counted, a whole {@code Transaction} (and, for op-level input, each
   * COMMIT or ABORT event as a stand-in for the assembled transaction) sent through a repartition
   * topic keyed by historyId, and counted again on the other side. No state stores. What the
   * monitor cannot beat on this machine with two sub-topologies and exactly-once.
   */
  private Timed floor(Path state) throws IOException {
    AtomicLong through = new AtomicLong();
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(topic, Consumed.with(Serdes.String(), Serdes.ByteArray()))
        .flatMap((k, v) -> {
          SpecificRecord r = RecordCodec.decode(v).record();
          if (r instanceof Transaction t) {
            return List.of(KeyValue.pair(t.getHistoryId(), (SpecificRecord) t));
          }
          if (r instanceof TxnEvent e && (e.getKind() == EventKind.COMMIT || e.getKind() == EventKind.ABORT)) {
            return List.of(KeyValue.pair(e.getHistoryId(), (SpecificRecord) e));
          }
          return List.<KeyValue<String, SpecificRecord>>of();
        })
        .repartition(Repartitioned.<String, SpecificRecord>as("floor").withKeySerde(Serdes.String())
            .withValueSerde(new RecordSerde()))
        .foreach((k, v) -> through.incrementAndGet());
    Properties props = streamsProperties("bench-floor-" + form + "-" + System.nanoTime(), kafka.bootstrapServers(),
        Files.createTempDirectory(state, "floor"), tuning);
    try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) {
      streams.start();
      return timed(through::get);
    }
  }

  /**
   * @param stateDir the Streams state directory
   * @param tuning Streams settings laid over the rest
   * @return the monitor's Streams settings ({@link MonitorApp#properties}) for one stream thread
   */
  static Properties streamsProperties(String applicationId, String bootstrapServers, Path stateDir, Properties tuning) {
    Properties overlay = new Properties();
    overlay.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    overlay.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1");
    overlay.putAll(tuning);
    return MonitorApp.properties(applicationId, bootstrapServers, overlay);
  }

  /**
   * Waits until {@code counted} reaches the transactions in the topic, timing from the first one
   * counted (sampled every 10 ms).
   *
   * @throws IllegalStateException if that takes longer than 15 minutes
   */
  private Timed timed(DoubleSupplier counted) {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long deadline = System.nanoTime() + LIMIT.toNanos();
    long t0 = 0;
    double c0 = 0;
    long thread0 = 0;
    long process0 = 0;
    while (counted.getAsDouble() < transactions) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the topology got through " + (long) counted.getAsDouble() + " of "
            + transactions + " transactions in " + LIMIT);
      }
      if (t0 == 0 && counted.getAsDouble() > 0) {
        t0 = System.nanoTime();
        c0 = counted.getAsDouble();
        thread0 = streamThreadCpuNanos();
        process0 = os.getProcessCpuTime();
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
    long t1 = System.nanoTime();
    double n = transactions - c0;
    return new Timed(n / ((t1 - t0) / 1e9), (streamThreadCpuNanos() - thread0) / 1e3 / n,
        (os.getProcessCpuTime() - process0) / 1e3 / n);
  }

  /**
   * Prints the records (transaction markers included) written to each changelog topic of the
   * application, its end offset.
   *
   * @return their sum
   */
  private long changelogRecords(String applicationId) {
    try {
      Admin admin = kafka.admin();
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (String t : admin.listTopics().names().get()) {
        if (t.startsWith(applicationId + "-") && t.endsWith("-changelog")) {
          latest.put(new TopicPartition(t, 0), OffsetSpec.latest());
        }
      }
      long sum = 0;
      for (var e : admin.listOffsets(latest).all().get().entrySet()) {
        sum += e.getValue().offset();
        System.out.printf(Locale.ROOT, "  changelog %s: %,d records%n", e.getKey().topic().substring(applicationId.length() + 1), e.getValue().offset());
      }
      return sum;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading changelog offsets", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot read changelog offsets", e.getCause());
    }
  }

  /** @return CPU time so far of the threads named {@code ...-StreamThread-<n>} (the stream threads), ns */
  static long streamThreadCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (t != null && t.getThreadName().matches(".*-StreamThread-\\d+")) {
        sum += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
      }
    }
    return sum;
  }

  /**
   * Reads the whole topic with a plain {@code read_committed} consumer, from its first poll to the
   * last record.
   *
   * @param decode whether each record's value is also decoded ({@link RecordCodec#decode})
   * @return transactions per second
   * @throws IllegalStateException if a record does not decode
   */
  private double consume(boolean decode) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
      TopicPartition tp = new TopicPartition(topic, 0);
      consumer.assign(List.of(tp));
      consumer.seekToBeginning(List.of(tp));
      long n = 0;
      long bytes = 0;
      long t0 = System.nanoTime();
      while (n < records) {
        ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(500));
        for (var r : batch) {
          bytes += r.value().length;
          n++;
          if (decode && RecordCodec.decode(r.value()).record() == null) {
            throw new IllegalStateException("record " + r.offset() + " of " + topic + " does not decode");
          }
        }
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf(Locale.ROOT, "%s: %s of %,d records (%,d bytes) in %.2f s%n", form,
          decode ? "consume and decode" : "raw consume", n, bytes, seconds);
      return transactions / seconds;
    }
  }

  private static long heapAfterGc(MemoryMXBean memory) {
    System.gc();
    System.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }
}
