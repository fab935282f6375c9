package io.isowatch.bench.stream;

import io.isowatch.bench.family.SerialRegisterHistories;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.WitnessTransaction;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.EmbeddedKafka;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.replay.HistoryRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The detection-latency point: whole transactions offered at a fixed rate to a running monitor
 * (expected level causal), with one causal-consistency violation injected every {@code every}
 * transactions; the latency of a violation is the time from the publication of the last of its
 * witness's transactions to the violation's arrival at a {@code read_committed} consumer of the
 * violations topic (wall clock of this JVM on both ends; event times are set to the send time).
 *
 * <p>The injected pattern, on fresh keys {@code a} and {@code b} per injection: session {@code v1}
 * writes {@code a=0}, then {@code a=1}; session {@code v2} reads {@code a=1} and writes {@code b=1};
 * session {@code v3} reads {@code b=1} and then {@code a=0}. The write of {@code a=1} is in the
 * reader's causal past, so reading the older {@code a=0} breaks causal consistency and not read
 * atomic (Biswas &amp; Enea, OOPSLA 2019, §3).
 */
final class LatencyRun {
  /**
   * @param injected violations injected
   * @param published violations read from the violations topic
   * @param p50Ms median latency (ms)
   * @param p99Ms 99th percentile (ms)
   * @param maxMs largest latency (ms)
   */
  record Result(int injected, int published, double p50Ms, double p99Ms, double maxMs) {}

  private static final long LABEL_BASE = 1_000_000_000L;
  private static final Duration DRAIN = Duration.ofSeconds(60);

  private final EmbeddedKafka kafka;
  private final int rate;
  private final int seconds;
  private final int every;
  private final int window;
  private final long seed;
  private final Properties tuning;

  /**
   * @param kafka the broker
   * @param rate offered load, transactions per second
   * @param seconds length of the run
   * @param every one injected violation per this many transactions
   * @param window the checker's window in transactions
   * @param seed generation seed
   * @param tuning Kafka Streams settings laid over the monitor's ({@code processing.guarantee},
   *     {@code commit.interval.ms})
   */
  LatencyRun(EmbeddedKafka kafka, int rate, int seconds, int every, int window, long seed, Properties tuning) {
    this.tuning = tuning;
    this.kafka = kafka;
    this.rate = rate;
    this.seconds = seconds;
    this.every = every;
    this.window = window;
    this.seed = seed;
  }

