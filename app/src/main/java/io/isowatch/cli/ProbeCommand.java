package io.isowatch.cli;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.connectors.kafka.KafkaTransactionSink;
import io.isowatch.connectors.probe.Dialect;
import io.isowatch.connectors.probe.HistoryCollector;
import io.isowatch.connectors.probe.Probe;
import io.isowatch.connectors.probe.ProbeConfig;
import io.isowatch.connectors.probe.ProbeException;
import io.isowatch.connectors.probe.ProbeIsolation;
import io.isowatch.connectors.probe.ProbeResult;
import io.isowatch.connectors.probe.ProbeWorkload;
import io.isowatch.connectors.probe.Scenario;
import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.serde.RegistryFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch probe}: runs the probe workload ({@link Probe}) against a database through JDBC
 * and writes what it saw as a history file, publishes it to Kafka, or both.
 */
@Command(
    name = "probe",
    mixinStandardHelpOptions = true,
    modelTransformer = KafkaClientOptions.BrokersOptional.class,
    exitCodeOnInvalidInput = ExitCode.BAD_INPUT,
    exitCodeOnExecutionException = ExitCode.INTERNAL_ERROR,
    versionProvider = IsowatchCli.Version.class,
    header = "Run a canary workload against a database and record what it saw.",
    description = {
      "Runs transactions against the database at --jdbc-url from --sessions concurrent sessions"
          + " (one JDBC connection each) at the given isolation level, in the probe's own tables"
          + " (isowatch_list_append, isowatch_rw_register; created if absent). Every value written"
          + " is unique, so every read names its writer. Transactions the database aborts"
          + " (serialization failure, deadlock, lock timeout) are recorded as aborted and retried.",
      "",
      "The history goes to --out (isowatch JSON lines, for 'isowatch check') and/or to Kafka"
          + " (--bootstrap-servers; Transaction records on --topic for 'isowatch monitor')."
          + " Without either, only the counts are printed.",
      "",
      "Databases: PostgreSQL (jdbc:postgresql:) and MariaDB or MySQL (jdbc:mariadb:, jdbc:mysql:).",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  isowatch probe --jdbc-url jdbc:postgresql://localhost:5432/app --user app \\",
      "      --isolation repeatable-read --scenario write-skew --transactions 500 \\",
      "      --out probe.jsonl",
      "  isowatch check --level serializable probe.jsonl",
      "",
      "Exit codes: 0 the run finished, 2 bad usage, or the database, Kafka or the",
      "            schema registry failed (the message says which and why), 3 internal",
      "            error."
    })
final class ProbeCommand implements Callable<Integer> {
  /** What to check when publishing fails, appended to every such message. */
  static final String PUBLISH_HINT = " (check --bootstrap-servers, --topic, the security settings in --config"
      + " and that the broker runs)";

  @Spec private CommandSpec spec;

  @Option(names = "--jdbc-url", required = true, paramLabel = "URL",
      description = "The database, e.g. jdbc:postgresql://localhost:5432/app.")
  private String jdbcUrl;

  @Option(names = "--user", paramLabel = "U", description = "Database user (or in the URL).")
  private String user;

  @Option(names = "--password", paramLabel = "P", defaultValue = "${env:ISOWATCH_DB_PASSWORD}",
      description = "Database password (default: environment variable ISOWATCH_DB_PASSWORD).")
  private String password;

  @Option(names = "--isolation", required = true, paramLabel = "LEVEL",
      converter = IsolationConverter.class,
      description = "read-committed, repeatable-read or serializable.")
  private ProbeIsolation isolation;

  @Option(names = "--workload", paramLabel = "W", defaultValue = "list-append",
      converter = WorkloadConverter.class,
      description = "list-append (reads reveal version order; needed for snapshot isolation and"
          + " serializable checks) or rw-register. Default: ${DEFAULT-VALUE}.")
  private ProbeWorkload workload;

  @Option(names = "--scenario", paramLabel = "S", defaultValue = "random",
      converter = ScenarioConverter.class,
      description = "Transaction shapes: random (1-4 reads/writes on random keys), write-skew,"
          + " read-skew or lost-update. Default: ${DEFAULT-VALUE}.")
  private Scenario scenario;

