package io.isowatch.bench.stream;

import io.isowatch.bench.family.SerialListAppendHistories;
import io.isowatch.bench.family.SerialRegisterHistories;
import io.isowatch.bench.window.WindowBenchmark;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.stream.kafka.EmbeddedKafka;
import io.isowatch.stream.replay.HistoryRecords;
import io.isowatch.stream.replay.Replayer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The streaming benchmark of issue 5: on an in-process KRaft broker, the sustained throughput of the
 * monitor's topology against the raw consume rate of the same topic, for both input forms (op-level
 * {@code TxnEvent}s and whole {@code Transaction}s); the detection latency at a fixed offered load;
 * and the heap per transaction in the window; and, on the same topics, the floor of a no-op topology of
 * the monitor's shape (two sub-topologies, exactly-once). Prints Markdown tables for {@code
 * docs/PERFORMANCE.md}.
 *
 * <p>Workload ({@code --family}): the checker benchmark's register family ({@link
 * SerialRegisterHistories}, 8 operations per transaction, 50 sessions, half reads), one history, one
 * partition (one checker task), checked with read committed, read atomic and causal consistency on
 * (expected level causal); or its list-append family ({@link SerialListAppendHistories}, Elle's
 * shape: 8 operations, 50 sessions, half appends and half whole-list reads, N/4 keys so a key's
 * list holds about 16 elements at the end), expected level serializable, so that the window's
 * incremental Adya check runs beside the axiomatic ones (no latency run: its injected violations are
 * register ones). Then the scale
 * rows ({@link ScaleTable}): one history of the register and of the list-append family over one and
 * two stream threads and two instances, whole and split check ({@code --split-levels}). This class
 * parses options and prints; {@link ThroughputRun}, {@link LatencyRun} and {@link ScaleRun} measure.
 */
@Command(name = "isowatch-stream-bench", mixinStandardHelpOptions = true,
    description = "Times the monitor's Kafka Streams topology on an in-process broker.")
public final class StreamBenchmark implements Callable<Integer> {
  @Option(names = "--transactions", description = "Transactions per throughput run (default: ${DEFAULT-VALUE}).")
  int transactions = 200_000;

  @Option(names = "--window", description = "Window of the checker in transactions (default: ${DEFAULT-VALUE}).")
  int window = 100_000;

  @Option(names = "--family", description = "Workload of the throughput, ceiling and latency rows: register or list-append"
      + " (default: ${DEFAULT-VALUE}).")
  String family = "register";

  @Option(names = "--forms", split = ",", description = "Input forms: whole, events (default: whole,events).")
  List<String> forms = List.of("whole", "events");

  @Option(names = "--latency-rate", description = "Offered load of the latency run, transactions/s (default: ${DEFAULT-VALUE}).")
  int latencyRate = 5_000;

  @Option(names = "--latency-seconds", description = "Length of the latency run in seconds, 0 for none (default: ${DEFAULT-VALUE}).")
  int latencySeconds = 20;

  @Option(names = "--violation-every", description = "In the latency run, one causal violation per this many transactions (default: ${DEFAULT-VALUE}).")
  int violationEvery = 500;

  @Option(names = "--warmup", description = "Transactions of a warm-up run of the topology, per form, and of the checker alone, before the timed ones "
      + "(another history and topic, results not reported; 0 for none; default: ${DEFAULT-VALUE}).")
  int warmup = 50_000;

  @Option(names = "--scale", split = ",", description = "Families of the scale rows (one history over 1 and 2 stream threads"
      + " and 2 instances, whole and split check): register, list-append; 'none' for none (default: register,list-append).")
  List<String> scaleFamilies = List.of("register", "list-append");

  @Option(names = "--scale-transactions", description = "Transactions of the scale rows' history, per family (default: ${DEFAULT-VALUE}).")
  int scaleTransactions = 100_000;

  @Option(names = "--scale-window", description = "Window of the scale rows in transactions (default: ${DEFAULT-VALUE}).")
  int scaleWindow = 20_000;

  @Option(names = "--scale-only", description = "Run only the scale rows (no throughput, ceiling or latency rows).")
  boolean scaleOnly;

  @Option(names = "--scale-list-append-transactions",
      description = "Transactions of the list-append scale rows, whose Adya check costs O(W) per transaction (default: ${DEFAULT-VALUE}).")
  int scaleListTransactions = 10_000;

  @Option(names = "--scale-list-append-window", description = "Window of the list-append scale rows (default: ${DEFAULT-VALUE}).")
  int scaleListWindow = 1_000;

