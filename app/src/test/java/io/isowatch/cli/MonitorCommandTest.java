package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.config.DebeziumCdc;
import io.isowatch.stream.config.EventsInput;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MetricsEndpoint;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code isowatch monitor} on a real broker: setup errors that say what to do, a clean run and stop. */
@ExtendWith(KafkaBroker.class)
class MonitorCommandTest {
  @TempDir Path tmp;

  @Test
  void missingTopicsAreAUsageErrorThatSaysHowToCreateThem() {
    String bootstrap = KafkaBroker.bootstrapServers();
    CliRun run = CliRun.of("monitor", "--bootstrap-servers", bootstrap, "--events-topic", "nope.events",
        "--violations-topic", "nope.violations", "--dlq-topic", "nope.dlq", "--metrics-port", "-1");
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err()).isEqualTo("isowatch monitor: topic(s) nope.dlq, nope.events, nope.violations do not"
        + " exist on " + bootstrap + "; create them (e.g. kafka-topics.sh --bootstrap-server " + bootstrap
        + " --create --topic nope.dlq --partitions 6) or pass --create-topics\n");
  }

  @Test
  void theCdcInputNeedsItsTopicsWithOnePartitionEach() throws Exception {
    String bootstrap = KafkaBroker.bootstrapServers();
    Topics.create(KafkaBroker.broker().admin(), List.of("cdc2.public.t", "cdc2.transaction"), Optional.of(2),
        Optional.of((short) 1), Optional.empty());
    CliRun run = CliRun.of("monitor", "--bootstrap-servers", bootstrap, "--input", "debezium-cdc",
        "--events-topic", "cdc2.public.t", "--violations-topic", "cdc2.violations", "--dlq-topic", "cdc2.dlq",
        "--create-topics", "--metrics-port", "-1");
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err()).endsWith("isowatch monitor: --input debezium-cdc reads topic cdc2.public.t, which has 2"
        + " partitions; it needs one, whose order is the database's commit order (set the connector's"
        + " topic.creation.default.partitions=1, or create the topic with --partitions 1 before it starts)\n");
    CliRun missing = CliRun.of("monitor", "--bootstrap-servers", bootstrap, "--input", "debezium-cdc",
        "--events-topic", "cdc3.public.t", "--violations-topic", "cdc2.violations", "--dlq-topic", "cdc2.dlq",
        "--metrics-port", "-1");
    assertThat(missing.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(missing.err()).isEqualTo("isowatch monitor: topic(s) cdc3.public.t, cdc3.transaction do not"
        + " exist on " + bootstrap + "; create them (e.g. kafka-topics.sh --bootstrap-server " + bootstrap
        + " --create --topic cdc3.public.t --partitions 1) or pass --create-topics\n");
    CliRun options = CliRun.of("monitor", "--bootstrap-servers", "x:1", "--cdc-table", "t");
    assertThat(options.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(options.err()).startsWith(
        "--cdc-transaction-topic, --cdc-table and --cdc-history-id go with --input debezium-cdc");
  }

  @Test
  void theCdcInputTakesItsTopicTableHistoryAndWindowFromTheEventsTopicUnlessTold() {
    MonitorCommand derived = new MonitorCommand();
    new CommandLine(derived).parseArgs("--bootstrap-servers", "x:1", "--input", "debezium-cdc",
        "--events-topic", "shop.public.orders_lists");
    MonitorConfig d = derived.buildConfig();
    assertThat(d.input()).isEqualTo(EventsInput.DEBEZIUM_CDC);
    assertThat(d.cdcInput()).isEqualTo(new DebeziumCdc("shop.transaction", "orders_lists", "shop"));
    assertThat(d.windowTransactions()).isEqualTo(2_000);
    MonitorCommand told = new MonitorCommand();
    new CommandLine(told).parseArgs("--bootstrap-servers", "x:1", "--input", "debezium-cdc",
        "--events-topic", "shop.public.orders_lists", "--cdc-transaction-topic", "tx", "--cdc-table", "t",
        "--cdc-history-id", "h", "--window-transactions", "500");
    MonitorConfig t = told.buildConfig();
    assertThat(t.cdcInput()).isEqualTo(new DebeziumCdc("tx", "t", "h"));
    assertThat(t.windowTransactions()).isEqualTo(500);
    MonitorCommand avro = new MonitorCommand();
    new CommandLine(avro).parseArgs("--bootstrap-servers", "x:1");
    assertThat(avro.buildConfig().windowTransactions()).isEqualTo(100_000);
  }

  @Test
  void aRefusedBrokerIsAUsageErrorNamingTheAddressAtOnce() throws Exception {
    String closed = CliRun.closedAddress();
    CliRun run = CliRun.of("monitor", "--bootstrap-servers", closed, "--metrics-port", "-1");
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("isowatch monitor: Kafka at " + closed + " refused the connection: nothing"
        + " listens there" + StartupChecks.BROKER_HINT + "\n");
  }

  /** A listening socket that never answers Kafka's protocol: the admin check's 10 s bound. */
  @Test
  void aSilentBrokerIsAUsageErrorAfterTheCheckTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String address = "127.0.0.1:" + silent.getLocalPort();
      CliRun run = CliRun.of("monitor", "--bootstrap-servers", address, "--metrics-port", "-1");
      assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.err()).isEqualTo("isowatch monitor: Kafka at " + address + " did not answer within 10 s"
          + StartupChecks.BROKER_HINT + "\n");
    }
  }

  /** The check uses the security settings of --config: SASL on a plaintext listener is refused. */
  @Test
  void theBrokerCheckUsesTheConfigsSecuritySettings() throws Exception {
    Path config = CliRun.saslConfig(tmp);
    String bootstrap = KafkaBroker.bootstrapServers();
    CliRun run = CliRun.of("monitor", "--bootstrap-servers", bootstrap, "--config", config.toString(),
        "--metrics-port", "-1");
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err()).isEqualTo("isowatch monitor: Kafka at " + bootstrap + CliRun.SASL_REFUSED);
  }

  @Test
  void aTakenMetricsPortIsAUsageError() throws Exception {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress("127.0.0.1", 0));
      CliRun run = CliRun.of("monitor", "--bootstrap-servers", KafkaBroker.bootstrapServers(), "--create-topics",
          "--events-topic", "port.events", "--violations-topic", "port.violations", "--dlq-topic", "port.dlq",
          "--metrics-port", Integer.toString(taken.getLocalPort()));
      assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.err()).contains("isowatch monitor: cannot serve metrics on 127.0.0.1:" + taken.getLocalPort()
          + " (").endsWith("); pass another --metrics-port (0 picks a free one) or --metrics-port -1\n");
    }
  }

  /** --partitions 0 is refused while parsing: the broker (a socket that listens) is never contacted. */
  @Test
  void zeroPartitionsIsAUsageErrorBeforeKafkaIsContacted() throws Exception {
    try (ServerSocket broker = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      CliRun run = CliRun.of("monitor", "--bootstrap-servers", "127.0.0.1:" + broker.getLocalPort(), "--create-topics",
          "--partitions", "0");
      assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.out()).isEmpty();
      assertThat(run.err()).isEqualTo("--partitions: 0 is not a count (1-2147483647)\n"
          + "'isowatch monitor --help' lists the options.\n");
      broker.setSoTimeout(1);
      assertThatThrownBy(broker::accept).isInstanceOf(SocketTimeoutException.class);
    }
  }

  @Test
  void badOptionValuesSayWhatIsExpected() {
    CliRun duration = CliRun.of("monitor", "--bootstrap-servers", "x:1", "--window-time", "soon");
    assertThat(duration.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(duration.err()).startsWith("--window-time: 'soon' is not a duration;"
        + " write e.g. 250ms, 30s, 15m, 2h, 1d, 0 or PT15M");
    CliRun level = CliRun.of("monitor", "--bootstrap-servers", "x:1", "--level-for", "db1=strict");
    assertThat(level.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(level.err()).startsWith("--level-for db1=strict: 'strict' is not one of"
        + " read-uncommitted, read-committed, read-atomic, causal, snapshot-isolation, serializable");
    CliRun limit = CliRun.of("monitor", "--bootstrap-servers", "x:1", "--limit", "max-ops-per-transaction=1000",
        "--limit", "max-sessions=5");
    assertThat(limit.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(limit.err()).startsWith("--limit: 'max-sessions' is not one of max-ops-per-transaction,"
        + " max-open-transactions-per-session, max-sessions-per-history, max-key-bytes, max-list-length, max-record-bytes");
    CliRun input = CliRun.of("monitor", "--bootstrap-servers", "x:1", "--input", "kafka-connect");
    assertThat(input.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(input.err()).startsWith("--input: 'kafka-connect' is not one of avro, debezium-outbox, debezium-cdc");
    CliRun zero = CliRun.of("monitor", "--bootstrap-servers", "x:1", "--limit", "max-key-bytes=0");
    assertThat(zero.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(zero.err()).startsWith("--limit: max-key-bytes must be at least 1, got 0");
  }

  @Test
  void theTokenComesFromTheOptionTheFileTheEnvironmentOrTheConfigInThatOrder() throws Exception {
    Path file = tmp.resolve("token");
    Files.writeString(file, " from-file\n");
    Properties config = new Properties();
    config.setProperty("isowatch.metrics.token", "from-config");
    config.setProperty("num.stream.threads", "2");
    assertThat(MonitorCommand.metricsToken("from-option", null, "from-env", config)).hasValue("from-option");
    assertThat(config).containsOnlyKeys("num.stream.threads");
    config.setProperty("isowatch.metrics.token", "from-config");
    assertThat(MonitorCommand.metricsToken(null, file, "from-env", config)).hasValue("from-file");
    config.setProperty("isowatch.metrics.token", "from-config");
    assertThat(MonitorCommand.metricsToken(null, null, "from-env", config)).hasValue("from-env");
    config.setProperty("isowatch.metrics.token", " from-config ");
    assertThat(MonitorCommand.metricsToken(null, null, null, config)).hasValue("from-config");
    assertThat(MonitorCommand.metricsToken(null, null, null, config)).isEmpty();
    assertThatThrownBy(() -> MonitorCommand.metricsToken("a", file, null, new Properties()))
        .hasMessage("give --metrics-token or --metrics-token-file, not both");
    assertThatThrownBy(() -> MonitorCommand.metricsToken(null, null, " ", new Properties()))
        .hasMessage("environment variable ISOWATCH_METRICS_TOKEN gives an empty token");
    Path missing = tmp.resolve("missing");
    assertThatThrownBy(() -> MonitorCommand.metricsToken(null, missing, null, new Properties()))
        .hasMessageStartingWith("--metrics-token-file " + missing + ": cannot read (java.nio.file.NoSuchFileException");
  }

  @Test
  void anEmptyTokenOptionIsAUsageError() {
    CliRun run = CliRun.of("monitor", "--bootstrap-servers", "x:1", "--metrics-token", "");
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err()).startsWith("--metrics-token gives an empty token");
  }

  @Test
  void runsServesKafkaStreamsMetricsAndStopsCleanlyOnRequest() throws Exception {
    MonitorConfig config = MonitorConfig.defaults().withTopics("run.events", "run.violations", "run.dlq");
    Properties overlay = new Properties();
    overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.toString());
    MonitorRequest request = new MonitorRequest(config, KafkaBroker.bootstrapServers(), "run-app", overlay, true,
        Optional.of(1), Optional.of((short) 1), MetricsEndpoint.DEFAULT_BIND, 0, Optional.of("t0ken"), true);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CountDownLatch stop = new CountDownLatch(1);
    AtomicReference<MonitorApp> app = new AtomicReference<>();
    CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> {
      try {
        return new MonitorRunner(new PrintWriter(out, true), new PrintWriter(err, true)).run(request, stop, app::set);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    await().atMost(Duration.ofSeconds(60)).until(() -> app.get() != null
        && app.get().state() == KafkaStreams.State.RUNNING);
    assertThat(Topics.missing(KafkaBroker.broker().admin(), Topics.of(config))).isEmpty();
    String startLine = out.toString().lines().findFirst().orElseThrow();
    assertThat(startLine).startsWith("monitor: application run-app on " + KafkaBroker.bootstrapServers()
        + ", reading run.events, expecting serializable; metrics at http://127.0.0.1:");
    URI metrics = URI.create(startLine.substring(startLine.indexOf("http://"), startLine.indexOf(", violations at")));
    assertThat(startLine).endsWith("/metrics, violations at http://127.0.0.1:" + metrics.getPort() + "/violations");
    HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(metrics.resolve("/violations"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(401);
    HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(metrics)
        .header("Authorization", "Bearer t0ken").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(scrape.statusCode()).isEqualTo(200);
    List<String> names = scrape.body().lines().filter(l -> l.startsWith("# TYPE ")).map(l -> l.split(" ")[2]).toList();
    assertThat(names).contains("isowatch_transactions_checked_total", "isowatch_operations_checked_total",
        "kafka_stream_alive_stream_threads",
        "kafka_stream_failed_stream_threads_total", "kafka_consumer_fetch_manager_records_lag_max");
    stop.countDown();
    assertThat(code.get(60, TimeUnit.SECONDS)).isEqualTo(ExitCode.CONSISTENT);
    // Kafka Streams wakes close() up before it calls the state listener with NOT_RUNNING
    await().atMost(Duration.ofSeconds(10)).until(() -> err.toString().contains("monitor: Kafka Streams NOT_RUNNING"));
    assertThat(err.toString().lines().toList()).containsSubsequence(
        "monitor: created topics run.dlq, run.events, run.violations",
        "monitor: Kafka Streams RUNNING", "monitor: Kafka Streams PENDING_SHUTDOWN",
        "monitor: Kafka Streams NOT_RUNNING");
  }
}
