package io.isowatch.cli.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.schemas.Violation;
import io.isowatch.stream.app.ExactOutput;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.replay.HistoryRecords;
import io.isowatch.stream.topology.MonitorTopology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * No invented violations (issue 21's reproduction, on a real broker): a consistent register history
 * of 100,000 transactions from 50 sessions of a serial store, whole transactions on a 3-partition
 * events topic, published before the monitor starts, so that the monitor's three assembler tasks
 * work through a backlog at their own speeds and the checker's input interleaves partitions that
 * are far apart in event time (10 ms of event time per event, so the 30 s read grace spans about
 * 550 transactions); then, while the monitor works through that backlog, a second consistent history
 * of 20,000 transactions whose event times lie inside the first's (replays of two histories end when
 * each is published), so that every partition has long passed the second history's times in the
 * first history's clock. With the read grace measured on the largest end time seen, this published tens
 * of thousands of thin-air reads; on the partitions' low watermark it publishes none, leaves no read
 * unresolved and holds nothing at the end. Once straight through, once with the monitor killed
 * (SIGKILL, {@link MonitorProcess}) half-way and restarted. And the other direction: the same kind of
 * history with reads of values nobody wrote still has each of them published, once, as a thin-air
 * read.
 */
@ExtendWith(KafkaBroker.class)
class NoFalseAlarmsTest {
  private static final int TRANSACTIONS = Integer.getInteger("isowatch.nofalse.transactions", 100_000);
  /** Transactions of the history replayed into the monitor while it works through the first. */
  private static final int SECOND = 20_000;
  private static final int SESSIONS = 50;
  private static final int KEYS = 2_000;
  private static final Duration STEP = Duration.ofMillis(10);
  private static final Duration PATIENCE = Duration.ofMinutes(4);

  @TempDir Path tmp;

