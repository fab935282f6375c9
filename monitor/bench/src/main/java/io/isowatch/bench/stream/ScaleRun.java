package io.isowatch.bench.stream;

import io.isowatch.checker.level.Level;
import io.isowatch.checker.window.CheckFamily;
import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.EmbeddedKafka;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.micrometer.core.instrument.search.Search;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The scale rows: one history, on an events topic of two partitions, through the monitor with its
 * check whole (one checker task) and split per family of checks ({@link
 * MonitorConfig#splitLevels()}), on one stream thread, two stream threads of one instance, and two
 * instances of one stream thread each (two {@link MonitorApp}s of one application id in this JVM,
 * each with its own state directory).
 *
 * <p>A setup's rate is taken from the first transaction checked to the last one checked by the
 * slowest checker: {@code isowatch.transactions.checked} for the whole check, the least of {@code
 * isowatch.family.transactions.checked} over the families for the split one (sampled every 10 ms),
 * summed over the instances. Over the same interval it takes the stream threads' CPU time ({@link
 * ThroughputRun#streamThreadCpuNanos}, every stream thread of the JVM).
 */
final class ScaleRun {
  private static final Duration LIMIT = Duration.ofMinutes(15);

  /** A way to run the monitor: whole or split, how many instances, stream threads per instance. */
  enum Setup {
    WHOLE_ONE_THREAD("whole check, 1 thread", false, 1, 1),
    SPLIT_ONE_THREAD("split, 1 thread", true, 1, 1),
    SPLIT_TWO_THREADS("split, 2 threads", true, 1, 2),
    WHOLE_TWO_THREADS("whole check, 2 threads", false, 1, 2),
    SPLIT_TWO_INSTANCES("split, 2 instances x 1 thread", true, 2, 1);

    final String label;
    final boolean split;
    final int instances;
    final int threads;

    Setup(String label, boolean split, int instances, int threads) {
      this.label = label;
      this.split = split;
      this.instances = instances;
      this.threads = threads;
    }
  }

  /**
   * @param setup how the monitor ran
   * @param txnPerSecond transactions per second checked by its slowest checker
   * @param streamThreadCpuMicrosPerTxn CPU time of all stream threads per transaction (µs)
   */
  record Point(Setup setup, double txnPerSecond, double streamThreadCpuMicrosPerTxn) {}

  private final EmbeddedKafka kafka;
  private final Properties tuning;
  private final int window;
  private final Level level;

  /**
   * @param kafka the broker
   * @param tuning Kafka Streams settings laid over the monitor's
   * @param window the checker's window in transactions
   * @param level the expected level
   */
  ScaleRun(EmbeddedKafka kafka, Properties tuning, int window, Level level) {
    this.kafka = kafka;
    this.tuning = tuning;
    this.window = window;
    this.level = level;
  }

  /**
   * Times one setup over a filled topic.
   *
   * @param topic the events topic, filled with one history of {@code transactions} transactions
   * @return the point
   * @throws IOException if a state directory cannot be created
   * @throws IllegalStateException if the monitor does not check every transaction within 15 min
   */
  Point run(String topic, int transactions, Setup setup) throws IOException {
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics(topic, topic + ".violations." + setup.name(), topic + ".dlq." + setup.name())
        .withExpectedLevel(level)
        .withWindow(window, Duration.ZERO)
        .withSplitLevels(setup.split);
    kafka.createTopic(config.violationsTopic(), 1, Optional.empty());
    kafka.createTopic(config.dlqTopic(), 1, Optional.empty());
    String applicationId = "bench-scale-" + setup.name().toLowerCase(Locale.ROOT) + "-" + System.nanoTime();
    Path state = Files.createTempDirectory("isowatch-bench-scale");
    List<MonitorApp> apps = new ArrayList<>();
    List<MonitorMetrics> metrics = new ArrayList<>();
    try {
      for (int i = 0; i < setup.instances; i++) {
        Properties props = ThroughputRun.streamsProperties(applicationId, kafka.bootstrapServers(),
            Files.createTempDirectory(state, "instance"), tuning);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(setup.threads));
        MonitorMetrics m = MonitorMetrics.inMemory();
        metrics.add(m);
        apps.add(MonitorApp.start(config, m, props, s -> { }));
      }
      return timed(setup, transactions, metrics);
    } finally {
      apps.forEach(MonitorApp::close);
    }
  }

  /** Waits until the slowest checker checked every transaction, timing from the first one checked. */
  private static Point timed(Setup setup, int transactions, List<MonitorMetrics> metrics) {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    long t0 = 0;
    double c0 = 0;
    long thread0 = 0;
    double c;
    while ((c = checked(setup, metrics)) < transactions) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(setup.label + ": checked " + (long) c + " of " + transactions + " in " + LIMIT);
      }
      if (t0 == 0 && c > 0) {
        t0 = System.nanoTime();
        c0 = c;
        thread0 = ThroughputRun.streamThreadCpuNanos();
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
    double n = transactions - c0;
    Point p = new Point(setup, n / ((System.nanoTime() - t0) / 1e9),
        (ThroughputRun.streamThreadCpuNanos() - thread0) / 1e3 / n);
    System.out.printf(Locale.ROOT, "scale: %s: %,.0f txn/s, stream threads' CPU %.1f µs per txn%n", setup.label,
        p.txnPerSecond(), p.streamThreadCpuMicrosPerTxn());
    return p;
  }

  /** @return transactions checked by the slowest checker, over the instances */
  private static double checked(Setup setup, List<MonitorMetrics> metrics) {
    if (!setup.split) {
      return metrics.stream().mapToDouble(m -> m.registry().get("isowatch.transactions.checked").counter().count()).sum();
    }
    double least = Double.MAX_VALUE;
    for (CheckFamily f : CheckFamily.values()) {
      double sum = 0;
      for (MonitorMetrics m : metrics) {
        sum += Search.in(m.registry()).name("isowatch.family.transactions.checked").tag("family", f.id())
            .counters().stream().mapToDouble(x -> x.count()).sum();
      }
      least = Math.min(least, sum);
    }
    return least;
  }
}
