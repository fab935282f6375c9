package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import io.isowatch.stream.kafka.EmbeddedKafka;
import io.isowatch.stream.kafka.KafkaBroker;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code isowatch probe}'s usage and error paths; those that need a database and a broker ({@link
 * Publishing}) on a private PostgreSQL server and a real broker. Runs against real databases are in
 * the connectors module's tests (private servers), where the probe itself lives.
 */
class ProbeCommandTest {
  @Test
  void refusedConnectionExitsTwoNamingTheUrlAndTheCause() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/app";
    CliRun r = CliRun.of("probe", "--jdbc-url", url, "--isolation", "serializable", "--transactions", "1");
    assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("isowatch probe: cannot connect to " + url + ": ");
    assertThat(r.err()).endsWith("(check that the server runs, the URL, the user and the password)\n");
  }

  /**
   * The broker is asked first: with it down, neither the database nor the schema registry (sockets
   * that listen, so that a connection would wait in their backlog) is contacted.
   */
  @Test
  void anUnansweredBrokerExitsTwoNamingTheAddressBeforeTheDatabaseIsContacted() throws Exception {
    String closed = CliRun.closedAddress();
    try (ServerSocket database = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ServerSocket registry = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      CliRun r = CliRun.of("probe", "--jdbc-url", "jdbc:postgresql://127.0.0.1:" + database.getLocalPort() + "/app",
          "--isolation", "serializable", "--transactions", "1", "--bootstrap-servers", closed,
          "--schema-registry-url", "http://127.0.0.1:" + registry.getLocalPort());
      assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(r.out()).isEmpty();
      assertThat(r.err()).isEqualTo("isowatch probe: Kafka at " + closed + " refused the connection: nothing listens there"
          + StartupChecks.BROKER_HINT + "\n");
      for (ServerSocket untouched : List.of(database, registry)) {
        untouched.setSoTimeout(1);
        assertThatThrownBy(untouched::accept).isInstanceOf(SocketTimeoutException.class);
      }
    }
  }

  /** A topic the brokers will not create is told before the database is contacted. */
  @Test
  void aMissingTopicOnBrokersThatDoNotCreateTopicsExitsTwoBeforeTheDatabaseIsContacted() throws Exception {
    try (EmbeddedKafka strict = EmbeddedKafka.start(Map.of("auto.create.topics.enable", "false"), new Properties());
        ServerSocket database = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String bootstrap = strict.bootstrapServers();
      CliRun r = CliRun.of("probe", "--jdbc-url", "jdbc:postgresql://127.0.0.1:" + database.getLocalPort() + "/app",
          "--isolation", "serializable", "--transactions", "1", "--bootstrap-servers", bootstrap);
      assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(r.err()).isEqualTo("isowatch probe: topic isowatch.events does not exist on " + bootstrap
          + " and its brokers do not create topics on first use (auto.create.topics.enable=false); create it"
          + " (e.g. kafka-topics.sh --bootstrap-server " + bootstrap + " --create --topic isowatch.events"
          + " --partitions 6) or name another\n");
      database.setSoTimeout(1);
      assertThatThrownBy(database::accept).isInstanceOf(SocketTimeoutException.class);
    }
  }

  /**
   * An --out file that could not be written is told before the run, in place of the database's
   * refusal (its URL names a socket that listens and is never contacted) and of the broker's.
   */
  @Test
  void anUnwritableOutExitsTwoWithTheReasonBeforeTheDatabaseIsContacted(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("file");
    Files.writeString(file, "");
    try (ServerSocket database = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Map<String, String> reasons = new LinkedHashMap<>();
      reasons.put("/nonexistent/x.jsonl", "the folder /nonexistent does not exist");
      reasons.put(tmp.toString(), "it is a folder; name a file in it");
      reasons.put(file.resolve("x.jsonl").toString(), file + " is not a folder");
      reasons.forEach((out, reason) -> {
        CliRun r = CliRun.of("probe", "--jdbc-url", "jdbc:postgresql://127.0.0.1:" + database.getLocalPort() + "/app",
            "--isolation", "serializable", "--transactions", "1", "--bootstrap-servers", "127.0.0.1:1",
            "--out", out);
        assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("isowatch probe: --out " + out + ": " + reason + "\n");
      });
      database.setSoTimeout(1);
      assertThatThrownBy(database::accept).isInstanceOf(SocketTimeoutException.class);
    }
  }

  /** A real database and broker: a publishing failure is printed once, with what to check. */
  @Nested
  @ExtendWith(KafkaBroker.class)
  class Publishing {
    @RegisterExtension
    static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);

    /**
     * The broker refuses the topic's name; the first transaction's send fails, the second stops the
     * session, and that one failure is reported once (it used to be printed by the session's
     * failure and again by closing the producer).
     */
    @Test
    void aFailedPublishIsReportedOnce() {
      CliRun r = CliRun.of("probe", "--jdbc-url", POSTGRES.get().jdbcUrl(), "--isolation", "serializable",
          "--sessions", "1", "--transactions", "20", "--run-tag", "once",
          "--bootstrap-servers", KafkaBroker.bootstrapServers(), "--topic", "no such topic");
      assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(r.out()).isEmpty();
      assertThat(r.err()).isEqualTo("isowatch probe: publishing to topic no such topic failed: Invalid topics: [no such topic]"
          + ProbeCommand.PUBLISH_HINT + "\n");
    }

    /** The check uses the security settings of --config: SASL on a plaintext listener is refused. */
    @Test
    void theBrokerCheckUsesTheConfigsSecuritySettings(@TempDir Path tmp) throws Exception {
      Path config = CliRun.saslConfig(tmp);
      String bootstrap = KafkaBroker.bootstrapServers();
      CliRun r = CliRun.of("probe", "--jdbc-url", POSTGRES.get().jdbcUrl(), "--isolation", "serializable",
          "--transactions", "1", "--bootstrap-servers", bootstrap, "--config", config.toString());
      assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(r.err()).isEqualTo("isowatch probe: Kafka at " + bootstrap + CliRun.SASL_REFUSED);
    }
  }

  @Test
  void unknownIsolationExitsTwoNamingTheAcceptedOnes() {
    CliRun r = CliRun.of("probe", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/app", "--isolation", "snapshot");
    assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(r.err()).startsWith("--isolation: 'snapshot' is not one of read-committed,"
        + " repeatable-read, serializable");
  }

  @Test
  void durationAndTransactionsTogetherExitTwo() {
    CliRun r = CliRun.of("probe", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/app", "--isolation",
        "serializable", "--duration", "5s", "--transactions", "10");
    assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(r.err()).contains("mutually exclusive");
  }

  @Test
  void unsupportedUrlExitsTwoNamingTheSupportedOnes() {
    CliRun r = CliRun.of("probe", "--jdbc-url", "jdbc:oracle:thin:@db", "--isolation", "serializable");
    assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(r.err()).isEqualTo("isowatch probe: no probe dialect for JDBC URL 'jdbc:oracle:thin:@db';"
        + " supported: jdbc:postgresql:, jdbc:mariadb:, jdbc:mysql: (or implement"
        + " io.isowatch.connectors.probe.Dialect)\n");
  }

  @Test
  void tooFewKeysForAPairScenarioExitsTwo() {
    CliRun r = CliRun.of("probe", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/app", "--isolation",
        "repeatable-read", "--scenario", "write-skew", "--keys", "1");
    assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(r.err()).isEqualTo("isowatch probe: scenario write-skew needs at least 2 keys, not 1\n");
  }

  @Test
  void unreadableKafkaConfigExitsTwoNamingTheFile() {
    CliRun r = CliRun.of("probe", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/app", "--isolation",
        "serializable", "--bootstrap-servers", "127.0.0.1:1", "--config", "/nonexistent/kafka.properties");
    assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(r.err()).startsWith("isowatch probe: cannot read --config /nonexistent/kafka.properties: ");
  }

  @Test
  void kafkaConfigWithoutBootstrapServersExitsTwo() {
    CliRun r = CliRun.of("probe", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/app", "--isolation",
        "serializable", "--config", "/nonexistent/kafka.properties");
    assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(r.err()).isEqualTo("isowatch probe: --config /nonexistent/kafka.properties holds Kafka settings;"
        + " it needs --bootstrap-servers\n");
  }

  @Test
  void schemaRegistryWithoutBootstrapServersExitsTwo() {
    CliRun r = CliRun.of("probe", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/app", "--isolation",
        "serializable", "--schema-registry-url", "http://127.0.0.1:1");
    assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(r.err()).isEqualTo("isowatch probe: --schema-registry-url frames the records published to Kafka;"
        + " it needs --bootstrap-servers\n");
  }

  @Test
  void helpListsEveryOption() {
    CliRun r = CliRun.of("probe", "--help");
    assertThat(r.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    for (String option : new String[] {"--jdbc-url", "--user", "--password", "--isolation", "--workload",
        "--scenario", "--sessions", "--keys", "--max-appends-per-key", "--duration", "--transactions", "--bootstrap-servers",
        "--topic", "--config", "--schema-registry-url", "--history-id", "--out", "--run-tag", "--seed"}) {
      assertThat(r.out()).contains(option);
    }
  }
}
