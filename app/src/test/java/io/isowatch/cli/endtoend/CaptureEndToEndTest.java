package io.isowatch.cli.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.window.ViolationIds;
import io.isowatch.cli.IsowatchCli;
import io.isowatch.connectors.debezium.outbox.OutboxSink;
import io.isowatch.connectors.debezium.outbox.WriteSkewRound;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.Violation;
import io.isowatch.stream.app.ExactOutput;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.kafka.Topics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.CommonClientConfigs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end from the command line: {@code isowatch capture --outbox} and {@code isowatch monitor}
 * as child processes, a private PostgreSQL ({@code wal_level=logical}) and the in-process broker. An
 * application's write skews at REPEATABLE READ, recorded through the outbox ({@link WriteSkewRound}),
 * reach the violations topic as G2-item violations, while {@code capture} is killed with SIGKILL
 * between the two commits of a round and restarted: the violations topic then holds exactly one
 * violation per round, with the ids an uninterrupted run gives ({@link ViolationIds}), each once;
 * every published outbox row is pruned; and SIGTERM stops {@code capture} cleanly. The monitor
 * starts after the restart (it reads the events topic from its start), so that only one child JVM
 * starts at a time.
 */
@ExtendWith(KafkaBroker.class)
@Timeout(300)
class CaptureEndToEndTest {
  private static final int ROUNDS = 3;
  private static final String SLOT = "e2e_capture";
  @RegisterExtension
  static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path tmp; // the children's logs stay after a failure

  @BeforeAll
  static void start() throws Exception {
    try (Connection c = POSTGRES.get().connect()) {
      OutboxSink.createTable(c);
      WriteSkewRound.createKeys(c, ROUNDS);
    }
  }

  @Test
  void writeSkewsThroughCaptureReachTheMonitorOnceAcrossAKilledCapture() throws Exception {
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics("e2e-capture.events", "e2e-capture.violations", "e2e-capture.dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
    Topics.create(KafkaBroker.broker().admin(), Topics.of(config), Optional.of(2), Optional.of((short) 1),
        Optional.empty());
    Path monitorConfig = Files.writeString(tmp.resolve("monitor.properties"), "");
    List<String> args = List.of("--outbox", "--jdbc-url", POSTGRES.get().jdbcUrl(),
        "--bootstrap-servers", KafkaBroker.bootstrapServers(), "--events-topic", config.eventsTopic(),
        "--name", SLOT, "--offsets-topic", "e2e-capture.offsets", "--prune-after");
    Properties clients = new Properties();
    clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());

    CaptureProcess capture = null;
    MonitorProcess monitor = null;
    try (Connection c1 = POSTGRES.get().connect(); Connection c2 = POSTGRES.get().connect()) {
      capture = startStreaming(args, "capture-0");
      for (Connection c : List.of(c1, c2)) {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      }
      OutboxSink outbox = new OutboxSink(Map.of("s1", c1, "s2", c2)::get);
      WriteSkewRound first = new WriteSkewRound(c1, c2, outbox, 0).run();
      first.commitFirst();
      first.commitSecond();
      awaitPublished(config, WriteSkewRound.txnIds(0));

      // SIGKILL between the two commits of round 1, once the first one's record was published
      WriteSkewRound second = new WriteSkewRound(c1, c2, outbox, 1).run();
      second.commitFirst();
      awaitPublished(config, WriteSkewRound.txnIds(1).subList(0, 1));
      capture.kill();
      second.commitSecond();
      capture = startStreaming(args, "capture-1");
      // the monitor reads the events topic from its start, so it may start now: one child JVM
      // starting at a time, as the start-up checks ask the broker with a 10 s bound
      monitor = MonitorProcess.start(tmp.resolve("monitor.log"), "e2e-capture-app", config, tmp.resolve("state"),
          monitorConfig);
      await().atMost(Duration.ofSeconds(60)).until(monitor::started);
      WriteSkewRound third = new WriteSkewRound(c1, c2, outbox, 2).run();
      third.commitFirst();
      third.commitSecond();

      await().atMost(ExactOutput.PATIENCE).until(() -> ExactOutput.violations(clients, config.violationsTopic()).size() >= ROUNDS);
      List<Violation> got = ExactOutput.awaitSettled(clients, config.violationsTopic());
      Map<String, String> byId = new TreeMap<>();
      got.forEach(v -> byId.put(v.getViolationId(), ExactOutput.describe(v)));
      Map<String, String> expected = new TreeMap<>();
      for (int r = 0; r < ROUNDS; r++) {
        List<String> txns = WriteSkewRound.txnIds(r);
        expected.put(ViolationIds.of(Anomaly.G2_ITEM, txns, null, Level.SERIALIZABLE),
            WriteSkewRound.HISTORY + " G2-item " + txns);
      }
      assertThat(got).hasSize(ROUNDS);
      assertThat(byId).isEqualTo(expected);
      await().atMost(Duration.ofSeconds(30)).until(() -> outboxRows() == 0);
      assertThat(monitor.alive()).isTrue();
      assertThat(capture.stop()).as(capture.output()).isEqualTo(143); // 128 + SIGTERM, after the clean stop
      assertThat(capture.output()).contains("capture: stopped; ");
    } finally {
      if (capture != null && capture.alive()) {
        capture.kill();
      }
      if (monitor != null) {
        monitor.kill();
      }
    }
  }

