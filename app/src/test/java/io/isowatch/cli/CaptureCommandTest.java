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
    assertThat(run.err()).isEqualTo("Error: Missing required argument (specify one of these): (--outbox | --cdc)\n"
        + "'isowatch capture --help' lists the options.\n");
  }

  @Test
  void cdcNeedsATableAndTakesNoPruning() {
    CliRun noTable = CliRun.of("capture", "--cdc", "--jdbc-url", "jdbc:postgresql://db/app",
        "--bootstrap-servers", "127.0.0.1:9");
    assertThat(noTable.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(noTable.err()).isEqualTo("isowatch capture: --cdc needs --table T, the list-append table to capture\n");
    CliRun prune = CliRun.of("capture", "--cdc", "--table", "t", "--prune-after", "--jdbc-url",
        "jdbc:postgresql://db/app", "--bootstrap-servers", "127.0.0.1:9");
    assertThat(prune.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(prune.err()).isEqualTo("isowatch capture: --prune-after goes with --outbox only (--cdc deletes"
        + " nothing)\n");
    CliRun badTable = CliRun.of("capture", "--cdc", "--table", "a.b.c", "--jdbc-url", "jdbc:postgresql://db/app",
        "--bootstrap-servers", "127.0.0.1:9");
    assertThat(badTable.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(badTable.err()).isEqualTo("isowatch capture: --table a.b.c: not [SCHEMA.]TABLE of letters, digits"
        + " and _\n");
    CliRun tableWithOutbox = CliRun.of("capture", "--outbox", "--table", "t", "--jdbc-url", "jdbc:postgresql://db/app",
        "--bootstrap-servers", "127.0.0.1:9");
    assertThat(tableWithOutbox.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(tableWithOutbox.err()).isEqualTo("isowatch capture: --table, --history-id and --recorded go with --cdc"
        + " only\n");
  }

  @Test
  void helpShowsExamplesAndTheOffsetAndPruneOptions() {
    CliRun run = CliRun.of("capture", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Examples:", "isowatch capture --outbox --jdbc-url", "--offsets-topic=TOPIC",
        "--offsets=FILE", "--prune-after", "--schema-registry-url=URL", "isowatch capture --cdc --table",
        "--history-id=ID", "--recorded=FILE");
    assertThat(run.out().lines().filter(l -> l.length() > 80)).isEmpty();
  }
}
