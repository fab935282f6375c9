package io.isowatch.cli;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.format.HistoryFormatException;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.serde.RegistryFormat;
import io.isowatch.stream.replay.HistoryRecords;
import io.isowatch.stream.replay.Replayer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code isowatch replay}: publishes a history file or a simulated run to the events topic. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = ExitCode.BAD_INPUT,
    exitCodeOnExecutionException = ExitCode.INTERNAL_ERROR,
    versionProvider = IsowatchCli.Version.class,
    sortOptions = false,
    header = "Publish a history file or a simulated run to the events topic.",
    description = {
      "Publishes a history as op-level TxnEvents (BEGIN, the operations, COMMIT or ABORT; docs/events.md)"
          + " or, with --whole-transactions, as one Transaction record per transaction, in the order"
          + " of the history (which interleaves its sessions), keyed historyId/sessionId, with an"
          + " idempotent producer. Event times, which are the records' timestamps, are synthetic:"
          + " 1 ms apart, the last one when the replay starts (never in the future).",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  isowatch replay --bootstrap-servers localhost:9092 --from history.jsonl",
      "  isowatch replay --bootstrap-servers localhost:9092 --sim snapshot-isolation \\",
      "      --transactions 5000",
      "",
      "A broker that stops answering part-way is given " + Replayer.GIVE_UP_AFTER_SECONDS + " s: then replay stops with",
      "one line saying how many records were acknowledged (exit 2); replay the whole",
      "history again under a new --history-id once the broker is back.",
      "",
      "Exit codes: 0 published, 2 bad input or usage, or Kafka or the schema registry",
      "            not answering (at start, or for " + Replayer.GIVE_UP_AFTER_SECONDS + " s part-way), 3 publishing failed",
      "            otherwise (the broker refused records)."
    })
