package io.isowatch.cli;

import io.isowatch.checker.level.Level;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code isowatch demo}: wires {@link StreamDemo}. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = ExitCode.BAD_INPUT,
    exitCodeOnExecutionException = ExitCode.INTERNAL_ERROR,
    versionProvider = IsowatchCli.Version.class,
    sortOptions = false,
    header = "Watch the streaming monitor catch write skew, in one process, in under a minute.",
    description = {
      "Starts an in-process Kafka broker (unless --bootstrap-servers is given), creates the topics,"
          + " starts the monitor expecting serializable, runs the engine simulator at snapshot isolation"
          + " (list-append, contended) and publishes its history as transaction events: snapshot"
          + " isolation allows write skew (G2-item), serializable does not. Each violation's witness is"
          + " printed as the monitor publishes it, then a summary table beside the offline checker's"
          + " verdict on the same history.",
      ""
    },
    footer = {
      "",
      "Exit codes: 0 the monitor published the same anomaly kinds as the offline",
      "            checker finds for --level (at least one G2-item at serializable)",
      "            and no dead letters, 1 otherwise, or when it did not finish",
      "            within 60 s of publishing the run."
    })
final class DemoCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--level", paramLabel = "LEVEL", converter = StreamOptions.LevelConverter.class,
      defaultValue = "serializable",
      description = "The level the monitor expects (default: ${DEFAULT-VALUE}); with"
          + " snapshot-isolation or weaker, the write skews are allowed and nothing is reported.")
  private Level level;

  @Option(names = "--transactions", paramLabel = "N", defaultValue = "800",
      description = "Transactions of the simulated run, rounded up to a multiple of " + SimulatedRun.SESSIONS
          + " (default: ${DEFAULT-VALUE}).")
  private int transactions;

  @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT",
      description = "Use this Kafka cluster (demo topics get a unique prefix) instead of an in-process broker.")
  private String bootstrapServers;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
      description = "Seed of the simulated run: workload and schedule (default: ${DEFAULT-VALUE}).")
  private long seed;

  /** System property read by {@code logback.xml}: the level of Kafka's client loggers. */
  static final String KAFKA_LOG_LEVEL = "isowatch.kafka.log.level";

  /**
   * Runs the demo. Kafka's clients log only errors during the demo (unless {@value
   * #KAFKA_LOG_LEVEL} is set): their warnings about internal topics not created yet are normal for
   * a starting application and would bury the witnesses. Effective because nothing has logged
   * before this command runs, so logback reads its configuration now.
   */
  @Override
  public Integer call() throws InterruptedException {
    if (System.getProperty(KAFKA_LOG_LEVEL) == null) {
      System.setProperty(KAFKA_LOG_LEVEL, "ERROR");
    }
    if (transactions < 10) {
      throw new ParameterException(spec.commandLine(), "--transactions must be at least 10, got " + transactions);
    }
    return new StreamDemo(spec.commandLine().getOut(), spec.commandLine().getErr())
        .run(new StreamDemo.Request(level, transactions, Optional.ofNullable(bootstrapServers), seed));
  }
}