  /**
   * @return the measured point
   * @throws IOException if the state directory cannot be created
   * @throws InterruptedException if interrupted while waiting for the monitor to start
   */
  Result run() throws IOException, InterruptedException {
    int total = rate * seconds;
    int injections = total / every;
    History base = SerialRegisterHistories.generate(SerialRegisterHistories.Shape.standard(total - 4 * injections), seed);
    List<Transaction> plan = interleave(records(base), records(injected(injections)), every);
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics("bench.latency", "bench.latency.violations", "bench.latency.dlq")
        .withExpectedLevel(Level.CAUSAL)
        .withWindow(window, Duration.ZERO);
    for (String t : List.of(config.eventsTopic(), config.violationsTopic(), config.dlqTopic())) {
      kafka.createTopic(t, 1, Optional.empty());
    }
    Properties overlay = new Properties();
    overlay.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("isowatch-bench-latency").toString());
    overlay.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1");
    overlay.putAll(tuning);
    CountDownLatch running = new CountDownLatch(1);
    Map<String, Long> sentMicros = new ConcurrentHashMap<>();
    List<Double> latenciesMs = new ArrayList<>();
    try (MonitorApp app = MonitorApp.start(config, MonitorMetrics.inMemory(),
            MonitorApp.properties("bench-latency-" + System.nanoTime(), kafka.bootstrapServers(), overlay),
            s -> { if (s == KafkaStreams.State.RUNNING) { running.countDown(); } });
         KafkaConsumer<String, byte[]> consumer = consumer(config.violationsTopic());
         KafkaProducer<String, byte[]> producer = producer()) {
      if (!running.await(2, TimeUnit.MINUTES)) {
        throw new IllegalStateException("the monitor did not reach RUNNING in 2 minutes");
      }
      AtomicBoolean stop = new AtomicBoolean();
      Thread reader = new Thread(() -> read(consumer, sentMicros, latenciesMs, injections, stop), "violations-reader");
      reader.start();
      long start = System.nanoTime();
      for (int j = 0; j < plan.size(); j++) {
        long due = start + (long) (j * (1e9 / rate));
        for (long now = System.nanoTime(); now < due; now = System.nanoTime()) {
          LockSupport.parkNanos(due - now);
        }
        Transaction t = plan.get(j);
        Instant now = Instant.now();
        t.setBeginTime(now);
        t.setEndTime(now);
        sentMicros.put(t.getTxnId(), now.getEpochSecond() * 1_000_000L + now.getNano() / 1000);
        producer.send(new ProducerRecord<>(config.eventsTopic(), t.getHistoryId() + "/" + t.getSessionId(), RecordCodec.encode(t)));
      }
      producer.flush();
      reader.join(DRAIN.toMillis());
      stop.set(true);
      reader.join();
    }
    double[] sorted;
    synchronized (latenciesMs) {
      sorted = latenciesMs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }
    System.out.printf(Locale.ROOT, "latency: %d of %d injected violations published%n", sorted.length, injections);
    return new Result(injections, sorted.length, percentile(sorted, 0.50), percentile(sorted, 0.99),
        sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1]);
  }

  private static void read(KafkaConsumer<String, byte[]> consumer, Map<String, Long> sentMicros,
      List<Double> latenciesMs, int expected, AtomicBoolean stop) {
    while (!stop.get()) {
      for (var r : consumer.poll(Duration.ofMillis(100))) {
        Instant now = Instant.now();
        long arrived = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
        Violation v = (Violation) RecordCodec.decode(r.value()).record();
        long last = 0;
        for (WitnessTransaction w : v.getWitness().getTransactions()) {
          last = Math.max(last, sentMicros.getOrDefault(w.getTxnId(), 0L));
        }
        synchronized (latenciesMs) {
          latenciesMs.add((arrived - last) / 1000.0);
          if (latenciesMs.size() >= expected) {
            return;
          }
        }
      }
    }
  }

  private static double percentile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
  }

  /** @return {@code n} copies of the injected pattern, on keys {@code a<i>}, {@code b<i>} */
  private static History injected(int n) {
    History h = new History();
    int v1 = h.session("v1");
    int v2 = h.session("v2");
    int v3 = h.session("v3");
    long label = LABEL_BASE;
    for (int i = 0; i < n; i++) {
      int a = h.key("a" + i);
      int b = h.key("b" + i);
      h.beginTxn(v1, label++);
      h.write(a, 0);
      h.end(TxnStatus.COMMITTED);
      h.beginTxn(v1, label++);
      h.write(a, 1);
      h.end(TxnStatus.COMMITTED);
      h.beginTxn(v2, label++);
      h.read(a, 1);
      h.write(b, 1);
      h.end(TxnStatus.COMMITTED);
      h.beginTxn(v3, label++);
      h.read(b, 1);
      h.read(a, 0);
      h.end(TxnStatus.COMMITTED);
    }
    return h;
  }

  private static List<Transaction> records(History h) {
    List<Transaction> out = new ArrayList<>(h.txnCount());
    new HistoryRecords(h, "bench", Instant.EPOCH, Duration.ofNanos(1000))
        .forEachTransaction(k -> out.add((Transaction) k.value()));
    return out;
  }

  /** @return the base transactions with the injected ones, four at a time, after every {@code every - 4} */
  private static List<Transaction> interleave(List<Transaction> base, List<Transaction> extra, int every) {
    List<Transaction> out = new ArrayList<>(base.size() + extra.size());
    int e = 0;
    for (int i = 0; i < base.size(); i++) {
      out.add(base.get(i));
      if ((i + 1) % (every - 4) == 0 && e < extra.size()) {
        out.addAll(extra.subList(e, e + 4));
        e += 4;
      }
    }
    out.addAll(extra.subList(e, extra.size()));
    return out;
  }

  private KafkaConsumer<String, byte[]> consumer(String topic) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p);
    TopicPartition tp = new TopicPartition(topic, 0);
    c.assign(List.of(tp));
    c.seekToBeginning(List.of(tp));
    return c;
  }

  private KafkaProducer<String, byte[]> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "1");
    return new KafkaProducer<>(p);
  }
}
