package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.stream.kafka.EmbeddedKafka;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.replay.HistoryRecords;
import io.isowatch.stream.replay.Replayer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code isowatch replay} against a real broker: exactly the history's records, in order. */
@ExtendWith(KafkaBroker.class)
class ReplayCommandTest {
  @TempDir Path tmp;

  @Test
  void publishesEveryEventOfTheFileInHistoryOrder() throws Exception {
    String topic = "replay-events-test";
    KafkaBroker.broker().createTopic(topic, 1, Optional.empty());
    CliRun run = CliRun.of("replay", "--bootstrap-servers", KafkaBroker.bootstrapServers(), "-q",
        "--from", CliRun.sample("causal-violation.jsonl").toString(), "--events-topic", topic,
        "--history-id", "blog");
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    assertThat(run.out()).startsWith("published history blog: 4 transactions as 14 events (");
    List<String> expected = new ArrayList<>();
    new HistoryRecords(HistoryFiles.read(CliRun.sample("causal-violation.jsonl"), null, null), "blog",
        Instant.EPOCH, Duration.ofMillis(1))
        .forEachEvent(k -> expected.add(k.key() + " " + withoutTime((TxnEvent) k.value())));
    List<String> got = TopicRecords.readAll(KafkaBroker.bootstrapServers(), topic).stream()
        .map(r -> r.key() + " " + withoutTime((TxnEvent) r.value())).toList();
    assertThat(got).hasSize(14).isEqualTo(expected);
  }

