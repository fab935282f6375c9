package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code isowatch museum} prints the ladder of the simulated engines. */
class MuseumCommandTest {
  @Test
  void printsTheWholeLadderWithEveryCellFilled() {
    CliRun run = CliRun.of("museum");

    assertThat(run.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    List<String> lines = run.out().lines().map(l -> l.replaceAll(" +", " ")).toList();
    assertThat(lines).containsExactly(
        "The isolation ladder over 150 schedules per rung (seeds 0..149): 4 sessions, 3 keys (uniform),"
            + " 6 transactions per session, 4 operations each, read ratio 0.6",
        "",
        "rung engine workload soundness weakness (the next rung forbids) commit rate",
        "RU mvcc rw-register sound over 150 schedules admits G1b at seed 0 (130 of 150) 100.0% (3600 of 3600)",
        "RC mvcc rw-register sound over 150 schedules admits commit-order-cycle (fractured read) at seed 0"
            + " (148 of 150) 100.0% (3600 of 3600)",
        "RA replicated rw-register sound over 150 schedules admits commit-order-cycle (causality violation)"
            + " at seed 3 (7 of 150) 100.0% (3600 of 3600)",
        "CC replicated rw-register sound over 150 schedules admits lost-update at seed 0 (85 of 150) 100.0%"
            + " (3600 of 3600)",
        "SI mvcc list-append sound over 150 schedules admits G2-item at seed 0 (123 of 150) 52.6% (1894 of 3600)",
        "SER mvcc list-append sound over 150 schedules admits nothing (top of the ladder) 43.5% (1568 of 3600)",
        "SI mvcc rw-register sound over 150 schedules admits G2-item at seed 0 (121 of 150) 52.6% (1894 of 3600)",
        "SER mvcc rw-register sound over 150 schedules admits nothing (top of the ladder) 43.5% (1568 of 3600)");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void oneScheduleFromAnotherSeedMayShowNoWeakness() {
    CliRun run = CliRun.of("museum", "--schedules", "1", "--seed", "1", "--sessions", "1");

    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.out()).contains("admits nothing of read-committed seen");
  }

  @Test
  void badOptionsAreUsageErrors() {
    CliRun zero = CliRun.of("museum", "--schedules", "0");
    CliRun ratio = CliRun.of("museum", "--read-ratio", "2");

    assertThat(zero.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(zero.err()).startsWith("--schedules: 0 is not a count (1-2147483647)");
    assertThat(ratio.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(ratio.err()).startsWith("readRatio must be in [0, 1], was 2.0");
  }

  @Test
  void helpNamesTheOptions() {
    CliRun run = CliRun.of("museum", "--help");

    assertThat(run.exitCode()).isEqualTo(0);
    assertThat(run.out()).contains("--schedules=N", "--seed=S", "--key-distribution=D", "uniform or zipf");
  }
}
