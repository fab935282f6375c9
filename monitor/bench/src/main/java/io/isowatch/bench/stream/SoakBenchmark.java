package io.isowatch.bench.stream;

import io.isowatch.bench.family.SerialRegisterHistories;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.connectors.kafka.KafkaTransactionSink;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.EmbeddedKafka;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.ProducerConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The soak benchmark of issue 8: a long replay through one monitor instance on an in-process KRaft
 * broker, sampling after each step of {@code --sample-every} checked transactions the heap after a
 * full GC (bytes), the process's resident set (bytes), the keys and bytes held by the RocksDB state
 * stores and the window's size (transactions), to show that memory and state stay flat once the
 * window is full.
 *
 * <p>Workload: the register family of the streaming benchmark ({@link SerialRegisterHistories}, 8
 * operations per transaction, 50 sessions, half reads, a serial "database", so no violation),
 * generated as it is published ({@link SerialRegisterHistories#generate(SerialRegisterHistories.Shape,
 * long, SerialRegisterHistories.Sink)}, O(keys) memory) as whole {@code Transaction} records on one
 * partition, checked at causal consistency (RC+RA+CC) with {@code exactly_once_v2}. The producer
 * stays at most {@code --max-lag} transactions ahead of the checker, so the figure is the monitor's
 * sustained rate and the broker's log stays small. Event time advances {@value #EVENT_TIME_STEP_MICROS}
 * µs per transaction.
 */
@Command(name = "isowatch-soak-bench", mixinStandardHelpOptions = true,
    description = "Replays a long serial register history through one monitor and samples heap and state size.")
public final class SoakBenchmark implements Callable<Integer> {
  /**
   * Event time between consecutive transactions, µs: 1,000 transactions per second of event time,
   * so that what the monitor keeps for an event-time span (the assembler's duplicate retention, 60 s
   * by default: 60,000 transactions) is bounded as in a real run, not the whole replay.
   */
  static final long EVENT_TIME_STEP_MICROS = 1_000;

  @Option(names = "--transactions", description = "Transactions to replay (default: ${DEFAULT-VALUE}).")
  long transactions = 10_000_000;

  @Option(names = "--window", description = "Window of the checker in transactions (default: ${DEFAULT-VALUE}).")
  int window = 1_000_000;

  @Option(names = "--sample-every", description = "Transactions checked between samples (default: ${DEFAULT-VALUE}).")
  long sampleEvery = 500_000;

  @Option(names = "--max-lag", description = "Transactions the producer may run ahead of the checker (default: ${DEFAULT-VALUE}).")
  long maxLag = 200_000;

  @Option(names = "--keys", description = "Keys of the workload (default: ${DEFAULT-VALUE}).")
  int keys = 100_000;

  @Option(names = "--seed", description = "Generation seed (default: ${DEFAULT-VALUE}).")
  long seed = 1;

  /**
   * One sample, taken when the checker had checked {@code checked} transactions.
   *
   * @param checked transactions checked so far
   * @param seconds since the monitor started
   * @param txnPerSecond transactions checked per second since the previous sample
   * @param heapBytes heap in use after a full GC
   * @param rssBytes the process's resident set (heap, RocksDB's native memory, code)
   * @param storeKeys keys in all RocksDB state stores (RocksDB's {@code estimate-num-keys})
   * @param storeBytes bytes of all RocksDB state stores: memtables plus SST files ({@code
   *     size-all-mem-tables + total-sst-files-size})
   * @param window transactions in the window
   */
  record Sample(long checked, double seconds, double txnPerSecond, long heapBytes, long rssBytes, long storeKeys,
      long storeBytes, double window) {}

