package io.isowatch.cli.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.window.ViolationIds;
import io.isowatch.connectors.probe.Dialect;
import io.isowatch.connectors.probe.HistoryCollector;
import io.isowatch.connectors.probe.Probe;
import io.isowatch.connectors.probe.ProbeConfig;
import io.isowatch.connectors.probe.ProbeIsolation;
import io.isowatch.connectors.probe.ProbeWorkload;
import io.isowatch.connectors.probe.Scenario;
import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.connectors.testdb.ListRows;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.Violation;
import io.isowatch.stream.app.ExactOutput;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.kafka.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end from the command line: {@code isowatch capture --cdc --table isowatch_list_append} and
 * {@code isowatch monitor --level serializable} as child processes, a private PostgreSQL ({@code
 * wal_level=logical}) and the in-process broker.
 *
 * <p>First a consistent database: the probe runs list-append at REPEATABLE READ (two runs of 80
 * transactions from 4 sessions), {@code capture} killed with SIGKILL while the first one commits
 * (once 20 records were published) and restarted after the second,
 * and one row held elements before the capture existed (its baseline). The events topic then holds
 * exactly one transaction per committed probe transaction that appended, with exactly its appends,
 * plus the baseline, that row's update and the probe's key inserts; a record published twice (after
 * the kill) is the same bytes; and the monitor, expecting serializable, checks them all and
 * publishes nothing: no violation, no dead letter, no unresolved read. Then the test writes two lists
 * directly, in an order no PostgreSQL gives: T1 puts 11 on x and 21 on y, then T2 puts 22 before 21
 * on y and 12 after 11 on x, so that x's version order is T1, T2 and y's is T2, T1; the monitor
 * publishes exactly the violations this implies, with the ids of those two database transactions.
 */
@ExtendWith(KafkaBroker.class)
@Timeout(480)
class CdcCaptureEndToEndTest {
  private static final String SLOT = "e2e_cdc";
  private static final String HISTORY = "e2e-cdc";
  private static final String OLD_KEY = "older-than-the-slot";
  @RegisterExtension
  static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path tmp; // the children's logs stay after a failure

  @BeforeAll
  static void start() throws Exception {
    ListRows.prepareWithRow(POSTGRES.get(), OLD_KEY, ",1,2");
  }