  @Option(names = "--sessions", paramLabel = "N", defaultValue = "4", converter = NumberRanges.Count.class,
      description = "Concurrent sessions (connections). Default: ${DEFAULT-VALUE}.")
  private int sessions;

  @Option(names = "--keys", paramLabel = "K", defaultValue = "8", converter = NumberRanges.Count.class,
      description = "Distinct keys; fewer keys, more contention. Default: ${DEFAULT-VALUE}.")
  private int keys;

  @Option(names = "--max-appends-per-key", paramLabel = "N", defaultValue = "" + ProbeConfig.DEFAULT_MAX_APPENDS_PER_KEY,
      converter = NumberRanges.Count.class,
      description = "list-append: retire a key after N appends and go on with a fresh key in its"
          + " place (TAG-k<i>.1, TAG-k<i>.2, ...), so --keys keys stay live and every list, hence"
          + " every read, holds at most N elements however long the run (Elle's"
          + " :max-writes-per-key). Appends are counted when issued, committed or not; N >= 1."
          + " rw-register ignores it. Default: ${DEFAULT-VALUE}.")
  private int maxAppendsPerKey;

  @ArgGroup(exclusive = true)
  private Bound bound;

  static final class Bound {
    @Option(names = "--duration", paramLabel = "D", converter = DurationConverter.class,
        description = "Run this long, e.g. 30s, 5m, 1h, 500ms or ISO-8601 PT30S.")
    Duration duration;

    @Option(names = "--transactions", paramLabel = "T", converter = NumberRanges.Count.class,
        description = "Stop after T committed transactions (default when neither is given: 1000).")
    int transactions;
  }

  @Mixin private KafkaClientOptions kafkaOptions = new KafkaClientOptions();

  /**
   * {@code --topic}: the probe's earlier name of {@code --events-topic}, kept working.
   *
   * @param topic the events topic
   */
  @Option(names = "--topic", paramLabel = "TOPIC", description = "The same as --events-topic.")
  private void topic(String topic) {
    kafkaOptions.eventsTopic(topic);
  }

  @Mixin private RegistryOption registry = new RegistryOption();

  @Option(names = "--history-id", paramLabel = "ID", defaultValue = "probe",
      description = "The history the records belong to (one per monitored database). Default: ${DEFAULT-VALUE}.")
  private String historyId;

  @Option(names = "--out", paramLabel = "FILE",
      description = "Write the history as isowatch JSON lines to FILE (replaced if it exists). Its folder"
          + " must exist and be writable: checked before the run, which then does not start.")
  private Path out;

  @Option(names = "--run-tag", paramLabel = "TAG",
      description = "Names this run's keys (TAG-k0, ...) and sessions (TAG-s0, ...); default: r"
          + " followed by the start time in base 36, so that runs never share keys.")
  private String runTag;

