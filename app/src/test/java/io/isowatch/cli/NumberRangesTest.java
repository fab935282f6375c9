package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every port and count option of every command refuses a value out of its range while the command
 * line is parsed (exit 2, nothing contacted: the addresses given are never reached), with one
 * message naming the option and the range ({@link NumberRanges}).
 */
class NumberRangesTest {
  private static final String MONITOR = "monitor --bootstrap-servers 127.0.0.1:1";
  private static final String REPLAY = "replay --bootstrap-servers 127.0.0.1:1 --sim causal";
  private static final String PROBE = "probe --jdbc-url jdbc:postgresql://127.0.0.1:1/app --isolation serializable";

  @ParameterizedTest(name = "{0} {1} {2}")
  @CsvSource(delimiter = '|', value = {
    MONITOR + " | --metrics-port        | 70000 | 70000 is not a port (0-65535, or -1 for none)",
    MONITOR + " | --metrics-port        | -5    | -5 is not a port (0-65535, or -1 for none)",
    MONITOR + " | --metrics-port        | http  | http is not a port (0-65535, or -1 for none)",
    MONITOR + " | --partitions          | 0     | 0 is not a count (1-2147483647)",
    MONITOR + " | --replication-factor  | 0     | 0 is not a replication factor (1-32767)",
    MONITOR + " | --replication-factor  | 40000 | 40000 is not a replication factor (1-32767)",
    MONITOR + " | --window-transactions | -1    | -1 is not a count (1-2147483647)",
    REPLAY + "  | --transactions        | 0     | 0 is not a count (1-2147483647)",
    PROBE + "   | --sessions            | 0     | 0 is not a count (1-2147483647)",
    PROBE + "   | --keys                | -2    | -2 is not a count (1-2147483647)",
    PROBE + "   | --max-appends-per-key | 0     | 0 is not a count (1-2147483647)",
    PROBE + "   | --max-appends-per-key | many  | many is not a count (1-2147483647)",
    PROBE + "   | --transactions        | 0     | 0 is not a count (1-2147483647)",
    "museum     | --schedules           | 0     | 0 is not a count (1-2147483647)",
    "museum     | --sessions            | 0     | 0 is not a count (1-2147483647)",
    "museum     | --keys                | 0     | 0 is not a count (1-2147483647)",
    "museum     | --txns-per-session    | 0     | 0 is not a count (1-2147483647)",
    "museum     | --ops-per-txn         | 99999999999 | 99999999999 is not a count (1-2147483647)",
    "broker     | --port                | 70000 | 70000 is not a port (0-65535)",
    "broker     | --port                | -1    | -1 is not a port (0-65535)",
  })
  void outOfRangeIsAUsageErrorNamingTheOptionAndTheRange(String command, String option, String value, String why) {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.add(option);
    args.add(value);
    CliRun run = CliRun.of(args.toArray(String[]::new));
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo(option + ": " + why + "\n'isowatch "
        + args.get(0) + " --help' lists the options.\n");
  }
}
