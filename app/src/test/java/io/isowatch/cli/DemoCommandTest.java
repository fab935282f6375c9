package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.stream.kafka.KafkaBroker;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code isowatch demo}: the whole pipeline on a real broker (the shared test broker, through
 * {@code --bootstrap-servers}, so that its topics get a unique prefix) prints the G2-item witnesses
 * of the engine simulator's snapshot-isolation run and a summary beside the offline checker's
 * verdict, and exits 0. The run is deterministic (seed 1: 304 transactions, 107 committed, 13
 * G2-items offline); how many cycles the monitor reports depends on the order in which the two
 * input partitions' sessions reach it, so only the kinds are compared.
 */
@ExtendWith(KafkaBroker.class)
class DemoCommandTest {
  @Test
  void printsTheSimulatedRunsG2ItemWitnessesAndTheOfflineVerdict() {
    CliRun run = CliRun.of("demo", "--transactions", "300", "--bootstrap-servers", KafkaBroker.bootstrapServers());
    List<String> lines = run.out().lines().toList();
    assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCode.CONSISTENT);
    List<String> headlines = lines.stream().filter(l -> l.startsWith("violation ")).toList();
    assertThat(headlines).isNotEmpty().allSatisfy(l -> assertThat(l)
        .matches("violation \\S+: G2-item in history demo \\(weakest level broken: serializable\\)"));
    assertThat(lines).contains(row("transactions published", "304  (1,824 events)"),
        row("committed / aborted", "107 / 197"), row("transactions checked", "304"),
        row("violations published", Integer.toString(headlines.size())), row("dead letters", "0"),
        table("expecting serializable", "monitor", "offline check"),
        table("  G2-item (serializable)", Integer.toString(headlines.size()), "13"),
        table("verdict", "violated", "violated"));
    assertThat(lines.stream().filter(l -> l.startsWith("  rw: ")).count()).isGreaterThanOrEqualTo(2L * headlines.size());
  }

  @Test
  void atSnapshotIsolationBothVerdictsAreConsistent() {
    CliRun run = CliRun.of("demo", "--level", "snapshot-isolation", "--transactions", "300",
        "--bootstrap-servers", KafkaBroker.bootstrapServers());
    List<String> lines = run.out().lines().toList();
    assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCode.CONSISTENT);
    assertThat(lines).noneMatch(l -> l.startsWith("violation "))
        .contains(row("violations published", "0"), table("verdict", "consistent", "consistent"));
  }

  /** @return a row of the offline comparison as {@link StreamDemo} prints it */
  private static String table(String label, String online, String offline) {
    return String.format("  %-30s %-10s %s", label, online, offline);
  }

  /** @return a summary row as {@link StreamDemo} prints it */
  private static String row(String label, String value) {
    return String.format("  %-30s %s", label, value);
  }

  @Test
  void helpTellsWhatTheDemoShows() {
    CliRun run = CliRun.of("demo", "--help");
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    assertThat(run.firstLines(2)).containsExactly(
        "Watch the streaming monitor catch write skew, in one process, in under a minute.",
        "Usage: isowatch demo [-hV] [--bootstrap-servers=HOST:PORT] [--level=LEVEL]");
  }

  @Test
  void tooFewTransactionsIsAUsageError() {
    CliRun run = CliRun.of("demo", "--transactions", "3");
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err()).startsWith("--transactions must be at least 10, got 3");
  }
}
