package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.level.Level;
import io.isowatch.connectors.probe.ProbeIsolation;
import io.isowatch.enginesim.workload.KeyDistribution;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every option of every command whose value is one of a fixed set of names refuses another value
 * with the option's name and the accepted names, in one form and without Java class names.
 */
class OptionValuesTest {
  private static final String LEVELS =
      "read-uncommitted, read-committed, read-atomic, causal, snapshot-isolation, serializable";
  private static final String FORMATS = "jsonl, plume, awdit, edn, dbcop, cobra";

  static Stream<Arguments> refusedValues() {
    return Stream.of(
        Arguments.of(List.of("check", "--level", "read-committed,linearizable", "h.jsonl"),
            "--level: 'linearizable' is not one of " + LEVELS + ", all"),
        Arguments.of(List.of("check", "--format", "csv", "h.jsonl"),
            "--format: 'csv' is not one of " + FORMATS),
        Arguments.of(List.of("probe", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/app", "--isolation", "snapshot"),
            "--isolation: 'snapshot' is not one of read-committed, repeatable-read, serializable"),
        Arguments.of(List.of("probe", "--isolation", "serializable", "--workload", "bank"),
            "--workload: 'bank' is not one of list-append, rw-register"),
        Arguments.of(List.of("probe", "--isolation", "serializable", "--scenario", "phantom"),
            "--scenario: 'phantom' is not one of random, write-skew, read-skew, lost-update"),
        Arguments.of(List.of("monitor", "--bootstrap-servers", "x:1", "--level", "strict"),
            "--level: 'strict' is not one of " + LEVELS),
        Arguments.of(List.of("monitor", "--bootstrap-servers", "x:1", "--level-for", "db1=strict"),
            "--level-for db1=strict: 'strict' is not one of " + LEVELS),
        Arguments.of(List.of("monitor", "--bootstrap-servers", "x:1", "--limit", "max-sessions=5"),
            "--limit: 'max-sessions' is not one of max-ops-per-transaction, max-open-transactions-per-session,"
                + " max-sessions-per-history, max-key-bytes, max-list-length, max-record-bytes"),
        Arguments.of(List.of("demo", "--level", "strict"), "--level: 'strict' is not one of " + LEVELS),
        Arguments.of(List.of("replay", "--bootstrap-servers", "x:1", "--sim", "strict"),
            "--sim: 'strict' is not one of " + LEVELS),
        Arguments.of(List.of("replay", "--bootstrap-servers", "x:1", "--from", "h.jsonl", "--format", "csv"),
            "--format: 'csv' is not one of " + FORMATS),
        Arguments.of(List.of("museum", "--key-distribution", "ZIPFIAN"),
            "--key-distribution: 'ZIPFIAN' is not one of uniform, zipf"));
  }

  @ParameterizedTest
  @MethodSource("refusedValues")
  void aValueNotAmongTheNamesIsExitTwoNamingOptionAndNames(List<String> args, String message) {
    CliRun run = CliRun.of(args.toArray(String[]::new));
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines().toList()).containsExactly(
        message, "'isowatch " + args.get(0) + " --help' lists the options.");
  }

  /** Other converters' refusals take the same form: the option, then the converter's words. */
  @ParameterizedTest
  @MethodSource("otherRefusals")
  void otherBadValuesNameTheOptionWithoutJavaNames(List<String> args, String message) {
    CliRun run = CliRun.of(args.toArray(String[]::new));
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err().lines().findFirst().orElseThrow()).isEqualTo(message);
  }

  static Stream<Arguments> otherRefusals() {
    return Stream.of(
        Arguments.of(List.of("monitor", "--bootstrap-servers", "x:1", "--window-time", "soon"),
            "--window-time: 'soon' is not a duration; write e.g. 250ms, 30s, 15m, 2h, 1d, 0 or PT15M"),
        Arguments.of(List.of("probe", "--isolation", "serializable", "--duration", "soon"),
            "--duration: bad duration 'soon'; expected e.g. 500ms, 30s, 5m, 1h or PT30S"),
        Arguments.of(List.of("probe", "--isolation", "serializable", "--max-appends-per-key", "many"),
            "--max-appends-per-key: many is not a count (1-2147483647)"));
  }

  /** Names are accepted as the types' parsers accept them (any case, {@code _} for {@code -}); museum's in lower case. */
  @Test
  void namesAreAcceptedInAnyCase() {
    assertThat(new CheckCommand.LevelConverter().convert("Read_Committed")).isEqualTo(Level.READ_COMMITTED);
    assertThat(new CheckCommand.LevelConverter().convert("ALL")).isNull();
    assertThat(new CheckCommand.FormatConverter().convert(" EDN ")).isEqualTo(HistoryFormat.EDN);
    assertThat(new MuseumCommand.DistributionConverter().convert("zipf")).isEqualTo(KeyDistribution.ZIPF);
    assertThat(new ProbeCommand.IsolationConverter().convert("REPEATABLE_READ"))
        .isEqualTo(ProbeIsolation.REPEATABLE_READ);
  }
}
