package io.isowatch.cli;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.schemas.Violation;
import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.app.ViolationFeed;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.EmbeddedKafka;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.replay.HistoryRecords;
import io.isowatch.stream.replay.Replayer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.StreamsConfig;

/**
 * {@code isowatch demo}: the whole pipeline in one process. Starts an in-process Kafka broker
 * ({@link EmbeddedKafka}) unless one is given, creates the topics, starts the monitor ({@link
 * MonitorApp}) expecting a level (serializable by default), follows the violations topic printing
 * each violation's witness as it arrives ({@link ViolationText}), runs the engine simulator at
 * snapshot isolation on a contended list-append workload ({@link SimulatedRun}) and publishes the
 * history as op-level events ({@link Replayer}), waits until the monitor has checked every
 * transaction and every counted violation has arrived, checks the same history offline ({@link
 * SimulatedRun#offlineViolations}) and prints a summary table with both verdicts side by side.
 *
 * <p>Exit code {@link ExitCode#CONSISTENT} when the set of anomaly kinds the monitor published
 * equals the offline checker's set for the expected level, with at least one G2-item when expecting
 * serializable, and no dead letters; {@link ExitCode#VIOLATION} otherwise or when the monitor did not
 * finish within {@link #DEADLINE} of publishing.
 */
public final class StreamDemo {
  /**
   * How long the demo waits, once the run is published, for the monitor to check everything (about
   * 10 s on an idle 2-core machine; the margin is for a loaded one).
   */
  static final Duration DEADLINE = Duration.ofSeconds(60);
  /** Partitions of the demo's topics. */
  static final int PARTITIONS = 2;

  /**
   * What to run.
   *
   * @param expected the level the monitor expects
   * @param transactions transactions of the simulated run (rounded up to a multiple of {@value
   *     SimulatedRun#SESSIONS} sessions)
   * @param bootstrapServers an existing cluster to use, or empty for an in-process broker
   * @param seed the simulation's seed
   */
  public record Request(Level expected, int transactions, Optional<String> bootstrapServers, long seed) {}

  private final PrintWriter out;
  private final PrintWriter err;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  private final Map<String, Integer> byAnomaly = new TreeMap<>();
  private int received;