  @Option(names = "--seed", description = "Generation seed (default: ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(names = "--processing-guarantee",
      description = "Kafka Streams processing.guarantee of the monitor: exactly_once_v2 or at_least_once (default: ${DEFAULT-VALUE}).")
  String guarantee = "exactly_once_v2";

  @Option(names = "--commit-interval-ms",
      description = "Kafka Streams commit.interval.ms of the monitor (default: the monitor's own, see MonitorTopology.streamsProperties).")
  Long commitIntervalMs;

  /**
   * Runs the benchmark; exit code 0, or 2 on bad options.
   *
   * @param args see {@code --help}
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new StreamBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (transactions < 2 || window < 2 || warmup < 0 || latencySeconds < 0 || latencyRate < 1 || violationEvery < 3) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--transactions and --window must be at least 2,"
          + " --warmup and --latency-seconds at least 0, --latency-rate at least 1, --violation-every at least 3");
    }
    boolean lists = family.equals("list-append");
    if (!lists && !family.equals("register")) {
      throw new CommandLine.ParameterException(new CommandLine(this), "unknown family '" + family + "': use register or list-append");
    }
    Level level = lists ? Level.SERIALIZABLE : Level.CAUSAL;
    for (String f : forms) {
      if (!f.equals("whole") && !f.equals("events")) {
        throw new CommandLine.ParameterException(new CommandLine(this), "unknown form '" + f + "': use whole or events");
      }
    }
    System.out.printf(Locale.ROOT, "# isowatch streaming benchmark: %s family, %d transactions x 8 ops, 50 sessions, window %d, %s, %s, commit.interval.ms %s, started %s%n",
        family, transactions, window, lists ? "RC+RA+CC and Adya (serializable)" : "levels RC+RA+CC", guarantee, commitIntervalMs == null ? "default" : commitIntervalMs, Instant.now());
    Properties tuning = new Properties();
    tuning.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
    if (commitIntervalMs != null) {
      tuning.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(commitIntervalMs));
    }
    History history = generate(lists, transactions, seed);
    List<ThroughputRun.Result> results = new ArrayList<>();
    LatencyRun.Result latency = null;
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      Properties client = new Properties();
      client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      History warmupHistory = warmup == 0 || scaleOnly ? null
          : generate(lists, warmup, seed + 1);
      for (String form : scaleOnly ? List.<String>of() : forms) {
        if (warmupHistory != null) {
          // the JIT compiles the topology's code paths here, not in the timed run
          String topic = "bench.warmup." + form;
          long published = publish(client, kafka, topic, warmupHistory, form);
          System.out.printf(Locale.ROOT, "warm-up: ");
          new ThroughputRun(kafka, topic, form, warmup, published, window, level, tuning).run();
        }
        String topic = "bench." + form;
        long published = publish(client, kafka, topic, history, form);
        results.add(new ThroughputRun(kafka, topic, form, transactions, published, window, level, tuning).run());
      }
      if (latencySeconds > 0 && !scaleOnly && !lists) {
        latency = new LatencyRun(kafka, latencyRate, latencySeconds, violationEvery, window, seed, tuning).run();
      }
      if (!scaleFamilies.equals(List.of("none"))) {
        ScaleTable.run(kafka, client, tuning, scaleFamilies, forms, new ScaleTable.Size(scaleTransactions, scaleWindow),
            new ScaleTable.Size(scaleListTransactions, scaleListWindow), seed);
      }
    }
    if (scaleOnly) {
      return 0;
    }
    // the checker alone, after the topology runs so that the JIT has compiled it as it runs there
    if (warmup > 0) {
      alone(lists, Math.max(warmup, 2), seed + 1, window);
    }
    WindowBenchmark.Run alone = alone(lists, transactions, seed, window);
    double aloneTxnPerSecond = 1e6 / alone.micros();
    System.out.printf(Locale.ROOT, "window checker alone: %.1f µs of thread CPU per txn, %,.0f txn/s on one core, %d violations%n",
        alone.micros(), aloneTxnPerSecond, alone.violations());
    System.out.println();
    System.out.println("| input form | records | raw consume (txn/s) | topology (txn/s) | topology / raw | stream thread CPU per txn (µs) | JVM CPU per txn (µs) | changelog records per txn | heap per windowed txn (bytes) |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (ThroughputRun.Result r : results) {
      System.out.printf(Locale.ROOT, "| %s | %,d | %,.0f | %,.0f | %.2f | %.1f | %.1f | %.1f | %,.0f |%n", r.form(), r.records(),
          r.rawTxnPerSecond(), r.topologyTxnPerSecond(), r.topologyTxnPerSecond() / r.rawTxnPerSecond(),
          r.streamThreadCpuMicrosPerTxn(), r.processCpuMicrosPerTxn(), r.changelogRecordsPerTxn(), r.heapBytesPerWindowedTxn());
    }
    System.out.println();
    System.out.println("| input form | no-op floor (txn/s) | floor / raw | floor stream thread CPU per txn (µs) | floor JVM CPU per txn (µs) | topology / floor |");
    System.out.println("|---|---:|---:|---:|---:|---:|");
    for (ThroughputRun.Result r : results) {
      ThroughputRun.Timed f = r.floor();
      System.out.printf(Locale.ROOT, "| %s | %,.0f | %.2f | %.1f | %.1f | %.2f |%n", r.form(), f.txnPerSecond(),
          f.txnPerSecond() / r.rawTxnPerSecond(), f.streamThreadCpuMicrosPerTxn(), f.processCpuMicrosPerTxn(),
          r.topologyTxnPerSecond() / f.txnPerSecond());
    }
    System.out.println();
    // a stream thread that checks must at least run the checker and the floor's work: their CPU
    // per transaction added is the least it can spend, so 10^6 over it is the most it can reach
    System.out.println("| input form | raw consume (txn/s) | consume and decode (txn/s) | decode / raw | window checker alone, one core (txn/s) | checker alone / raw | checker alone + floor, stream thread CPU per txn (µs) | at most (txn/s) | topology / checker alone |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (ThroughputRun.Result r : results) {
      double least = alone.micros() + r.floor().streamThreadCpuMicrosPerTxn();
      System.out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f | %.2f | %,.0f | %.3f | %.1f | %,.0f | %.2f |%n", r.form(), r.rawTxnPerSecond(),
          r.decodedTxnPerSecond(), r.decodedTxnPerSecond() / r.rawTxnPerSecond(), aloneTxnPerSecond,
          aloneTxnPerSecond / r.rawTxnPerSecond(), least, 1e6 / least, r.topologyTxnPerSecond() / aloneTxnPerSecond);
    }
    System.out.println();
    if (latency != null) {
      System.out.println("| offered load (txn/s) | seconds | violations injected | violations published | detection p50 (ms) | p99 (ms) | max (ms) |");
      System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
      System.out.printf(Locale.ROOT, "| %,d | %d | %d | %d | %.1f | %.1f | %.1f |%n", latencyRate, latencySeconds,
          latency.injected(), latency.published(), latency.p50Ms(), latency.p99Ms(), latency.maxMs());
    }
    return 0;
  }

  private static History generate(boolean lists, int transactions, long seed) {
    return lists ? SerialListAppendHistories.generate(SerialListAppendHistories.Shape.standard(transactions), seed)
        : SerialRegisterHistories.generate(SerialRegisterHistories.Shape.standard(transactions), seed);
  }

  /** The window checker alone on the family's history, one core, no Kafka. */
  private static WindowBenchmark.Run alone(boolean lists, int transactions, long seed, int window) {
    return lists ? WindowBenchmark.timeListWindow(transactions, seed, window)
        : WindowBenchmark.timeWindow(SerialRegisterHistories.Shape.standard(transactions), seed, window, Level.CAUSAL);
  }

  /** Publishes {@code history} to a new one-partition {@code topic} in {@code form}; returns the records sent. */
  private static long publish(Properties client, EmbeddedKafka kafka, String topic, History history, String form) {
    return publish(client, kafka, topic, 1, history, form);
  }

  /**
   * Publishes {@code history} (historyId {@code bench}) to a new {@code topic} of {@code partitions}
   * partitions in {@code form}, keyed by historyId/sessionId; returns the records sent.
   */
  static long publish(Properties client, EmbeddedKafka kafka, String topic, int partitions, History history,
      String form) {
    kafka.createTopic(topic, partitions, Optional.empty());
    HistoryRecords records = new HistoryRecords(history, "bench", Instant.now(), Duration.ofNanos(1000));
    long published;
    try (Replayer replayer = new Replayer(client, topic)) {
      published = replayer.publish(records, form.equals("whole"), n -> { }).records();
    }
    System.out.printf(Locale.ROOT, "published %,d %s records to %s%n", published, form, topic);
    return published;
  }
}
