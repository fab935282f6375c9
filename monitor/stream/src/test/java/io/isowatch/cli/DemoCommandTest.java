package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.stream.kafka.KafkaBroker;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code isowatch demo}: the whole pipeline on a real broker (the shared test broker, through
 * {@code --bootstrap-servers}, so that its topics get a unique prefix) prints a G2-item witness
 * per injected write skew and a summary, and exits 0.
 */
@ExtendWith(KafkaBroker.class)
class DemoCommandTest {
  @Test
  void printsEveryInjectedWriteSkewAsAG2ItemWitnessAndASummary() {
    CliRun run = CliRun.of("demo", "--transactions", "300", "--bootstrap-servers", KafkaBroker.bootstrapServers());
    List<String> lines = run.out().lines().toList();
    assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCode.CONSISTENT);
    List<String> headlines = lines.stream().filter(l -> l.startsWith("violation ")).toList();
    assertThat(headlines).hasSize(4).allSatisfy(l -> assertThat(l)
        .matches("violation \\S+: G2-item in history demo \\(weakest level broken: serializable\\)"));
    assertThat(lines).contains(row("transactions published", "300  (1,496 events)"),
        row("transactions checked", "300"), row("write skews injected", "4"),
        row("violations published", "4"), row("  G2-item, serializable", "4"), row("dead letters", "0"));
    assertThat(lines.stream().filter(l -> l.startsWith("  rw: ")).count()).isEqualTo(8);
  }

  /** @return a summary row as {@link StreamDemo} prints it */
  private static String row(String label, String value) {
    return String.format("  %-28s %s", label, value);
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
