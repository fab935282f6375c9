package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The example histories of {@code docs/examples/} get the verdicts the README tells. */
class ExamplesTest {
  @ParameterizedTest
  @CsvSource({
    "consistent.jsonl, 0",
    "read-committed-violation.jsonl, 1",
    "causal-violation.jsonl, 1"
  })
  void checkGivesTheDocumentedExitCode(String file, int exitCode) {
    CliRun run = CliRun.of("check", "--quiet", "--level", "read-committed,read-atomic,causal",
        CliRun.sample(file).toString());
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isEqualTo(exitCode);
  }
}
