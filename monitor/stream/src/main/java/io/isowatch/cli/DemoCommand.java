package io.isowatch.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code isowatch demo}: wires {@link Demo}. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = ExitCode.BAD_INPUT,
    exitCodeOnExecutionException = ExitCode.INTERNAL_ERROR,
    versionProvider = IsowatchCli.Version.class,
    header = "Check the bundled sample histories (until the streaming demo replaces it).",
    description = {
      "Checks the sample histories bundled with isowatch (one consistent, one that breaks read"
          + " committed, one that breaks only causal consistency) at read-committed, read-atomic"
          + " and causal, and prints each report with its witnesses.",
      "",
      "For now this is an offline demo; the streaming demo (a monitored database feeding the"
          + " Kafka Streams monitor) replaces it in a later version.",
      ""
    },
    footer = {
      "",
      "Exit codes: 0 every sample got its expected verdicts, 1 otherwise."
    })
final class DemoCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = {"-q", "--quiet"}, description = "No progress bar on standard error.")
  private boolean quiet;

  @Override
  public Integer call() {
    return new Demo(spec.commandLine().getOut(), spec.commandLine().getErr())
        .run(IsowatchCli.progressAllowed(quiet));
  }
}