  @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1",
      description = "Seed of the sessions' random choices. Default: ${DEFAULT-VALUE}.")
  private long seed;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    ProbeConfig config;
    Dialect dialect;
    try {
      long transactions = bound == null ? 1000 : bound.transactions;
      Duration duration = bound == null ? null : bound.duration;
      String tag = runTag != null ? runTag : "r" + Long.toString(System.currentTimeMillis(), 36);
      config = new ProbeConfig(jdbcUrl, user, password, isolation, workload, scenario, sessions, keys,
          maxAppendsPerKey, transactions, duration, historyId, tag, seed);
      dialect = Dialect.forUrl(jdbcUrl);
    } catch (IllegalArgumentException e) {
      err.println("isowatch probe: " + e.getMessage());
      return ExitCode.BAD_INPUT;
    }
    Optional<String> unwritable = out == null ? Optional.empty() : unwritable(out);
    if (unwritable.isPresent()) {
      err.println("isowatch probe: --out " + out + ": " + unwritable.get());
      return ExitCode.BAD_INPUT;
    }
    String bootstrapServers = kafkaOptions.bootstrapServers();
    String topic = kafkaOptions.eventsTopic();
    if (kafkaOptions.config() != null && bootstrapServers == null) {
      err.println("isowatch probe: --config " + kafkaOptions.config()
          + " holds Kafka settings; it needs --bootstrap-servers");
      return ExitCode.BAD_INPUT;
    }
    Map<String, Object> settings;
    try {
      settings = kafkaSettings();
    } catch (IOException e) {
      err.println("isowatch probe: cannot read --config " + kafkaOptions.config() + ": " + e.getMessage());
      return ExitCode.BAD_INPUT;
    }
    registry.applyTo(settings);
    if (settings.containsKey(RegistryFormat.URL) && bootstrapServers == null) {
      err.println("isowatch probe: --schema-registry-url frames the records published to Kafka; it needs --bootstrap-servers");
      return ExitCode.BAD_INPUT;
    }
    if (bootstrapServers != null) { // without, there is no registry either (refused above)
      Optional<String> cannotPublish = StartupChecks.cannotPublish(settings, topic, Transaction.class);
      if (cannotPublish.isPresent()) {
        err.println("isowatch probe: " + cannotPublish.get());
        return ExitCode.BAD_INPUT;
      }
    }
    HistoryCollector collector = out == null ? null : new HistoryCollector();
    KafkaTransactionSink kafka;
    try {
      kafka = bootstrapServers == null ? null : new KafkaTransactionSink(bootstrapServers, topic, settings);
    } catch (KafkaException e) {
      err.println("isowatch probe: " + e.getMessage() + PUBLISH_HINT);
      return ExitCode.BAD_INPUT;
    }
    ProbeResult r = null;
    ProbeException failed = null;
    boolean interrupted = false;
    try {
      r = new Probe(config, dialect, both(collector, kafka)).run();
    } catch (ProbeException e) {
      failed = e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      interrupted = true;
    } catch (RuntimeException e) {
      close(kafka); // an internal error (exit 3): the producer is closed all the same
      throw e;
    }
    Optional<RuntimeException> unpublished = close(kafka);
    // a session stopped by the sink's failure reports that failure: print it once, as the broker's
    if (failed != null && (unpublished.isEmpty() || !causedBy(failed, unpublished.get().getCause()))) {
      err.println("isowatch probe: " + failed.getMessage());
    }
    unpublished.ifPresent(u -> err.println("isowatch probe: " + u.getMessage() + PUBLISH_HINT));
    if (interrupted) {
      err.println("isowatch probe: interrupted");
      return ExitCode.INTERNAL_ERROR;
    }
    if (failed != null || unpublished.isPresent()) {
      return ExitCode.BAD_INPUT;
    }
    stdout.printf(Locale.ROOT, "probe: %s; %s, %s, scenario %s, %d sessions x %d keys (run %s):"
        + " %d committed, %d aborted, %d unknown in %.1f s%n", r.serverVersion(), isolation, workload,
        scenario, sessions, keys, config.runTag(), r.committed(), r.aborted(), r.unknown(),
        r.elapsed().toMillis() / 1000.0);
    if (collector != null) {
      try {
        HistoryFiles.write(collector.history(), HistoryFormat.JSONL, out);
      } catch (IOException e) {
        err.println("isowatch probe: cannot write " + out + ": " + e.getMessage());
        return ExitCode.BAD_INPUT;
      }
      stdout.println("history written to " + out);
    }
    if (bootstrapServers != null) {
      stdout.println("published " + r.total() + " transactions to " + topic + " at " + bootstrapServers
          + " (history id " + historyId + ")");
    }
    return ExitCode.CONSISTENT;
  }

  /**
   * Whether the history could be written to {@code file} at the end of the run, told before the run
   * starts: its folder exists and is a writable folder, and the file, if it exists, is a writable
   * regular file (it is replaced).
   *
   * @param file the {@code --out} path, relative to the working directory or absolute
   * @return empty if it looks writable, else the reason, e.g. {@code the folder /nonexistent does
   *     not exist}
   */
  static Optional<String> unwritable(Path file) {
    Path absolute = file.toAbsolutePath();
    Path folder = absolute.getParent();
    if (folder == null || Files.isDirectory(absolute)) {
      return Optional.of("it is a folder; name a file in it");
    }
    if (!Files.exists(folder)) {
      return Optional.of("the folder " + folder + " does not exist");
    }
    if (!Files.isDirectory(folder)) {
      return Optional.of(folder + " is not a folder");
    }
    if (Files.exists(absolute) && !Files.isRegularFile(absolute)) {
      return Optional.of("it is not a regular file");
    }
    if (Files.exists(absolute) ? !Files.isWritable(absolute) : !Files.isWritable(folder)) {
      return Optional.of(Files.exists(absolute) ? "the file is not writable" : "the folder " + folder + " is not writable");
    }
    return Optional.empty();
  }

  /**
   * Flushes and closes the sink.
   *
   * @param kafka the sink, or {@code null}
   * @return the sink's first send failure (its cause is the producer's exception), if any
   */
  private static Optional<RuntimeException> close(KafkaTransactionSink kafka) {
    if (kafka == null) {
      return Optional.empty();
    }
    try {
      kafka.close();
      return Optional.empty();
    } catch (IllegalStateException | KafkaException e) {
      return Optional.of(e);
    }
  }

  /** @return whether {@code cause} is {@code failure} or in its chain of causes */
  private static boolean causedBy(Throwable failure, Throwable cause) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t == cause) {
        return true;
      }
    }
    return false;
  }

  /**
   * @return with {@code --bootstrap-servers}, the client settings of {@code isowatch replay}: the
   *     bootstrap servers and the security settings of {@code --config} ({@link
   *     MonitorRunner#clientProperties}); without, none
   * @throws IOException if the file cannot be read
   */
  private Map<String, Object> kafkaSettings() throws IOException {
    Map<String, Object> settings = new HashMap<>();
    if (kafkaOptions.bootstrapServers() != null) {
      Properties p = MonitorRunner.clientProperties(kafkaOptions.configFile(), kafkaOptions.bootstrapServers());
      p.stringPropertyNames().forEach(name -> settings.put(name, p.getProperty(name)));
    }
    return settings;
  }

  private static TransactionSink both(TransactionSink a, TransactionSink b) {
    if (a == null) {
      return b == null ? t -> { } : b;
    }
    if (b == null) {
      return a;
    }
    return t -> {
      a.accept(t);
      b.accept(t);
    };
  }

  /** Parses {@code read-committed} etc. */
  static final class IsolationConverter extends Choices<ProbeIsolation> {
    /** The isolation levels the probe can ask for. */
    IsolationConverter() {
      super(ProbeIsolation::parse, names(ProbeIsolation::cliName, ProbeIsolation.values()));
    }
  }

  /** Parses {@code list-append} or {@code rw-register}. */
  static final class WorkloadConverter extends Choices<ProbeWorkload> {
    /** The probe's workloads. */
    WorkloadConverter() {
      super(ProbeWorkload::parse, names(ProbeWorkload::cliName, ProbeWorkload.values()));
    }
  }

  /** Parses {@code random}, {@code write-skew}, {@code read-skew}, {@code lost-update}. */
  static final class ScenarioConverter extends Choices<Scenario> {
    /** The probe's scenarios. */
    ScenarioConverter() {
      super(Scenario::parse, names(Scenario::cliName, Scenario.values()));
    }
  }

  /** Parses {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h} or ISO-8601 ({@code PT30S}). */
  static final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
      String v = value.strip().toLowerCase(Locale.ROOT);
      Matcher m = SHORT.matcher(v);
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        switch (m.group(2)) {
          case "ms":
            return Duration.ofMillis(n);
          case "s":
            return Duration.ofSeconds(n);
          case "m":
            return Duration.ofMinutes(n);
          default:
            return Duration.ofHours(n);
        }
      }
      try {
        return Duration.parse(value.strip());
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("bad duration '" + value
            + "'; expected e.g. 500ms, 30s, 5m, 1h or PT30S");
      }
    }
  }
}