  @Test
  void aConsistentDatabaseYieldsNothingAndListsWrittenOutOfOrderYieldTheirCycle() throws Exception {
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics("e2e-cdc.events", "e2e-cdc.violations", "e2e-cdc.dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
    Topics.create(KafkaBroker.broker().admin(), Topics.of(config), Optional.of(2), Optional.of((short) 1),
        Optional.empty());
    Path monitorConfig = Files.writeString(tmp.resolve("monitor.properties"), "");
    List<String> args = List.of("--cdc", "--table", Dialect.LIST_TABLE, "--jdbc-url", POSTGRES.get().jdbcUrl(),
        "--bootstrap-servers", KafkaBroker.bootstrapServers(), "--events-topic", config.eventsTopic(),
        "--name", SLOT, "--history-id", HISTORY, "--offsets-topic", "e2e-cdc.offsets");
    Properties clients = new Properties();
    clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    List<Transaction> recorded = Collections.synchronizedList(new ArrayList<>());

    CaptureProcess capture = null;
    MonitorProcess monitor = null;
    try {
      capture = startStreaming(args, "capture-0");
      long oldKeyXid = ListRows.append(POSTGRES.get(), OLD_KEY, 3);
      // SIGKILL while the probe commits, once the first 20 records were published
      CompletableFuture<Void> first = CompletableFuture.runAsync(() -> probe("r1", 11, recorded::add));
      await().atMost(Duration.ofSeconds(90)).until(() -> published(config).size() >= 20);
      capture.kill();
      first.get(120, TimeUnit.SECONDS);
      probe("r2", 12, recorded::add);
      capture = startStreaming(args, "capture-1");
      monitor = MonitorProcess.start(tmp.resolve("monitor.log"), "e2e-cdc-app", config, tmp.resolve("state"),
          monitorConfig);
      await().atMost(Duration.ofSeconds(60)).until(monitor::started);
      Map<String, Transaction> published = awaitCaptured(config, recorded);

      // exactly the database's transactions: each committed probe append in one record with its
      // transaction's other appends, in order; the baseline; the old key's update; the key inserts
      Map<String, String> byRecord = new TreeMap<>();
      for (Transaction r : recorded) {
        List<Operation> appends = appends(r);
        if (r.getStatus() == TxnStatus.COMMITTED && !appends.isEmpty()) {
          Transaction t = publishedWith(published, appends.get(0));
          assertThat(appends(t)).as(r.getTxnId()).isEqualTo(appends);
          assertThat(byRecord.put(t.getTxnId(), r.getTxnId())).isNull();
        }
      }
      Transaction baseline = published.get("cdc-baseline-" + OLD_KEY);
      assertThat(baseline.getOps()).containsExactly(append(OLD_KEY, 1), append(OLD_KEY, 2));
      assertThat(published.get("cdc-" + oldKeyXid).getOps()).containsExactly(append(OLD_KEY, 3),
          new Operation(OpKind.READ, OLD_KEY, List.of(1L, 2L, 3L)));
      List<String> others = new ArrayList<>(published.keySet());
      others.removeAll(byRecord.keySet());
      others.removeAll(List.of(baseline.getTxnId(), "cdc-" + oldKeyXid));
      assertThat(others).allSatisfy(id -> assertThat(published.get(id).getOps())
          .allSatisfy(op -> assertThat(op).isEqualTo(new Operation(OpKind.READ, op.getKey(), List.of()))));
      assertThat(others).hasSize(keysInserted());

      int total = published.size();
      MonitorProcess running = monitor;
      await().atMost(ExactOutput.PATIENCE).until(() -> running.counter("isowatch_transactions_checked_total") >= total
          && running.counter("isowatch_window_held") == 0);
      assertThat(monitor.counter("isowatch_transactions_checked_total")).isEqualTo(total);
      assertThat(ExactOutput.awaitSettled(clients, config.violationsTopic())).isEmpty();
      assertThat(monitor.counter("isowatch_reads_unresolved_total")).isZero();
      assertThat(monitor.counter("isowatch_dlq_records_total")).isZero();

      // lists written out of order: x is T1 then T2, y is T2 then T1
      try (Connection c = POSTGRES.get().connect(); Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO " + Dialect.LIST_TABLE + " (k, v) VALUES ('x', ''), ('y', '')");
      }
      long t1 = ListRows.set(POSTGRES.get(), Map.of("x", ",11", "y", ",21"), List.of("x", "y"));
      long t2 = ListRows.set(POSTGRES.get(), Map.of("y", ",22,21", "x", ",11,12"), List.of("y", "x"));
      await().atMost(ExactOutput.PATIENCE).until(() -> !ExactOutput.violations(clients, config.violationsTopic()).isEmpty());
      List<Violation> got = ExactOutput.awaitSettled(clients, config.violationsTopic());
      // what the two reads of each list imply, each a fact of the lists as written: x's order
      // T1 < T2 and y's T2 < T1 (G0; G1c with T2's read of x, which holds T1's 11); T1 read y as
      // [21] and T2 as [22, 21], neither a prefix of the other; T2 appended 22 and read a list
      // ending in 21 (internal, not-my-own-write)
      // as ExactOutput.describe lists them: sorted as text (cdc-1000 before cdc-999)
      List<String> cycle = Stream.of("cdc-" + t1, "cdc-" + t2).sorted().toList();
      List<String> described = got.stream().map(ExactOutput::describe).sorted().toList();
      assertThat(described).containsExactly(
          HISTORY + " G0 " + cycle,
          HISTORY + " G1c " + cycle,
          HISTORY + " incompatible-order " + cycle,
          HISTORY + " internal [cdc-" + t2 + "]",
          HISTORY + " not-my-own-write " + cycle);
      Map<String, String> byId = new TreeMap<>();
      got.forEach(v -> byId.put(v.getViolationId(), ExactOutput.describe(v)));
      assertThat(byId).hasSize(5).containsEntry(
          ViolationIds.of(Anomaly.G0, cycle, null, Level.READ_UNCOMMITTED), HISTORY + " G0 " + cycle);
      assertThat(monitor.counter("isowatch_dlq_records_total")).isZero();
      assertThat(monitor.alive()).isTrue();
      assertThat(capture.stop()).as(capture.output()).isEqualTo(143);
      assertThat(capture.output()).contains("capture: stopped; ")
          .contains(", 0 row changes not converted, 0 events rejected").doesNotContain("not converted: ");

      // --recorded: a third run of the capture cross-checks the probe run it captured, written to a
      // history file while it runs, plus one transaction the client saw commit and the database never ran
      Path history = tmp.resolve("r3.jsonl");
      List<String> withRecorded = new ArrayList<>(args);
      withRecorded.addAll(List.of("--recorded", history.toString()));
      capture = startStreaming(withRecorded, "capture-2");
      List<Transaction> third = Collections.synchronizedList(new ArrayList<>());
      HistoryCollector collector = new HistoryCollector();
      probe("r3", 13, t -> {
        third.add(t);
        collector.accept(t);
      });
      collector.accept(new Transaction(HISTORY, "ghost", "ghost-1", 0L, TxnStatus.COMMITTED, List.of(append("x", 999)),
          Instant.EPOCH, Instant.EPOCH, null));
      HistoryFiles.write(collector.history(), HistoryFormat.JSONL, history);
      awaitCaptured(config, third);
      long confirmed = third.stream().filter(t -> t.getStatus() == TxnStatus.COMMITTED && !appends(t).isEmpty()).count();
      assertThat(capture.stop()).as(capture.output()).isEqualTo(143);
      assertThat(capture.output().lines().filter(l -> l.startsWith("capture: finding: ")
          || l.startsWith("capture: cross-check "))).containsExactly(
          "capture: finding: LOST_COMMIT recorded recorded/T" + (third.size() + 1) + " key x element 999: the client"
              + " saw the commit; the change stream never shows the element",
          "capture: cross-check with " + history + ": " + confirmed + " recorded transactions confirmed, 1 findings");
    } finally {
      if (capture != null && capture.alive()) {
        capture.kill();
      }
      if (monitor != null) {
        monitor.kill();
      }
    }
  }

  /** Runs the probe: list-append at REPEATABLE READ, 4 sessions, 3 keys of 8 appends, 80 transactions. */
  private static void probe(String runTag, long seed, TransactionSink recorded) {
    ProbeConfig probe = new ProbeConfig(POSTGRES.get().jdbcUrl(), null, null, ProbeIsolation.REPEATABLE_READ,
        ProbeWorkload.LIST_APPEND, Scenario.RANDOM, 4, 3, 8, 80, null, HISTORY, runTag, seed);
    try {
      assertThat(new Probe(probe, Dialect.forUrl(POSTGRES.get().jdbcUrl()), recorded).run().committed())
          .isPositive();
    } catch (Exception e) {
      throw new IllegalStateException("the probe failed: " + e.getMessage(), e);
    }
  }

  private static int keysInserted() throws SQLException {
    try (Connection c = POSTGRES.get().connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + Dialect.LIST_TABLE + " WHERE k <> '" + OLD_KEY + "'")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static Operation append(String key, long e) {
    return new Operation(OpKind.APPEND, key, e);
  }

  private static List<Operation> appends(Transaction t) {
    return t.getOps().stream().filter(o -> o.getKind() == OpKind.APPEND).toList();
  }

  private static Transaction publishedWith(Map<String, Transaction> published, Operation append) {
    return published.values().stream().filter(t -> !t.getTxnId().startsWith("cdc-baseline-")
        && t.getOps().contains(append)).reduce((a, b) -> {
          throw new AssertionError(append + " published by " + a.getTxnId() + " and " + b.getTxnId());
        }).orElseThrow(() -> new AssertionError(append + " not published"));
  }

  /**
   * Waits until the events topic holds every committed append of {@code recorded}, then checks that
   * a transaction published more than once is the same record each time.
   *
   * @return the published transactions by txnId
   */
  private static Map<String, Transaction> awaitCaptured(MonitorConfig config, List<Transaction> recorded) {
    List<Operation> expected = new ArrayList<>();
    List.copyOf(recorded).stream().filter(t -> t.getStatus() == TxnStatus.COMMITTED)
        .forEach(t -> expected.addAll(appends(t)));
    await().atMost(Duration.ofSeconds(90)).until(() -> published(config).values().stream()
        .flatMap(t -> t.getOps().stream()).toList().containsAll(expected));
    return published(config);
  }

  private static Map<String, Transaction> published(MonitorConfig config) {
    Map<String, Transaction> byId = new LinkedHashMap<>();
    for (var r : TopicRecords.readAll(KafkaBroker.bootstrapServers(), config.eventsTopic())) {
      Transaction t = (Transaction) r.value();
      Transaction before = byId.putIfAbsent(t.getTxnId(), t);
      assertThat(before == null || before.equals(t)).as("%s published twice, differently", t.getTxnId()).isTrue();
    }
    return byId;
  }

  /** As {@code CaptureEndToEndTest}: starts {@code capture} and waits until its slot streams. */
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
}