final class ReplayCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Mixin private KafkaClientOptions kafkaOptions = new KafkaClientOptions();

  @ArgGroup(exclusive = true, multiplicity = "1")
  private Source source;

  static final class Source {
    @Option(names = "--from", paramLabel = "FILE",
        description = "A history file in any format isowatch check reads.")
    Path file;

    @Option(names = "--sim", paramLabel = "LEVEL", converter = StreamOptions.LevelConverter.class,
        description = "Run the engine simulator at LEVEL instead (any level: the MVCC engine, or the"
            + " replicated stores at read-atomic and causal; list-append at snapshot-isolation and"
            + " serializable, rw-register below; " + SimulatedRun.SESSIONS + " sessions on "
            + SimulatedRun.KEYS + " keys).")
    Level sim;
  }

  @Option(names = "--format", paramLabel = "FORMAT", converter = CheckCommand.FormatConverter.class,
      description = "Format of --from (default: detected).")
  private HistoryFormat format;

  @Option(names = "--transactions", paramLabel = "N", defaultValue = "2000", converter = NumberRanges.Count.class,
      description = "Transactions of a --sim run, rounded up to a multiple of " + SimulatedRun.SESSIONS
          + " (default: ${DEFAULT-VALUE}).")
  private int transactions;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
      description = "Random seed of a --sim run (default: ${DEFAULT-VALUE}).")
  private long seed;

  @Option(names = "--history-id", paramLabel = "ID",
      description = "The historyId of the records (default: the file name without extension, or sim-LEVEL).")
  private String historyId;

  @Option(names = "--whole-transactions",
      description = "Publish one Transaction record per transaction instead of op-level events.")
  private boolean wholeTransactions;

  @Mixin private RegistryOption registry = new RegistryOption();

  @Option(names = {"-q", "--quiet"}, description = "No progress bar on standard error.")
  private boolean quiet;

  /**
   * Publishes. Kafka's clients log only errors (unless {@value DemoCommand#KAFKA_LOG_LEVEL} is set):
   * a broker that stops answering mid-replay makes them warn several times a second until the
   * producer gives up, and replay reports that itself in one line ({@link #stoppedAnswering}).
   * Effective because nothing has logged before this command runs, so logback reads its
   * configuration now.
   */
  @Override
  public Integer call() throws InterruptedException {
    if (System.getProperty(DemoCommand.KAFKA_LOG_LEVEL) == null) {
      System.setProperty(DemoCommand.KAFKA_LOG_LEVEL, "ERROR");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    History history;
    String id;
    if (source.file != null) {
      try {
        history = HistoryFiles.read(source.file, format, null);
      } catch (HistoryFormatException e) {
        err.println("isowatch replay: " + e.getMessage());
        return ExitCode.BAD_INPUT;
      } catch (IOException e) {
        err.println("isowatch replay: cannot read " + source.file + ": " + e.getMessage());
        return ExitCode.BAD_INPUT;
      }
      String name = source.file.getFileName().toString();
      id = historyId != null ? historyId : name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
    } else {
      history = SimulatedRun.history(source.sim, transactions, seed);
      id = historyId != null ? historyId : "sim-" + source.sim.cliName();
    }
    Properties clients = kafkaOptions.configFileOrUsageError();
    registry.applyTo(clients);
    clients = MonitorRunner.clientProperties(clients, kafkaOptions.bootstrapServers());
    String eventsTopic = kafkaOptions.eventsTopic();
    Optional<String> cannotPublish = StartupChecks.cannotPublish(clients, eventsTopic,
        wholeTransactions ? Transaction.class : TxnEvent.class);
    if (cannotPublish.isPresent()) {
      err.println("isowatch replay: " + cannotPublish.get());
      return ExitCode.BAD_INPUT;
    }
    HistoryRecords records = HistoryRecords.endingAt(history, id, Instant.now(), Duration.ofMillis(1));
    long total = wholeTransactions ? records.transactions() : records.events();
    Replayer.Counts counts;
    try (Replayer replayer = new Replayer(clients, eventsTopic);
        Progress progress = IsowatchCli.progressAllowed(quiet)
            ? Progress.bar("publishing", total, "", 1) : Progress.none()) {
      counts = replayer.publish(records, wholeTransactions, progress::stepTo);
    } catch (Replayer.PublishException e) {
      if (e.brokerStoppedAnswering()) {
        err.println(stoppedAnswering(kafkaOptions.bootstrapServers(), id, e, wholeTransactions));
        return ExitCode.BAD_INPUT;
      }
      err.println("isowatch replay: " + e.getMessage() + "; check --bootstrap-servers, the topic "
          + eventsTopic + " and the security settings in --config");
      return ExitCode.INTERNAL_ERROR;
    } catch (KafkaException e) {
      err.println("isowatch replay: " + e.getMessage() + "; check --bootstrap-servers, the topic "
          + eventsTopic + " and the security settings in --config");
      return ExitCode.INTERNAL_ERROR;
    } catch (RegistryFormat.RegistryFailureException e) {
      err.println("isowatch replay: " + e.getMessage() + RegistryOption.HINT);
      return ExitCode.BAD_INPUT;
    }
    out.println(summary(id, counts, wholeTransactions, eventsTopic));
    return ExitCode.CONSISTENT;
  }

  /**
   * @return the one line that tells a broker stopped answering part-way, e.g. {@code isowatch
   *     replay: Kafka at localhost:9092 stopped answering: 1,234 of 14,000 events of history blog
   *     were acknowledged before replay gave up after 30 s; when it answers again, replay the whole
   *     history under a new --history-id (the same id would make the monitor dead-letter the
   *     repeated events as conflicting-duplicate)}
   */
  static String stoppedAnswering(String bootstrapServers, String id, Replayer.PublishException e, boolean whole) {
    return String.format(Locale.ROOT, "isowatch replay: Kafka at %s stopped answering: %,d of %,d %s of history %s"
        + " were acknowledged before replay gave up after %d s; when it answers again, replay the whole history"
        + " under a new --history-id (the same id would make the monitor dead-letter the repeated events as"
        + " conflicting-duplicate)", bootstrapServers, e.acknowledged(), e.total(),
        whole ? "Transaction records" : "events", id, Replayer.GIVE_UP_AFTER.toSeconds());
  }

  /** @return e.g. {@code published history h1: 2,000 transactions as 14,000 events (1.2 MiB) to isowatch.events} */
  static String summary(String id, Replayer.Counts c, boolean whole, String topic) {
    String line = String.format(Locale.ROOT, "published history %s: %,d transactions as %,d %s (%,.1f KiB) to %s",
        id, c.transactions(), c.records(), whole ? "Transaction records" : "events", c.bytes() / 1024.0, topic);
    if (c.unknownReadsLeftOut() > 0) {
      line += String.format(Locale.ROOT, "; %,d reads with unknown results left out (the event schema cannot"
          + " express them)", c.unknownReadsLeftOut());
    }
    return line;
  }
}