  @Test
  void aConsistentHistoryReplayedBeforeTheMonitorStartsPublishesNothing() throws Exception {
    Setup s = setup("it-nofalse", serialRegisters(TRANSACTIONS, 11, 0));
    // a second history replayed while the monitor works through the first: its event times lie
    // inside the first's, far behind what the partitions have read of the first
    Generated second = serialRegisters(SECOND, 21, 0);
    List<HistoryRecords.Keyed> secondRecords = new ArrayList<>();
    HistoryRecords.endingAt(second.history(), "it-nofalse-h2", Instant.now(), STEP).forEachTransaction(secondRecords::add);
    long t0 = System.nanoTime();
    ExactOutput.publish(s.clients, s.config.eventsTopic(), s.records);
    long t1 = System.nanoTime();
    MonitorProcess monitor = s.start(0);
    try {
      await().atMost(PATIENCE).pollInterval(Duration.ofMillis(200))
          .until(() -> monitor.counter("isowatch_transactions_checked_total") >= TRANSACTIONS / 10);
      ExactOutput.publish(s.clients, s.config.eventsTopic(), secondRecords);
      await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500))
          .until(() -> monitor.counter("isowatch_transactions_checked_total") >= TRANSACTIONS + SECOND);
      await().atMost(PATIENCE).until(() -> monitor.counter("isowatch_window_held") == 0);
      System.out.printf("NoFalseAlarmsTest: %d transactions published in %.1f s, checked with %d of a second"
          + " history in %.1f s%n", TRANSACTIONS, (t1 - t0) / 1e9, SECOND, (System.nanoTime() - t1) / 1e9);
      assertThat(monitor.counter("isowatch_transactions_checked_total")).isEqualTo(TRANSACTIONS + SECOND);
      assertThat(ExactOutput.awaitSettled(s.clients, s.config.violationsTopic())).isEmpty();
      assertThat(monitor.counter("isowatch_reads_unresolved_total")).isZero();
      assertThat(monitor.counter("isowatch_dlq_records_total")).isZero();
      assertThat(monitor.alive()).isTrue();
    } finally {
      monitor.kill();
    }
  }

  @Test
  void aConsistentHistoryPublishesNothingWhenTheMonitorIsKilledAndRestartedMidway() throws Exception {
    Setup s = setup("it-nofalse-kill", serialRegisters(TRANSACTIONS, 12, 0));
    ExactOutput.publish(s.clients, s.config.eventsTopic(), s.records);
    Admin admin = KafkaBroker.broker().admin();
    MonitorProcess first = s.start(0);
    double unresolvedBeforeKill;
    try {
      await().atMost(PATIENCE).pollInterval(Duration.ofMillis(200))
          .until(() -> ExactOutput.committed(admin, s.appId, s.config.eventsTopic()) >= TRANSACTIONS / 2);
      unresolvedBeforeKill = first.counter("isowatch_reads_unresolved_total");
    } finally {
      first.kill();
    }
    MonitorProcess second = s.start(1);
    try {
      String repartition = s.appId + "-" + MonitorTopology.BY_HISTORY + "-repartition";
      await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500))
          .until(() -> ExactOutput.consumed(admin, s.appId, s.config.eventsTopic())
              && ExactOutput.consumed(admin, s.appId, repartition)
              && second.counter("isowatch_window_held") == 0);
      assertThat(ExactOutput.awaitSettled(s.clients, s.config.violationsTopic())).isEmpty();
      assertThat(unresolvedBeforeKill).isZero();
      assertThat(second.counter("isowatch_reads_unresolved_total")).isZero();
      assertThat(second.counter("isowatch_dlq_records_total")).isZero();
      assertThat(second.alive()).isTrue();
    } finally {
      second.kill();
    }
  }

  @Test
  void readsOfValuesNobodyWroteAreStillPublishedEachOnce() throws Exception {
    int ghosts = 7;
    Generated run = serialRegisters(10_000, 13, ghosts);
    Setup s = setup("it-nofalse-ghost", run);
    MonitorProcess monitor = s.start(0);
    try {
      ExactOutput.publish(s.clients, s.config.eventsTopic(), s.records);
      await().atMost(PATIENCE).until(() -> ExactOutput.violations(s.clients, s.config.violationsTopic()).size() >= ghosts);
      List<Violation> got = ExactOutput.awaitSettled(s.clients, s.config.violationsTopic());
      TreeSet<String> readers = new TreeSet<>();
      for (Violation v : got) {
        assertThat(v.getAnomaly()).isEqualTo("thin-air-read");
        readers.add(v.getWitness().getTransactions().get(0).getTxnId());
      }
      assertThat(got).hasSize(ghosts);
      assertThat(readers).containsExactlyElementsOf(s.ghostTxnIds);
      assertThat(monitor.counter("isowatch_reads_unresolved_total")).isZero();
    } finally {
      monitor.kill();
    }
  }

  // ---------------------------------------------------------------- fixture

  /** A generated history and the labels of its transactions that read a value nobody wrote. */
  private record Generated(History history, List<Long> ghostLabels) {}

  /**
   * A serial store of {@value #KEYS} registers used by {@value #SESSIONS} sessions: each transaction
   * reads two keys (their current values, or the initial value) and writes one or two keys with
   * fresh values, one after another, so the history is serializable, hence consistent at every
   * level; plus {@code ghosts} transactions, spread evenly, that read a value never written.
   */
  private static Generated serialRegisters(int transactions, long seed, int ghosts) {
    SplittableRandom rnd = new SplittableRandom(seed);
    History h = new History();
    int[] sessions = new int[SESSIONS];
    for (int i = 0; i < SESSIONS; i++) {
      sessions[i] = h.session("s" + i);
    }
    int[] keys = new int[KEYS];
    long[] current = new long[KEYS];
    for (int k = 0; k < KEYS; k++) {
      keys[k] = h.key("k" + k);
      current[k] = History.NIL;
    }
    List<Long> ghostLabels = new ArrayList<>();
    long next = 1;
    for (int t = 0; t < transactions; t++) {
      long label = t + 1;
      h.beginTxn(sessions[rnd.nextInt(SESSIONS)], label);
      for (int r = 0; r < 2; r++) {
        int k = rnd.nextInt(KEYS);
        h.read(keys[k], current[k]);
      }
      if (ghosts > 0 && t % (transactions / ghosts) == transactions / ghosts / 2 && ghostLabels.size() < ghosts) {
        h.read(keys[rnd.nextInt(KEYS)], 1_000_000_000L + t); // no transaction writes this
        ghostLabels.add(label);
      }
      int writes = 1 + rnd.nextInt(2);
      for (int w = 0; w < writes; w++) {
        int k = rnd.nextInt(KEYS);
        current[k] = next++;
        h.write(keys[k], current[k]);
      }
      h.end(TxnStatus.COMMITTED);
    }
    return new Generated(h, ghostLabels);
  }

  /** Topics, the monitor's configuration, the records to publish and the ghost readers' txnIds. */
  private final class Setup {
    final String appId;
    final MonitorConfig config;
    final Properties clients = new Properties();
    final List<HistoryRecords.Keyed> records = new ArrayList<>();
    final List<String> ghostTxnIds = new ArrayList<>();
    final Path configFile;

    Setup(String prefix, Generated run) throws Exception {
      appId = prefix + "-app";
      config = MonitorConfig.defaults()
          .withTopics(prefix + ".events", prefix + ".violations", prefix + ".dlq")
          .withExpectedLevel(Level.CAUSAL)
          .withWindow(10_000, Duration.ZERO);
      Admin admin = KafkaBroker.broker().admin();
      Topics.create(admin, Topics.of(config), Optional.of(3), Optional.of((short) 1), Optional.empty());
      clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
      String historyId = prefix + "-h";
      HistoryRecords h = HistoryRecords.endingAt(run.history(), historyId, Instant.now(), STEP);
      h.forEachTransaction(records::add);
      for (long label : run.ghostLabels()) {
        ghostTxnIds.add(historyId + "/T" + label);
      }
      ghostTxnIds.sort(null);
      // a killed member leaves the group after session.timeout.ms: the broker's minimum, 6 s
      configFile = tmp.resolve(prefix + ".properties");
      Files.writeString(configFile, "session.timeout.ms=6000\nheartbeat.interval.ms=1000\n");
    }

    MonitorProcess start(int n) throws Exception {
      return MonitorProcess.start(tmp.resolve(appId + "-" + n + ".log"), appId, config, tmp.resolve("state-" + appId),
          configFile);
    }
  }

  private Setup setup(String prefix, Generated run) throws Exception {
    Setup s = new Setup(prefix, run);
    if (run.ghostLabels().isEmpty()) {
      // the offline checker agrees that the history is consistent at read committed, read atomic and causal
      for (Level l : List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL)) {
        assertThat(Checkers.forLevel(l).check(run.history()).violations()).as(l.cliName()).isEmpty();
      }
    }
    return s;
  }
}