  /**
   * Runs the benchmark; exit code 0, 1 if the replay failed, 2 on bad options.
   *
   * @param args see {@code --help}
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new SoakBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (transactions > Integer.MAX_VALUE || transactions < 1 || sampleEvery < 1 || window < 1) {
      throw new CommandLine.ParameterException(new CommandLine(this),
          "--transactions must be in [1, 2^31), --sample-every and --window at least 1");
    }
    System.out.printf(Locale.ROOT, "# isowatch soak benchmark: %,d transactions x 8 ops, 50 sessions, %,d keys, window %,d,"
        + " RC+RA+CC, exactly_once_v2, max heap %,d MiB, started %s%n", transactions, keys, window,
        Runtime.getRuntime().maxMemory() >> 20, Instant.now());
    List<Sample> samples = new ArrayList<>();
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      MonitorConfig config = MonitorConfig.defaults()
          .withTopics("soak.events", "soak.violations", "soak.dlq")
          .withExpectedLevel(Level.CAUSAL)
          .withWindow(window, Duration.ZERO);
      for (String topic : List.of(config.eventsTopic(), config.violationsTopic(), config.dlqTopic())) {
        kafka.createTopic(topic, 1, Optional.of(Duration.ofMinutes(10)));
      }
      MonitorMetrics metrics = MonitorMetrics.inMemory();
      Counter checked = metrics.registry().get("isowatch.transactions.checked").counter();
      Path state = Files.createTempDirectory("isowatch-soak-state");
      Properties props = ThroughputRun.streamsProperties("soak-" + System.nanoTime(), kafka.bootstrapServers(), state,
          new Properties());
      AtomicLong sent = new AtomicLong();
      AtomicReference<Throwable> producerFailure = new AtomicReference<>();
      try (MonitorApp app = MonitorApp.start(config, metrics, props, s -> { })) {
        Thread producer = new Thread(() -> {
          try {
            produce(kafka.bootstrapServers(), config.eventsTopic(), sent, checked);
          } catch (Throwable e) {
            producerFailure.set(e);
          }
        }, "soak-producer");
        producer.setDaemon(true);
        producer.start();
        long t0 = System.nanoTime();
        long lastT = t0;
        long lastN = 0;
        long next = sampleEvery;
        while (lastN < transactions) {
          if (producerFailure.get() != null) {
            throw new IllegalStateException("the producer failed", producerFailure.get());
          }
          if (checked.count() < Math.min(next, transactions)) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            continue;
          }
          long now = System.nanoTime();
          long n = (long) checked.count();
          System.gc();
          System.gc();
          Sample s = new Sample(n, (now - t0) / 1e9, (n - lastN) / ((now - lastT) / 1e9),
              memory.getHeapMemoryUsage().getUsed(), residentBytes(), rocksDb(app, "estimate-num-keys"),
              rocksDb(app, "size-all-mem-tables") + rocksDb(app, "total-sst-files-size"), windowGauge(metrics));
          samples.add(s);
          System.out.printf(Locale.ROOT, "checked %,d in %.0f s: %,.0f txn/s, heap after GC %,d MiB, RSS %,d MiB,"
              + " stores %,d keys %,d MiB, window %,.0f%n", s.checked(), s.seconds(), s.txnPerSecond(),
              s.heapBytes() >> 20, s.rssBytes() >> 20, s.storeKeys(), s.storeBytes() >> 20, s.window());
          lastT = System.nanoTime();
          lastN = n;
          next = n - n % sampleEvery + sampleEvery;
        }
      }
    }
    System.out.println();
    System.out.println("| transactions checked | seconds | txn/s since last | heap after full GC (MiB) | RSS (MiB) | store keys | store MiB | window (txn) |");
    System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Sample s : samples) {
      System.out.printf(Locale.ROOT, "| %,d | %.0f | %,.0f | %,d | %,d | %,d | %,d | %,.0f |%n", s.checked(), s.seconds(),
          s.txnPerSecond(), s.heapBytes() >> 20, s.rssBytes() >> 20, s.storeKeys(), s.storeBytes() >> 20, s.window());
    }
    List<Sample> full = samples.stream().filter(s -> s.checked() >= 2L * window).toList();
    if (full.size() >= 2) {
      long min = full.stream().mapToLong(Sample::heapBytes).min().orElseThrow();
      long max = full.stream().mapToLong(Sample::heapBytes).max().orElseThrow();
      long kmin = full.stream().mapToLong(Sample::storeKeys).min().orElseThrow();
      long kmax = full.stream().mapToLong(Sample::storeKeys).max().orElseThrow();
      System.out.printf(Locale.ROOT, "%nfrom %,d transactions on (twice the window): heap after full GC %,d..%,d MiB"
          + " (spread %.1f%%), store keys %,d..%,d over %d samples%n", 2L * window, min >> 20, max >> 20,
          100.0 * (max - min) / max, kmin, kmax, full.size());
    }
    return 0;
  }

  /**
   * Generates the workload into the topic, never more than {@link #maxLag} transactions ahead of
   * {@code checked}.
   */
  private void produce(String bootstrapServers, String topic, AtomicLong sent, Counter checked) {
    String[] keyNames = new String[keys];
    for (int k = 0; k < keys; k++) {
      keyNames[k] = "k" + k;
    }
    long[] seqs = new long[SerialRegisterHistories.SESSIONS];
    long startMicros = TimeUnit.MILLISECONDS.toMicros(System.currentTimeMillis());
    Map<String, Object> producer = Map.of(ProducerConfig.LINGER_MS_CONFIG, 20, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    try (KafkaTransactionSink sink = new KafkaTransactionSink(bootstrapServers, topic, producer)) {
      SerialRegisterHistories.generate(new SerialRegisterHistories.Shape((int) transactions, keys, 0.5, 1.5), seed,
          new SerialRegisterHistories.Sink() {
            private final List<Operation> ops = new ArrayList<>(SerialRegisterHistories.OPS_PER_TXN);
            private int session;
            private long label;

            @Override
            public void begin(int session, long label) {
              this.session = session;
              this.label = label;
              ops.clear();
            }

            @Override
            public void read(int key, long value) {
              ops.add(new Operation(OpKind.READ, keyNames[key], value == History.NIL ? null : value));
            }

            @Override
            public void write(int key, long value) {
              ops.add(new Operation(OpKind.WRITE, keyNames[key], value));
            }

            @Override
            public void commit() {
              while (sent.get() - checked.count() > maxLag) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
              }
              long begin = startMicros + label * EVENT_TIME_STEP_MICROS;
              sink.accept(Transaction.newBuilder()
                  .setHistoryId("soak")
                  .setSessionId("s" + session)
                  .setTxnId("T" + label)
                  .setTxnSeq(seqs[session]++)
                  .setStatus(TxnStatus.COMMITTED)
                  .setOps(new ArrayList<>(ops))
                  .setBeginTime(Instant.ofEpochSecond(0, begin * 1000))
                  .setEndTime(Instant.ofEpochSecond(0, (begin + EVENT_TIME_STEP_MICROS / 2) * 1000))
                  .build());
              sent.incrementAndGet();
            }
          });
    }
  }

  private static double windowGauge(MonitorMetrics metrics) {
    var gauge = metrics.registry().find("isowatch.window.transactions").gauge();
    return gauge == null ? Double.NaN : gauge.value();
  }

  /**
   * @return the sum over all RocksDB state stores of one of Kafka Streams' RocksDB property metrics
   *     (Kafka Streams docs, "RocksDB metrics", recorded at the INFO level), e.g. {@code
   *     estimate-num-keys}
   */
  private static long rocksDb(MonitorApp app, String metric) {
    long sum = 0;
    for (var e : app.streams().metrics().entrySet()) {
      if (e.getKey().name().equals(metric) && e.getValue().metricValue() instanceof Number n) {
        sum += n.longValue();
      }
    }
    return sum;
  }

  /** @return this process's resident set size ({@code VmRSS} of {@code /proc/self/status}), or -1 */
  private static long residentBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
