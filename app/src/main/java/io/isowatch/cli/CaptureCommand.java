package io.isowatch.cli;

import io.isowatch.connectors.debezium.cdc.KeysSeen;
import io.isowatch.connectors.debezium.cdc.ListAppendCapture;
import io.isowatch.connectors.debezium.engine.CaptureConfig;
import io.isowatch.connectors.debezium.engine.ChangeStream;
import io.isowatch.connectors.debezium.outbox.OutboxSink;
import io.isowatch.connectors.kafka.KafkaTransactionSink;
import io.isowatch.connectors.probe.Dialect;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.serde.RegistryFormat;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch capture}: runs Debezium's embedded PostgreSQL connector ({@link ChangeStream},
 * {@code pgoutput}) on one table and publishes to the events topic until SIGTERM or Ctrl-C, in one
 * of two modes: {@code --outbox}, each committed record of the recorder's outbox table ({@link
 * OutboxPublisher}); {@code --cdc --table T}, each committed database transaction of a list-append
 * table as the transaction the database itself ran ({@link CdcPublisher}). Start-up checks,
 * position, counts and signals are the same for both.
 */
@Command(
    name = "capture",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = ExitCode.BAD_INPUT,
    exitCodeOnExecutionException = ExitCode.INTERNAL_ERROR,
    versionProvider = IsowatchCli.Version.class,
    sortOptions = false,
    header = "Capture a PostgreSQL database's transaction records with Debezium and publish them to Kafka.",
    description = {
      "--outbox reads the recorder's outbox table (" + OutboxSink.TABLE + ", written by the application's"
          + " OutboxSink inside each transaction it records) from PostgreSQL's write-ahead log with"
          + " Debezium's embedded PostgreSQL connector (pgoutput, a replication slot and a publication"
          + " named --name, created if absent), and publishes each committed record, in commit order,"
          + " to the events topic for 'isowatch monitor'. Rows of rolled-back transactions never"
          + " reach the log, so only what the database committed is published.",
      "",
      "--cdc --table T reads a list-append table (key column k, column v holding the list as"
          + " comma-separated integers, as the probe's " + Dialect.LIST_TABLE + "; REPLICA IDENTITY FULL)"
          + " and publishes each committed database transaction as one transaction of session"
          + " cdc-<xid>: for each row change, the appends it made (after list minus before list),"
          + " then a read of the after list. Elements a row held before the capture first saw it are"
          + " published once per key as a baseline transaction (cdc-baseline-<key>). CDC sees"
          + " writes, not the application's reads: the monitor finds G0, incompatible orders,"
          + " duplicates, never write skew (docs/connectors.md).",
      "",
      "The position in the log is stored after each batch's records were acknowledged by the"
          + " brokers, in a compacted Kafka topic (--offsets-topic) or a file (--offsets): a restart,"
          + " even after a crash, resumes there and loses nothing; a crash may publish the last batch"
          + " again, which the monitor recognises as duplicates. Runs until SIGTERM or Ctrl-C, then"
          + " flushes and stores its position. Counts go to standard error every 10 s and at the end.",
      "",
      "The server needs wal_level=logical; the user needs the REPLICATION attribute (or superuser)"
          + " and the right to create the publication (owner of the table), see docs/connectors.md.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  isowatch capture --outbox --jdbc-url jdbc:postgresql://db:5432/app \\",
      "      --user isowatch_cdc --bootstrap-servers kafka:9092",
      "  isowatch capture --outbox --jdbc-url jdbc:postgresql://db:5432/app \\",
      "      --user isowatch_cdc --bootstrap-servers kafka:9092 --prune-after \\",
      "      --offsets /var/lib/isowatch/outbox.offsets",
      "  isowatch capture --cdc --table isowatch_list_append \\",
      "      --jdbc-url jdbc:postgresql://db:5432/app --user isowatch_cdc \\",
      "      --bootstrap-servers kafka:9092",
      "  isowatch monitor --bootstrap-servers kafka:9092 --level snapshot-isolation",
      "",
      "Exit codes: 2 bad usage, or the database, Kafka or the schema registry",
      "            failed (the message says which and why), 3 internal error;",
      "            after SIGTERM or Ctrl-C, the signal's (143, 130) once the last",
      "            batch is flushed and its position stored."
    })