  /**
   * @param out witnesses and the summary
   * @param err progress lines and errors
   */
  public StreamDemo(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  /**
   * Runs the demo.
   *
   * @return the exit code (see the class comment)
   * @throws InterruptedException if interrupted while waiting for the monitor
   */
  public int run(Request r) throws InterruptedException {
    long t0 = System.nanoTime();
    EmbeddedKafka kafka = null;
    Path stateDir = null;
    try {
      String bootstrap;
      MonitorConfig config = MonitorConfig.defaults().withExpectedLevel(r.expected());
      if (r.bootstrapServers().isPresent()) {
        bootstrap = r.bootstrapServers().get();
        String prefix = "isowatch-demo-" + System.currentTimeMillis();
        config = config.withTopics(prefix + ".events", prefix + ".violations", prefix + ".dlq");
      } else {
        kafka = EmbeddedKafka.start();
        bootstrap = kafka.bootstrapServers();
        note("started an in-process Kafka broker (KRaft) at " + bootstrap + " in " + seconds(t0));
      }
      Properties clients = MonitorRunner.clientProperties(new Properties(), bootstrap);
      try (Admin admin = Admin.create(clients)) {
        Topics.create(admin, Topics.of(config), Optional.of(PARTITIONS),
            kafka != null ? Optional.of((short) 1) : Optional.empty(), Optional.empty());
      }
      note("created topics " + String.join(", ", Topics.of(config)) + " (" + PARTITIONS + " partitions each)");

      stateDir = Files.createTempDirectory("isowatch-demo-state");
      Properties overlay = new Properties();
      overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
      MeterRegistry registry = new SimpleMeterRegistry();
      MonitorMetrics metrics = new MonitorMetrics(registry);
      String appId = "isowatch-demo-" + System.currentTimeMillis();
      try (MonitorApp app = MonitorApp.start(config, metrics, MonitorApp.properties(appId, bootstrap, overlay),
              state -> { });
          ViolationFeed feed = new ViolationFeed(clients, config.violationsTopic(), true, appId, this::print,
              (where, reason) -> note(where + " is not a violation: " + reason))) {
        note("monitor started (application.id " + appId + "), expecting " + r.expected().cliName());

        History history = SimulatedRun.history(Level.SNAPSHOT_ISOLATION, r.transactions(), r.seed());
        HistoryRecords records = HistoryRecords.endingAt(history, "demo", Instant.now(), Duration.ofMillis(1));
        Replayer.Counts counts;
        try (Replayer replayer = new Replayer(clients, config.eventsTopic())) {
          counts = replayer.publish(records, false, n -> { });
        }
        int committed = 0;
        for (int t = 0; t < history.txnCount(); t++) {
          committed += history.status(t) == TxnStatus.COMMITTED ? 1 : 0;
        }
        note(String.format(Locale.ROOT, "published a simulated snapshot-isolation run (engine simulator, list-append,"
            + " %d sessions on %d keys) as history demo: %,d transactions (%,d committed) as %,d events",
            SimulatedRun.SESSIONS, SimulatedRun.KEYS, counts.transactions(), committed, counts.records()));

        boolean finished = awaitChecked(registry, counts.transactions(), System.nanoTime());
        long checked = (long) count(registry, "isowatch.transactions.checked");
        long dlq = (long) count(registry, "isowatch.dlq.records");
        Map<String, Integer> offline = SimulatedRun.offlineViolations(history, r.expected());
        boolean asExpected;
        String mismatch;
        lock.lock();
        try {
          boolean sameKinds = byAnomaly.keySet().equals(offline.keySet());
          boolean g2 = r.expected() != Level.SERIALIZABLE
              || byAnomaly.containsKey(SimulatedRun.kind("G2-item", Level.SERIALIZABLE));
          asExpected = finished && sameKinds && g2 && dlq == 0;
          mismatch = !sameKinds
              ? "the monitor published " + kinds(byAnomaly) + ", the offline checker found " + kinds(offline)
              : !g2 ? "no G2-item in this run; try another --seed or more --transactions"
              : "expected no dead letters";
          summary(counts, committed, checked, dlq, offline, r.expected(), t0);
        } finally {
          lock.unlock();
        }
        if (!finished) {
          err.println("isowatch demo: the monitor did not check every transaction within " + DEADLINE.toSeconds()
              + " s of publishing (" + checked + " of " + counts.transactions() + "); is the machine busy?");
        } else if (!asExpected) {
          err.println("isowatch demo: " + mismatch);
        }
        return asExpected ? ExitCode.CONSISTENT : ExitCode.VIOLATION;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (kafka != null) {
        kafka.close();
      }
      if (stateDir != null) {
        deleteTree(stateDir);
      }
      out.flush();
      err.flush();
    }
  }

  /**
   * Waits until {@code transactions} are checked and as many violations arrived as the monitor
   * counted, or {@link #DEADLINE} after {@code start} passes; woken by each arriving violation and
   * every 200 ms.
   */
  private boolean awaitChecked(MeterRegistry registry, long transactions, long start) throws InterruptedException {
    long deadline = start + DEADLINE.toNanos();
    lock.lock();
    try {
      while (count(registry, "isowatch.transactions.checked") < transactions
          || received < count(registry, "isowatch.violations")) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        arrived.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)), TimeUnit.NANOSECONDS);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void print(Violation v) {
    lock.lock();
    try {
      received++;
      byAnomaly.merge(SimulatedRun.kind(v.getAnomaly(), Level.valueOf(v.getLevel().name())), 1, Integer::sum);
      out.println();
      for (String line : ViolationText.lines(v)) {
        out.println(line);
      }
      out.flush();
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void summary(Replayer.Counts counts, int committed, long checked, long dlq, Map<String, Integer> offline,
      Level expected, long t0) {
    out.println();
    out.println("== summary");
    row("transactions published", String.format(Locale.ROOT, "%,d", counts.transactions())
        + String.format(Locale.ROOT, "  (%,d events)", counts.records()));
    row("committed / aborted", String.format(Locale.ROOT, "%,d / %,d", committed, counts.transactions() - committed));
    row("transactions checked", String.format(Locale.ROOT, "%,d", checked));
    row("violations published", Integer.toString(received));
    row("dead letters", Long.toString(dlq));
    row("wall time", seconds(t0));
    out.println();
    table("expecting " + expected.cliName(), "monitor", "offline check");
    TreeSet<String> kinds = new TreeSet<>(byAnomaly.keySet());
    kinds.addAll(offline.keySet());
    for (String k : kinds) {
      table("  " + k, Integer.toString(byAnomaly.getOrDefault(k, 0)), Integer.toString(offline.getOrDefault(k, 0)));
    }
    table("verdict", byAnomaly.isEmpty() ? "consistent" : "violated", offline.isEmpty() ? "consistent" : "violated");
    out.flush();
  }

  private void table(String label, String online, String offline) {
    out.println(String.format(Locale.ROOT, "  %-30s %-10s %s", label, online, offline));
  }

  /** @return e.g. {@code {G2-item (serializable)}}, or {@code nothing} */
  private static String kinds(Map<String, Integer> byKind) {
    return byKind.isEmpty() ? "nothing" : byKind.keySet().toString();
  }

  private void row(String label, String value) {
    out.println(String.format(Locale.ROOT, "  %-30s %s", label, value));
  }

  private static double count(MeterRegistry registry, String name) {
    return registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
  }

  private void note(String line) {
    lock.lock();
    try {
      out.println("demo: " + line);
      out.flush();
    } finally {
      lock.unlock();
    }
  }

  private static String seconds(long t0) {
    return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - t0) / 1e9);
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + dir, e);
    }
  }
}
