package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code isowatch capture}'s usage errors, each exit 2 with one line before anything is started,
 * and its help. The capture itself runs in {@code endtoend.CaptureEndToEndTest}.
 */
class CaptureCommandTest {
  @Test
  void aDatabaseOtherThanPostgresqlIsAUsageError() {
    CliRun run = CliRun.of("capture", "--outbox", "--jdbc-url", "jdbc:mariadb://db:3306/app",
        "--bootstrap-servers", "127.0.0.1:9");
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err()).isEqualTo("isowatch capture: --jdbc-url jdbc:mariadb://db:3306/app: not a PostgreSQL URL"
        + " (jdbc:postgresql://HOST:PORT/DB); capture reads PostgreSQL only\n");
  }

  @Test
  void aNameThatCannotBeASlotIsAUsageError() {
    CliRun run = CliRun.of("capture", "--outbox", "--jdbc-url", "jdbc:postgresql://db/app", "--name", "Out-box",
        "--bootstrap-servers", "127.0.0.1:9");
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err()).isEqualTo("isowatch capture: --name Out-box: only lower-case letters, digits and _"
        + " (a replication slot's name)\n");
  }

  @Test
  void aRefusedBrokerIsAUsageErrorBeforeTheDatabaseIsTouched() throws Exception {
    String closed = CliRun.closedAddress();
    CliRun run = CliRun.of("capture", "--outbox", "--jdbc-url", "jdbc:postgresql://" + CliRun.closedAddress() + "/app",
        "--bootstrap-servers", closed);
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("isowatch capture: Kafka at " + closed + " refused the connection: nothing"
        + " listens there" + StartupChecks.BROKER_HINT + "\n");
  }

  @Test
  void aModeIsRequired() {
    CliRun run = CliRun.of("capture", "--jdbc-url", "jdbc:postgresql://db/app", "--bootstrap-servers", "127.0.0.1:9");
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err()).isEqualTo("Error: Missing required argument (specify one of these): --outbox\n"
        + "'isowatch capture --help' lists the options.\n");
  }

  @Test
  void helpShowsExamplesAndTheOffsetAndPruneOptions() {
    CliRun run = CliRun.of("capture", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Examples:", "isowatch capture --outbox --jdbc-url", "--offsets-topic=TOPIC",
        "--offsets=FILE", "--prune-after", "--schema-registry-url=URL");
  }
}