final class CaptureCommand implements Callable<Integer> {
  /** The default offsets topic. */
  static final String OFFSETS_TOPIC = "isowatch.capture-offsets";
  /** How often counts are printed while capturing, in seconds. */
  private static final long REPORT_SECONDS = 10;

  @Spec private CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  private Mode mode;

  static final class Mode {
    @Option(names = "--outbox", required = true,
        description = "Publish the records of the recorder's outbox table (public." + OutboxSink.TABLE + ").")
    boolean outbox;

    @Option(names = "--cdc", required = true,
        description = "Publish the database transactions of the list-append table --table.")
    boolean cdc;
  }

  @Option(names = "--table", paramLabel = "T",
      description = "With --cdc (required): the list-append table, [SCHEMA.]TABLE (schema public by default).")
  private String table;

  @Option(names = "--history-id", paramLabel = "ID",
      description = "With --cdc: the historyId of the records (default: --name).")
  private String historyId;

  @Option(names = "--recorded", paramLabel = "FILE",
      description = "With --cdc: a history the clients recorded (e.g. the probe's --out), cross-checked against"
          + " the captured transactions when the capture stops: lost commits, aborted transactions that"
          + " committed, unrecorded or split writes, one line each, and a line counting them. Read"
          + " when the capture stops; stop it once the last recorded commit was published.")
  private Path recordedFile;

  @Option(names = "--jdbc-url", required = true, paramLabel = "URL",
      description = "The PostgreSQL database, e.g. jdbc:postgresql://localhost:5432/app.")
  private String jdbcUrl;

  @Option(names = "--user", paramLabel = "U", description = "Database user (or in the URL); needs REPLICATION.")
  private String user;

  @Option(names = "--password", paramLabel = "P", defaultValue = "${env:ISOWATCH_DB_PASSWORD}",
      description = "Database password (default: environment variable ISOWATCH_DB_PASSWORD).")
  private String password;

  @Option(names = "--name", paramLabel = "NAME",
      description = "The capture's replication slot and publication, and the key of its position in the"
          + " offsets (lower-case letters, digits, _). Default: isowatch_outbox, with --cdc "
          + ListAppendCapture.NAME + ".")
  private String name;

  @ArgGroup(exclusive = true)
  private OffsetsOption offsets;

  static final class OffsetsOption {
    @Option(names = "--offsets-topic", paramLabel = "TOPIC",
        description = "Keep the position in this compacted Kafka topic (created if absent). Default: "
            + OFFSETS_TOPIC + ".")
    String topic;

    @Option(names = "--offsets", paramLabel = "FILE",
        description = "Keep the position in FILE instead of Kafka (created if absent).")
    Path file;
  }

  @Option(names = "--prune-after",
      description = "Delete each outbox row after the brokers acknowledged its record (by id; a rejected"
          + " row is kept).")
  private boolean prune;

  @Mixin private KafkaClientOptions kafkaOptions = new KafkaClientOptions();

  @Mixin private RegistryOption registry = new RegistryOption();

  @Override
  public Integer call() throws InterruptedException {
    return UntilSignal.run(this::run);
  }

