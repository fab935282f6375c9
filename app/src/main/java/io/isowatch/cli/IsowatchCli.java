package io.isowatch.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch}, the command line (picocli): the subcommands {@code check}, {@code monitor},
 * {@code replay}, {@code demo}, {@code museum}, {@code probe}, {@code capture} and {@code broker}.
 * This class only wires: {@link #commandLine} builds the parser with the project's exit codes, and
 * {@link #main} runs it on the process's streams.
 */
@Command(
    name = "isowatch",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = ExitCode.BAD_INPUT,
    exitCodeOnExecutionException = ExitCode.INTERNAL_ERROR,
    versionProvider = IsowatchCli.Version.class,
    subcommands = {CheckCommand.class, MonitorCommand.class, ReplayCommand.class, DemoCommand.class,
      MuseumCommand.class, ProbeCommand.class, CaptureCommand.class, BrokerCommand.class, CommandLine.HelpCommand.class},
    synopsisSubcommandLabel = "COMMAND",
    description = {
      "Checks whether a database gives the isolation level it advertises: reads a transaction"
          + " history, or watches a stream of transaction events in Kafka, and reports every"
          + " violation of the expected level with a witness in words.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  isowatch demo",
      "  isowatch check history.jsonl",
      "  isowatch check --level causal --json history.plume.txt",
      "  isowatch broker &",
      "  isowatch monitor --bootstrap-servers localhost:9092 --create-topics",
      "  isowatch replay --bootstrap-servers localhost:9092 --from history.jsonl",
      "  isowatch museum",
      "",
      "Exit codes: 0 consistent (or done), 1 violation found, 2 bad input or usage,",
      "            3 internal error, 4 some verdict unknown (check); each command's",
      "            --help has its own."
    })
public final class IsowatchCli implements Runnable {
  /** System property set by the launcher: whether standard error is a terminal. */
  static final String STDERR_TTY_PROPERTY = "isowatch.stderr.tty";

  @Spec private CommandSpec spec;

  /** Without a subcommand there is nothing to do: a usage error. */
  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing command: use check, monitor, replay, demo, museum, probe, capture or broker");
  }

  /**
   * @param out standard output for reports and help
   * @param err standard error for errors and usage messages
   * @return the parser: usage errors exit with {@link ExitCode#BAD_INPUT}, unexpected exceptions
   *     with {@link ExitCode#INTERNAL_ERROR}; a usage error prints its message, picocli's
   *     suggestions for a misspelt option, and where the help is, not the whole help (which would
   *     scroll the message away)
   */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    return wired(new CommandLine(new IsowatchCli()), out, err);
  }

  /**
   * The parser for one command line: for {@code isowatch check ...} a root that knows only the
   * {@code check} subcommand ({@link CheckOnly}), else {@link #commandLine(PrintWriter, PrintWriter)}.
   * picocli builds the model of every subcommand it is given when the root is made; the six others
   * (with Kafka, JDBC and duration options) cost about 0.4 s of CPU, a third of a small check's
   * whole process (docs/PERFORMANCE.md, issue 20, "Start-up"). {@code isowatch check ...} parses,
   * prints help and errors exactly as through the full root.
   *
   * @param args the command line, which is not consumed
   * @param out standard output
   * @param err standard error
   * @return the parser, wired as {@link #commandLine(PrintWriter, PrintWriter)}
   */
  public static CommandLine commandLine(String[] args, PrintWriter out, PrintWriter err) {
    return args.length > 0 && args[0].equals("check")
        ? wired(new CommandLine(new CheckOnly()), out, err)
        : commandLine(out, err);
  }

  private static CommandLine wired(CommandLine cl, PrintWriter out, PrintWriter err) {
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(IsowatchCli::usageError);
    return cl;
  }

  /**
   * Prints a usage error. A value an option's converter refused ({@link Choices}, durations,
   * numbers) is printed as the option's name and the converter's own words, {@code --isolation:
   * 'snapshot' is not one of read-committed, repeatable-read, serializable}, instead of picocli's
   * {@code Invalid value for option '--isolation': cannot convert 'snapshot' to ProbeIsolation
   * (java.lang.IllegalArgumentException: ...)}.
   */
  private static int usageError(ParameterException e, String[] args) {
    CommandLine c = e.getCommandLine();
    PrintWriter err = c.getErr();
    if (e.getCause() != null && e.getCause().getMessage() != null
        && e.getArgSpec() instanceof OptionSpec option) {
      err.println(option.longestName() + ": " + e.getCause().getMessage());
    } else {
      err.println(e.getMessage());
    }
    CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
    err.println("'" + c.getCommandSpec().qualifiedName() + " --help' lists the options.");
    return c.getCommandSpec().exitCodeOnInvalidInput();
  }

  /**
   * Whether progress bars may be drawn on standard error: not with {@code --quiet}, and only when
   * standard error is a terminal. The {@code ./isowatch} launcher tells that with the system
   * property {@value #STDERR_TTY_PROPERTY} ({@code true} or {@code false}, from {@code [[ -t 2 ]]});
   * without it, {@link System#console()} decides (non-null only when standard input and output are
   * terminals).
   *
   * @param quiet whether {@code --quiet} was given
   */
  static boolean progressAllowed(boolean quiet) {
    String tty = System.getProperty(STDERR_TTY_PROPERTY);
    return !quiet && (tty != null ? Boolean.parseBoolean(tty) : System.console() != null);
  }

  /** Runs the command line and exits with its exit code. */
  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    int code = commandLine(args, out, err).execute(args);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /**
   * The root {@code isowatch} with the {@code check} subcommand alone, for {@link
   * #commandLine(String[], PrintWriter, PrintWriter)}: the same name, exit codes and version as
   * {@link IsowatchCli}, so that {@code check}'s usage, help and errors read the same.
   */
  @Command(
      name = "isowatch",
      mixinStandardHelpOptions = true,
      exitCodeOnInvalidInput = ExitCode.BAD_INPUT,
      exitCodeOnExecutionException = ExitCode.INTERNAL_ERROR,
      versionProvider = IsowatchCli.Version.class,
      subcommands = {CheckCommand.class})
  static final class CheckOnly implements Runnable {
    @Spec private CommandSpec spec;

    /** Not reached: the command line starts with {@code check}. */
    @Override
    public void run() {
      throw new ParameterException(spec.commandLine(), "Missing command: use check");
    }
  }

  /** The version from the jar's manifest ({@code Implementation-Version}), or "development". */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = IsowatchCli.class.getPackage().getImplementationVersion();
      return new String[] {"isowatch " + (v == null ? "(development build)" : v)};
    }
  }
}
