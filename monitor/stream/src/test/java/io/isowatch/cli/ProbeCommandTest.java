package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * {@code isowatch probe}'s usage and error paths. Runs against real databases are in the connectors
 * module's tests (private servers), where the probe itself lives.
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

  @Test
  void unknownIsolationExitsTwoNamingTheAcceptedOnes() {
    CliRun r = CliRun.of("probe", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/app", "--isolation", "snapshot");
    assertThat(r.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(r.err()).contains("unknown isolation 'snapshot'; expected one of read-committed,"
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
        "--scenario", "--sessions", "--keys", "--duration", "--transactions", "--bootstrap-servers",
        "--topic", "--config", "--schema-registry-url", "--history-id", "--out", "--run-tag", "--seed"}) {
      assertThat(r.out()).contains(option);
    }
  }
}
