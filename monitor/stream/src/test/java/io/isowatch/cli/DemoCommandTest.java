package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code isowatch demo} checks every bundled sample and gets the verdicts each is known for. */
class DemoCommandTest {
  @Test
  void everySampleGetsItsExpectedVerdicts() {
    CliRun run = CliRun.of("demo", "--quiet");
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    assertThat(run.err()).isEmpty();
    assertThat(run.firstLines(5)).containsExactly(
        "== sample consistent.jsonl: three sessions that only read committed, causally consistent data",
        "== isowatch check --level read-committed,read-atomic,causal consistent.jsonl",
        "read-committed: CONSISTENT",
        "read-atomic: CONSISTENT",
        "causal: CONSISTENT");
    List<String> lines = run.out().lines().toList();
    assertThat(lines.stream().filter(l -> l.startsWith("== exit code")).toList()).containsExactly(
        "== exit code 0, as expected",
        "== exit code 1, as expected",
        "== exit code 1, as expected");
    assertThat(lines.get(lines.size() - 1)).isEqualTo("All 3 samples got their expected verdicts.");
  }

  @Test
  void helpSaysTheStreamingDemoReplacesIt() {
    CliRun run = CliRun.of("demo", "--help");
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    assertThat(run.firstLines(2)).containsExactly(
        "Check the bundled sample histories (until the streaming demo replaces it).",
        "Usage: isowatch demo [-hqV]");
    assertThat(run.out()).contains("feeding the Kafka Streams monitor) replaces it in a later version.");
  }
}