  /**
   * Each record's timestamp is its event's time, 1 ms apart, and the history ends when the replay
   * starts: no timestamp is later than the clock read after the replay returned, though the run's
   * events span seconds (a replay once stamped them from now into the future).
   */
  @Test
  void recordTimestampsAreEventTimesEndingNowNeverInTheFuture() {
    String topic = "replay-timestamps-test";
    KafkaBroker.broker().createTopic(topic, 1, Optional.empty());
    long before = System.currentTimeMillis();
    CliRun run = CliRun.of("replay", "--bootstrap-servers", KafkaBroker.bootstrapServers(), "-q",
        "--sim", "serializable", "--transactions", "800", "--events-topic", topic);
    long after = System.currentTimeMillis();
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.CONSISTENT);
    List<TopicRecords.Read> got = TopicRecords.readAll(KafkaBroker.bootstrapServers(), topic);
    assertThat(got).hasSizeGreaterThan(4000).allSatisfy(r -> {
      assertThat(r.timestamp()).isLessThanOrEqualTo(after);
      assertThat(r.timestamp()).isEqualTo(((TxnEvent) r.value()).getTime().toEpochMilli());
    });
    for (int i = 1; i < got.size(); i++) {
      assertThat(got.get(i).timestamp() - got.get(i - 1).timestamp()).isEqualTo(1);
    }
    assertThat(got.get(got.size() - 1).timestamp()).isBetween(before, after);
  }

  @Test
  void publishesWholeTransactionsOfASimulatedRun() {
    String topic = "replay-transactions-test";
    KafkaBroker.broker().createTopic(topic, 2, Optional.empty());
    CliRun run = CliRun.of("replay", "--bootstrap-servers", KafkaBroker.bootstrapServers(), "-q",
        "--sim", "serializable", "--transactions", "40", "--whole-transactions", "--events-topic", topic);
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    assertThat(run.out()).startsWith("published history sim-serializable: 40 transactions as 40 Transaction records (");
    List<TopicRecords.Read> got = TopicRecords.readAll(KafkaBroker.bootstrapServers(), topic);
    assertThat(got).hasSize(40).allSatisfy(r -> {
      Transaction t = (Transaction) r.value();
      assertThat(r.key()).isEqualTo("sim-serializable/" + t.getSessionId());
    });
    assertThat(got.stream().map(r -> ((Transaction) r.value()).getTxnId()).sorted().toList())
        .hasSize(40).doesNotHaveDuplicates();
  }

  /** Read atomic runs on the replicated store (rw-register): every level has a simulated run. */
  @Test
  void publishesEventsOfASimulatedReadAtomicRun() {
    String topic = "replay-sim-read-atomic-test";
    KafkaBroker.broker().createTopic(topic, 2, Optional.empty());
    CliRun run = CliRun.of("replay", "--bootstrap-servers", KafkaBroker.bootstrapServers(), "-q",
        "--sim", "read-atomic", "--transactions", "16", "--events-topic", topic);
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.CONSISTENT);
    // 16 transactions of 4 operations (the replicated store aborts nothing): 16 * (1 + 4 + 1) events
    assertThat(run.out()).startsWith("published history sim-read-atomic: 16 transactions as 96 events (");
    List<TopicRecords.Read> got = TopicRecords.readAll(KafkaBroker.bootstrapServers(), topic);
    assertThat(got).hasSize(96).allSatisfy(r -> {
      TxnEvent e = (TxnEvent) r.value();
      assertThat(r.key()).isEqualTo("sim-read-atomic/" + e.getSessionId());
    });
  }

  /**
   * The broker is asked first: with it down, the schema registry (a socket that listens, so that a
   * connection would wait in its backlog) is never contacted and no schema is registered.
   */
  @Test
  void anUnansweredBrokerIsAUsageErrorAndTheRegistryIsNeverContacted() throws Exception {
    String closed = CliRun.closedAddress();
    try (ServerSocket registry = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      CliRun run = CliRun.of("replay", "--bootstrap-servers", closed, "-q", "--sim", "causal", "--transactions",
          "8", "--schema-registry-url", "http://127.0.0.1:" + registry.getLocalPort());
      assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.out()).isEmpty();
      assertThat(run.err()).isEqualTo("isowatch replay: Kafka at " + closed + " refused the connection: nothing listens there"
          + StartupChecks.BROKER_HINT + "\n");
      registry.setSoTimeout(1);
      assertThatThrownBy(registry::accept).isInstanceOf(SocketTimeoutException.class);
    }
  }

  /**
   * A topic that does not exist, on brokers that do not create topics on first use: exit 2 at once
   * instead of the producer's 60 s wait; on brokers that do (the shared test broker), replay goes on.
   */
  @Test
  void aMissingTopicOnBrokersThatDoNotCreateTopicsIsAUsageError() throws Exception {
    try (EmbeddedKafka strict = EmbeddedKafka.start(Map.of("auto.create.topics.enable", "false"), new Properties())) {
      String bootstrap = strict.bootstrapServers();
      CliRun run = CliRun.of("replay", "--bootstrap-servers", bootstrap, "-q", "--sim", "causal", "--transactions",
          "8", "--events-topic", "nosuch.events");
      assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.err()).isEqualTo("isowatch replay: topic nosuch.events does not exist on " + bootstrap
          + " and its brokers do not create topics on first use (auto.create.topics.enable=false); create it"
          + " (e.g. kafka-topics.sh --bootstrap-server " + bootstrap + " --create --topic nosuch.events"
          + " --partitions 6) or name another\n");
      strict.createTopic("nosuch.events", 1, Optional.empty());
      assertThat(CliRun.of("replay", "--bootstrap-servers", bootstrap, "-q", "--sim", "causal", "--transactions",
          "8", "--events-topic", "nosuch.events").exitCode()).isEqualTo(ExitCode.CONSISTENT);
    }
    CliRun autoCreated = CliRun.of("replay", "--bootstrap-servers", KafkaBroker.bootstrapServers(), "-q", "--sim",
        "causal", "--transactions", "8", "--events-topic", "first-use.events");
    assertThat(autoCreated.exitCode()).as(autoCreated.err()).isEqualTo(ExitCode.CONSISTENT);
  }

  /** The check uses the security settings of --config: SASL on a plaintext listener is refused. */
  @Test
  void theBrokerCheckUsesTheConfigsSecuritySettings() throws Exception {
    Path config = CliRun.saslConfig(tmp);
    String bootstrap = KafkaBroker.bootstrapServers();
    CliRun run = CliRun.of("replay", "--bootstrap-servers", bootstrap, "-q", "--sim", "causal", "--transactions",
        "8", "--config", config.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err()).isEqualTo("isowatch replay: Kafka at " + bootstrap + CliRun.SASL_REFUSED);
  }

  /**
   * The only broker stops once part of a large replay is acknowledged: replay gives up within
   * {@link Replayer#GIVE_UP_AFTER} (plus the broker's shutdown) instead of minutes, exit 2, and says
   * in one line how many events were acknowledged and how to go on.
   */
  @Test
  void aBrokerThatStopsMidReplayIsOneLineWithTheAcknowledgedCountWithinTheBound() throws Exception {
    EmbeddedKafka doomed = EmbeddedKafka.start();
    String bootstrap = doomed.bootstrapServers();
    String topic = "doomed.events";
    doomed.createTopic(topic, 1, Optional.empty());
    Path history = tmp.resolve("large.jsonl"); // 100,000 one-write transactions: 300,000 events
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(history))) {
      for (int i = 0; i < 100_000; i++) {
        w.printf("{\"session\":\"s%d\",\"txn\":%d,\"status\":\"committed\",\"ops\":[{\"f\":\"w\",\"key\":\"k%d\","
            + "\"value\":%d}]}%n", i % 8, i + 1, i % 8, i + 1);
      }
    }
    CompletableFuture<CliRun> replay = CompletableFuture.supplyAsync(() -> CliRun.of("replay",
        "--bootstrap-servers", bootstrap, "-q", "--from", history.toString(), "--events-topic", topic,
        "--history-id", "doomed"));
    TopicPartition partition = new TopicPartition(topic, 0);
    long seen;
    Instant stopped;
    try {
      seen = await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(10))
          .until(() -> doomed.admin().listOffsets(Map.of(partition, OffsetSpec.latest())).partitionResult(partition)
              .get().offset(), n -> n >= 1000);
      assertThat(replay).isNotDone();
    } finally {
      stopped = Instant.now();
      doomed.close();
    }
    CliRun run = replay.get(Replayer.GIVE_UP_AFTER.toSeconds() + 30, TimeUnit.SECONDS);
    assertThat(Duration.between(stopped, Instant.now())).isLessThan(Replayer.GIVE_UP_AFTER.plusSeconds(15));
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.out()).isEmpty();
    Matcher m = Pattern.compile("isowatch replay: Kafka at " + Pattern.quote(bootstrap) + " stopped answering:"
        + " ([0-9,]+) of (300,000) events of history doomed were acknowledged before replay gave up after 30 s;"
        + " when it answers again, replay the whole history under a new --history-id \\(the same id would make"
        + " the monitor dead-letter the repeated events as conflicting-duplicate\\)\n").matcher(run.err());
    assertThat(m.matches()).as(run.err()).isTrue();
    long acknowledged = Long.parseLong(m.group(1).replace(",", ""));
    assertThat(acknowledged).isGreaterThanOrEqualTo(seen).isLessThan(Long.parseLong(m.group(2).replace(",", "")));
  }

  private static String withoutTime(TxnEvent e) {
    TxnEvent copy = TxnEvent.newBuilder(e).setTime(Instant.EPOCH).build();
    return copy.toString();
  }
}