  /** A database without the outbox table: exit 2 at start, naming the table and how to create it. */
  @Test
  void aDatabaseWithoutTheOutboxTableIsAUsageError() throws Exception {
    try (Connection c = POSTGRES.get().connect()) {
      c.createStatement().execute("CREATE DATABASE no_outbox");
    }
    String url = POSTGRES.get().jdbcUrl().replace("/postgres?", "/no_outbox?");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = IsowatchCli.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(
        "capture", "--outbox", "--jdbc-url", url, "--bootstrap-servers", KafkaBroker.bootstrapServers(),
        "--events-topic", "e2e-capture.none", "--offsets", tmp.resolve("offsets.dat").toString());
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).isEqualTo("isowatch capture: table public.isowatch_outbox does not exist; the"
        + " application's OutboxSink creates it (OutboxSink.createTable), or run: " + OutboxSink.CREATE_TABLE_SQL + "\n");
    assertThat(out.toString()).isEmpty();
  }

  /**
   * Starts {@code capture} and waits until its replication slot streams: a transaction committed
   * after is captured. A start refused because the broker did not answer its start-up check within
   * 10 s is tried again, up to 3 times: on a machine loaded far beyond its cores the check's bound
   * can pass before a new JVM's admin client is answered, and the start-up check is not what this
   * test is about ({@code CaptureCommandTest} is).
   *
   * @param name the child's log file name, without {@code .log}
   */
  private CaptureProcess startStreaming(List<String> args, String name) throws Exception {
    for (int attempt = 1; ; attempt++) {
      CaptureProcess capture = CaptureProcess.start(tmp.resolve(name + "-" + attempt + ".log"), args);
      await().atMost(Duration.ofSeconds(90)).until(() -> !capture.alive() || slotActive());
      if (capture.alive()) {
        return capture;
      }
      String output = capture.output();
      if (attempt == 3 || !output.contains(" did not answer within 10 s")) {
        throw new AssertionError("capture exited (" + capture.log() + "):\n" + output);
      }
    }
  }

  private static boolean slotActive() throws SQLException {
    try (Connection c = POSTGRES.get().connect();
        PreparedStatement s = c.prepareStatement("SELECT active FROM pg_replication_slots WHERE slot_name = ?")) {
      s.setString(1, SLOT);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    }
  }

  private static long outboxRows() throws SQLException {
    try (Connection c = POSTGRES.get().connect();
        ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM " + OutboxSink.TABLE)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Waits until the events topic holds a record of each of {@code txnIds}. */
  private static void awaitPublished(MonitorConfig config, List<String> txnIds) {
    await().atMost(Duration.ofSeconds(60)).until(() -> TopicRecords.readAll(KafkaBroker.bootstrapServers(),
            config.eventsTopic()).stream().map(r -> ((Transaction) r.value()).getTxnId()).toList().containsAll(txnIds));
  }
}
