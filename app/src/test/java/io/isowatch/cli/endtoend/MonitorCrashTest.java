package io.isowatch.cli.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.level.Level;
import io.isowatch.stream.app.ExactOutput;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Crashes: {@code isowatch monitor} in a child JVM is killed with SIGKILL (no shutdown hook, no
 * final commit) at seeded random points of a replay, {@value #DEFAULT_KILLS} times by default, and
 * restarted each time, half of the times with its state directory wiped (a replaced machine), half
 * with it kept (a restarted process). Afterwards the violations topic (read committed) holds exactly
 * the violations of an uninterrupted run, same ids, each once; and every restarted instance restored
 * its state stores from their changelogs ({@code isowatch_state_restored_records_total} above 0).
 *
 * <p>Longer runs: {@code -Disowatch.faults.kills=20 -Disowatch.faults.transactions=1000
 * -Disowatch.faults.seed=7} (see docs/reliability.md).
 */
@ExtendWith(KafkaBroker.class)
class MonitorCrashTest {
  private static final int DEFAULT_KILLS = 3;
  private static final String RESTORED = "isowatch_state_restored_records_total";

  @TempDir Path tmp;

  /**
   * @param split whether the monitor runs with {@code --split-levels} (the reference run too): the
   *     merge's stores must then survive the kills as the checkers' do
   */
  @ParameterizedTest(name = "split {0}")
  @ValueSource(booleans = {false, true})
  void aMonitorKilledRepeatedlyAtRandomPointsLosesAndDuplicatesNothing(boolean split) throws Exception {
    int kills = Integer.getInteger("isowatch.faults.kills", DEFAULT_KILLS);
    int transactions = Integer.getInteger("isowatch.faults.transactions", 250);
    long seed = Long.getLong("isowatch.faults.seed", 23);
    String prefix = "it-crash" + (split ? "-split" : "");
    String appId = prefix + "-app";
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics(prefix + ".events", prefix + ".violations", prefix + ".dlq")
        .withExpectedLevel(Level.SERIALIZABLE)
        .withSplitLevels(split);
    ExactOutput.Workload run = ExactOutput.writeSkews("h-crash-", 3, transactions, seed);
    Map<String, String> expected = ExactOutput.uninterrupted(config, run.events(), tmp.resolve("reference"));
    assertThat(expected.values()).containsExactlyInAnyOrderElementsOf(run.expected());

    Admin admin = KafkaBroker.broker().admin();
    Topics.create(admin, Topics.of(config), Optional.of(4), Optional.of((short) 1), Optional.empty());
    Properties clients = new Properties();
    clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    Path stateDir = tmp.resolve("state");
    Path configFile = tmp.resolve("monitor.properties");
    // a killed member leaves the group after session.timeout.ms: the broker's minimum, 6 s
    Files.writeString(configFile, "session.timeout.ms=6000\nheartbeat.interval.ms=1000\n");

    // kill points: the event positions after which a kill is due, sorted, seeded
    SplittableRandom rnd = new SplittableRandom(seed);
    int n = run.events().size();
    List<Integer> cuts = new ArrayList<>(rnd.ints(kills, n / 10, n - n / 10).sorted().boxed().toList());
    cuts.add(n);
    List<Long> restored = new ArrayList<>();
    MonitorProcess monitor = MonitorProcess.start(tmp.resolve("monitor-0.log"), appId, config, stateDir, configFile);
    try {
      int published = 0;
      for (int k = 0; k < kills; k++) {
        int cut = cuts.get(k);
        ExactOutput.publish(clients, config.eventsTopic(), run.slice(published, cut));
        // kill while the monitor works on what was just published: once its commits passed a
        // random point between what it had and the cut
        long from = ExactOutput.committed(admin, appId, config.eventsTopic());
        long target = from + (long) ((cut - from) * rnd.nextDouble(0.1, 0.9));
        await().atMost(ExactOutput.PATIENCE).pollInterval(Duration.ofMillis(50))
            .until(() -> ExactOutput.committed(admin, appId, config.eventsTopic()) >= target);
        published = cut;
        monitor.kill();
        if (k % 2 == 0) {
          deleteTree(stateDir);
        }
        monitor = MonitorProcess.start(tmp.resolve("monitor-" + (k + 1) + ".log"), appId, config, stateDir,
            configFile);
        MonitorProcess restarted = monitor;
        await().atMost(ExactOutput.PATIENCE).until(() -> restarted.counter(RESTORED) > 0);
        restored.add((long) restarted.counter(RESTORED));
      }
      ExactOutput.publish(clients, config.eventsTopic(), run.slice(published, n));
      ExactOutput.awaitExactly(admin, clients, config, appId, expected);
      assertThat(monitor.alive()).isTrue();
    } finally {
      monitor.kill();
    }
    assertThat(restored).hasSize(kills).allMatch(r -> r > 0);
    System.out.printf("MonitorCrashTest: %d SIGKILLs survived at events %s of %d; records restored from"
        + " changelogs after each restart %s; %d violations, each once%n", kills, cuts.subList(0, kills), n,
        restored, expected.size());
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