  private int run(CountDownLatch stop) throws InterruptedException {
    PrintWriter err = spec.commandLine().getErr();
    if (name == null) {
      name = mode.cdc ? ListAppendCapture.NAME : "isowatch_outbox";
    }
    if (mode.cdc && table == null) {
      err.println("isowatch capture: --cdc needs --table T, the list-append table to capture");
      return ExitCode.BAD_INPUT;
    }
    if (mode.cdc && prune) {
      err.println("isowatch capture: --prune-after goes with --outbox only (--cdc deletes nothing)");
      return ExitCode.BAD_INPUT;
    }
    if (!mode.cdc && (table != null || historyId != null || recordedFile != null)) {
      err.println("isowatch capture: --table, --history-id and --recorded go with --cdc only");
      return ExitCode.BAD_INPUT;
    }
    RecordedCrossCheck recorded = recordedFile == null ? null : new RecordedCrossCheck(recordedFile);
    String captured = mode.cdc ? qualified(table) : "public." + OutboxSink.TABLE;
    if (captured == null) {
      err.println("isowatch capture: --table " + table + ": not [SCHEMA.]TABLE of letters, digits and _");
      return ExitCode.BAD_INPUT;
    }
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      err.println("isowatch capture: --jdbc-url " + jdbcUrl + ": not a PostgreSQL URL (jdbc:postgresql://HOST:PORT/DB);"
          + " capture reads PostgreSQL only");
      return ExitCode.BAD_INPUT;
    }
    if (!name.matches("[a-z0-9_]+")) {
      err.println("isowatch capture: --name " + name + ": only lower-case letters, digits and _ (a replication slot's name)");
      return ExitCode.BAD_INPUT;
    }
    String url = withCredentials(jdbcUrl, user, password);
    Properties clients = MonitorRunner.clientProperties(kafkaOptions.configFileOrUsageError(),
        kafkaOptions.bootstrapServers());
    Map<String, Object> settings = new HashMap<>();
    clients.stringPropertyNames().forEach(n -> settings.put(n, clients.getProperty(n)));
    registry.applyTo(settings);
    String topic = kafkaOptions.eventsTopic();
    Optional<String> cannotPublish = StartupChecks.cannotPublish(settings, topic, Transaction.class);
    if (cannotPublish.isPresent()) {
      err.println("isowatch capture: " + cannotPublish.get());
      return ExitCode.BAD_INPUT;
    }
    Optional<String> notReady = CaptureDatabase.notReady(url, captured, mode.cdc);
    if (notReady.isPresent()) {
      err.println("isowatch capture: " + notReady.get());
      return ExitCode.BAD_INPUT;
    }
    CaptureConfig config = new CaptureConfig(url, name, name, name, List.of(captured), offsetStore(clients), false);
    KafkaTransactionSink sink;
    try {
      sink = new KafkaTransactionSink(kafkaOptions.bootstrapServers(), topic, settings);
    } catch (KafkaException e) {
      err.println("isowatch capture: " + e.getMessage() + ProbeCommand.PUBLISH_HINT);
      return ExitCode.BAD_INPUT;
    }
    CapturePublisher publisher;
    try {
      publisher = mode.cdc ? cdcPublisher(sink, err, clients, captured, recorded)
          : new OutboxPublisher(sink, err, prune ? url : null);
    } catch (UncheckedIOException e) {
      sink.close();
      err.println("isowatch capture: " + e.getCause().getMessage());
      return ExitCode.BAD_INPUT;
    }
    Optional<String> failed;
    try {
      failed = capture(config, publisher, stop, err);
    } finally {
      publisher.close();
    }
    try {
      sink.close();
    } catch (IllegalStateException | KafkaException e) {
      failed = failed.or(() -> Optional.of(e.getMessage() + ProbeCommand.PUBLISH_HINT));
    }
    err.println("capture: stopped; " + publisher.counts());
    err.flush();
    int findings = recorded == null ? 0 : recorded.report(bare(captured), err);
    if (failed.isPresent()) {
      err.println("isowatch capture: " + failed.get());
      return ExitCode.BAD_INPUT;
    }
    // after SIGTERM or Ctrl-C the JVM exits with the signal's status whatever this returns: the
    // findings are told by the summary line
    return findings < 0 ? ExitCode.BAD_INPUT : findings > 0 ? ExitCode.VIOLATION : ExitCode.CONSISTENT;
  }

  /**
   * Runs the change stream until {@code stop} or a failure, printing counts every {@value
   * #REPORT_SECONDS} s when they changed.
   *
   * @return the failure of the engine or the handler, if any
   */
  private Optional<String> capture(CaptureConfig config, CapturePublisher publisher, CountDownLatch stop,
      PrintWriter err) throws InterruptedException {
    String where = offsets != null && offsets.file != null ? "file " + offsets.file
        : "topic " + offsetsTopic();
    err.println("capture: " + config.tables().get(0) + " of " + jdbcUrl + " (slot and publication " + name
        + ", position in " + where + ") to " + kafkaOptions.eventsTopic() + " at " + kafkaOptions.bootstrapServers());
    err.flush();
    ChangeStream stream = ChangeStream.start(config, publisher);
    boolean streaming = false;
    String last = publisher.counts();
    long reportAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(REPORT_SECONDS);
    try {
      while (!stop.await(200, TimeUnit.MILLISECONDS) && stream.failure() == null) {
        if (!streaming && slotActive(config)) {
          streaming = true;
          err.println("capture: streaming from slot " + name);
          err.flush();
        }
        if (System.nanoTime() - reportAt >= 0) {
          reportAt += TimeUnit.SECONDS.toNanos(REPORT_SECONDS);
          String now = publisher.counts();
          if (!now.equals(last)) {
            err.println("capture: " + now);
            err.flush();
            last = now;
          }
        }
      }
    } finally {
      try {
        stream.close();
      } catch (IllegalStateException e) {
        return Optional.of(e.getMessage());
      }
    }
    return Optional.empty();
  }

  private static boolean slotActive(CaptureConfig config) {
    try {
      return config.slotActive();
    } catch (SQLException e) {
      return false; // the engine reports a database it cannot reach
    }
  }

  /**
   * @return the {@code --cdc} publisher, with the keys an earlier run saw loaded from beside the
   *     position ({@code FILE.keys} with {@code --offsets FILE}, else the topic {@code
   *     <offsets topic>.keys})
   * @throws UncheckedIOException if the keys cannot be read
   */
  private CdcPublisher cdcPublisher(KafkaTransactionSink sink, PrintWriter err, Properties clients, String captured,
      RecordedCrossCheck recorded) {
    KeysSeen keys = offsets != null && offsets.file != null
        ? new KeysSeen.File(Path.of(offsets.file + ".keys"))
        : new KeysSeen.Kafka(offsetsTopic() + ".keys", name, kafkaClients(clients));
    Set<String> seen = keys.load();
    return new CdcPublisher(sink, err, historyId != null ? historyId : name, bare(captured), keys, seen,
        recorded == null ? t -> { } : recorded::add);
  }

  /** @return {@code schema.table} without its schema */
  private static String bare(String captured) {
    return captured.substring(captured.indexOf('.') + 1);
  }

  /** @return {@code t} as {@code schema.table} (schema {@code public} if none), or null if malformed */
  private static String qualified(String t) {
    if (!t.matches("([A-Za-z_][A-Za-z0-9_]*\\.)?[A-Za-z_][A-Za-z0-9_]*")) {
      return null;
    }
    return t.contains(".") ? t : "public." + t;
  }

  private String offsetsTopic() {
    return offsets != null && offsets.topic != null ? offsets.topic : OFFSETS_TOPIC;
  }

  /** @return the offsets file of {@code --offsets}, else the Kafka topic with the command's client settings */
  private CaptureConfig.Offsets offsetStore(Properties clients) {
    if (offsets != null && offsets.file != null) {
      return new CaptureConfig.Offsets.File(offsets.file);
    }
    return new CaptureConfig.Offsets.Kafka(offsetsTopic(), kafkaClients(clients));
  }

  /** @return the client settings without the schema registry's */
  private static Map<String, String> kafkaClients(Properties clients) {
    Map<String, String> kafka = new HashMap<>();
    for (String n : clients.stringPropertyNames()) {
      if (!n.startsWith(RegistryFormat.SETTINGS_PREFIX)) {
        kafka.put(n, clients.getProperty(n));
      }
    }
    return kafka;
  }

  /**
   * @return {@code url} with {@code user} and {@code password} added as URL parameters (encoded), so
   *     that one URL carries them to the driver and to Debezium ({@link CaptureConfig})
   */
  static String withCredentials(String url, String user, String password) {
    StringBuilder sb = new StringBuilder(url);
    char sep = url.contains("?") ? '&' : '?';
    if (user != null) {
      sb.append(sep).append("user=").append(URLEncoder.encode(user, StandardCharsets.UTF_8));
      sep = '&';
    }
    if (password != null && !password.isEmpty()) {
      sb.append(sep).append("password=").append(URLEncoder.encode(password, StandardCharsets.UTF_8));
    }
    return sb.toString();
  }
}
