package io.isowatch.cli;

import io.isowatch.checker.level.Level;
import io.isowatch.stream.config.DebeziumCdc;
import io.isowatch.stream.config.EventsInput;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MetricsEndpoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code isowatch monitor}: parses the options into a {@link MonitorRequest} and runs {@link MonitorRunner}. */
@Command(
    name = "monitor",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = ExitCode.BAD_INPUT,
    exitCodeOnExecutionException = ExitCode.INTERNAL_ERROR,
    versionProvider = IsowatchCli.Version.class,
    sortOptions = false,
    header = "Run the streaming monitor (Kafka Streams) against a Kafka cluster.",
    description = {
      "Reads transaction events from the events topic, assembles each session's transactions,"
          + " checks every history incrementally over a sliding window, and publishes each"
          + " violation of the expected level, with its witness, to the violations topic (exactly"
          + " once); records it cannot use go to the dead-letter topic with the reason. Runs until"
          + " SIGTERM or Ctrl-C, then closes cleanly. Metrics for Prometheus are served at"
          + " http://HOST:PORT/metrics, and the recent violations with their witness pictures at"
          + " http://HOST:PORT/violations (the last 1000 read from the violations topic).",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  isowatch monitor --bootstrap-servers localhost:9092 --create-topics",
      "  isowatch monitor --bootstrap-servers kafka:9093 --config client.properties \\",
      "      --level snapshot-isolation --level-for orders-db=serializable \\",
      "      --window-time 15m",
      "  isowatch monitor --bootstrap-servers kafka:9092 --input debezium-outbox \\",
      "      --events-topic isowatch.public.isowatch_outbox",
      "  isowatch monitor --bootstrap-servers kafka:9092 --input debezium-cdc \\",
      "      --events-topic isowatch_cdc.public.isowatch_list_append \\",
      "      --level snapshot-isolation",
      "",
      "The config file (Java properties) may set any Kafka Streams or client setting",
      "and overrides the monitor's defaults, for example:",
      "  security.protocol=SASL_SSL",
      "  sasl.mechanism=SCRAM-SHA-512",
      "  sasl.jaas.config=... (the JAAS line of the SCRAM login module)",
      "  ssl.truststore.location=/etc/isowatch/truststore.jks",
      "  num.stream.threads=4",
      "  isowatch.metrics.token=... (the endpoint's bearer token; not passed to Kafka)",
      "The metrics are listed in docs/monitoring.md.",
      "",
      "Exit codes: 2 bad usage or setup (Kafka or the schema registry not answering",
      "            within seconds, missing topics, metrics port taken, unreadable",
      "            config), 3 Kafka Streams failed. Stopped by SIGTERM or Ctrl-C, it",
      "            closes cleanly and the JVM reports the signal: 143 or 130."
    })
final class MonitorCommand implements Callable<Integer> {
  /** The environment variable that may hold the endpoint's bearer token. */
  static final String TOKEN_ENV = "ISOWATCH_METRICS_TOKEN";
  /** The config-file property that may hold the endpoint's bearer token (not passed to Kafka). */
  static final String TOKEN_PROPERTY = "isowatch.metrics.token";

  @Spec private CommandSpec spec;

  @Mixin private KafkaClientOptions kafkaOptions = new KafkaClientOptions();

  @Option(names = "--input", paramLabel = "FORM", converter = StreamOptions.InputConverter.class,
      defaultValue = "avro",
      description = "What the events topic carries (default: ${DEFAULT-VALUE}): avro, isowatch's TxnEvent and"
          + " Transaction records; debezium-outbox, the change events Debezium (embedded or in Kafka Connect"
          + " with the JsonConverter, schemas on or off, or with Apicurio's AvroConverter and --schema-registry-url)"
          + " writes for the recorder's outbox table; debezium-cdc, Debezium's change events of a list-append"
          + " table (the events topic, one partition) with its transaction metadata (--cdc-transaction-topic)"
          + " (docs/monitoring.md, \"Reading a Debezium topic\"; docs/connectors.md).")
  private EventsInput input;

  @Option(names = "--cdc-transaction-topic", paramLabel = "TOPIC",
      description = "With --input debezium-cdc: the connector's transaction-metadata topic, one partition"
          + " (provide.transaction.metadata=true). Default: the events topic's prefix (up to its first dot)"
          + " followed by .transaction.")
  private String cdcTransactionTopic;

  @Option(names = "--cdc-table", paramLabel = "T",
      description = "With --input debezium-cdc: the list-append table's name without schema (columns k and v,"
          + " as the probe's). Default: the events topic's last part.")
  private String cdcTable;

  @Option(names = "--cdc-history-id", paramLabel = "ID",
      description = "With --input debezium-cdc: the historyId of the transactions. Default: the events topic's"
          + " prefix, the connector's topic.prefix (what capture --cdc takes by default).")
  private String cdcHistoryId;

  @Option(names = "--level", paramLabel = "LEVEL", converter = StreamOptions.LevelConverter.class,
      description = "The level every history is expected to give (default: ${DEFAULT-VALUE}): "
          + "read-uncommitted, read-committed, read-atomic, causal, snapshot-isolation, serializable. "
          + "Violations of a stronger level are counted, not published; on register histories the "
          + "costliest checks (the polygraph's, snapshot-isolation and serializable) run only up to this level.",
      defaultValue = "serializable")
  private Level level;

  @Option(names = "--level-for", paramLabel = "HISTORY=LEVEL",
      description = "The level expected of one history (historyId), overriding --level; repeatable.")
  private Map<String, String> levelFor = new LinkedHashMap<>();

  @Option(names = "--application-id", paramLabel = "ID", defaultValue = "isowatch-monitor",
      description = "Kafka Streams application.id: the consumer group and the prefix of internal"
          + " topics; instances with the same id share the work (default: ${DEFAULT-VALUE}).")
  private String applicationId;

  @Option(names = "--window-transactions", paramLabel = "N", converter = NumberRanges.Count.class,
      description = "Transactions of one history kept in the sliding window (default: 100000; with --input"
          + " debezium-cdc " + DebeziumCdc.DEFAULT_WINDOW + ", since each of its transactions is a session of its own).")
  private Integer windowTransactions;

  @Option(names = "--window-time", paramLabel = "DURATION", converter = StreamOptions.DurationConverter.class,
      description = "How far back in event time the window reaches, e.g. 15m; 0 for no time bound"
          + " (default: 0).")
  private Duration windowTime;

  @Option(names = "--split-levels", negatable = true, defaultValue = "false", fallbackValue = "true",
      description = "Check each history in one Kafka Streams task per family of checks (axiomatic; Adya and"
          + " polygraph), merged by violation id, so that a second stream thread (num.stream.threads in"
          + " the config file) or instance checks one history faster; changes the internal topics and"
          + " stores, so switch it only with a new --application-id (default: off; docs/monitoring.md).")
  private boolean splitLevels;

  @Option(names = "--read-grace", paramLabel = "DURATION", converter = StreamOptions.DurationConverter.class,
      description = "How long (event time) a read whose writer has not arrived waits, past its end time,"
          + " before it is published as a thin-air read: once every partition of the events topic has"
          + " passed that point (default: 30s).")
  private Duration readGrace;

  @Option(names = "--read-hold-limit", paramLabel = "DURATION", converter = StreamOptions.DurationConverter.class,
      description = "How long (wall clock) the partitions' low watermark may stand still while reads wait"
          + " for it (a partition that does not progress); then the waiting reads are counted as unresolved"
          + " (isowatch_reads_unresolved_total), never published (default: 5m).")
  private Duration readHoldLimit;

  @Option(names = "--partition-idle", paramLabel = "DURATION", converter = StreamOptions.DurationConverter.class,
      description = "How long (wall clock) a partition of the events topic must bring nothing, with no"
          + " transaction open, to count as idle; when every partition is idle, reads still waiting for"
          + " a writer are counted as unresolved, not published (default: 5s).")
  private Duration partitionIdle;

  @Option(names = "--limit", paramLabel = "NAME=N",
      description = "An input limit; a record past it goes to the dead-letter topic with a reason;"
          + " repeatable. Names and defaults: max-ops-per-transaction 100000,"
          + " max-open-transactions-per-session 10000, max-sessions-per-history 100000 (per partition),"
          + " max-key-bytes 4096, max-list-length 1000000, max-record-bytes 16777216.")
  private Map<String, Integer> limits = new LinkedHashMap<>();

  @Mixin private RegistryOption registry = new RegistryOption();

  @Option(names = "--state-dir", paramLabel = "DIR",
      description = "Where the state stores live (Kafka Streams state.dir; default: its own,"
          + " java.io.tmpdir/kafka-streams).")
  private Path stateDir;

  @Option(names = "--violations-topic", paramLabel = "TOPIC", defaultValue = MonitorConfig.VIOLATIONS,
      description = "Output topic of violations (default: ${DEFAULT-VALUE}).")
  private String violationsTopic;

  @Option(names = "--dlq-topic", paramLabel = "TOPIC", defaultValue = MonitorConfig.DLQ,
      description = "Output topic of records the monitor could not use (default: ${DEFAULT-VALUE}).")
  private String dlqTopic;

  @Option(names = "--create-topics",
      description = "Create the events, violations and dead-letter topics when missing.")
  private boolean createTopics;

  @Option(names = "--partitions", paramLabel = "N", converter = NumberRanges.Count.class,
      description = "Partitions of topics created by --create-topics (default: the broker's).")
  private Integer partitions;

  @Option(names = "--replication-factor", paramLabel = "N", converter = NumberRanges.ReplicationFactor.class,
      description = "Replication factor of topics created by --create-topics (default: the broker's).")
  private Integer replication;

  @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "" + MetricsEndpoint.DEFAULT_PORT,
      converter = NumberRanges.PortOrNone.class,
      description = "Port of the HTTP endpoint: Prometheus metrics at /metrics, the violations page at"
          + " /violations; 0 picks a free port, -1 serves none (default: ${DEFAULT-VALUE}).")
  private int metricsPort;

  @Option(names = {"--metrics-host", "--metrics-bind"}, paramLabel = "ADDRESS",
      defaultValue = MetricsEndpoint.DEFAULT_BIND,
      description = "Address the endpoint listens on; 0.0.0.0 for every interface (default: ${DEFAULT-VALUE},"
          + " this machine only).")
  private String metricsHost;

  @Option(names = "--metrics-token", paramLabel = "TOKEN",
      description = "A bearer token every request to the endpoint must send (Authorization: Bearer TOKEN),"
          + " on every path; else 401. Also from the environment variable " + TOKEN_ENV
          + " or the config file's " + TOKEN_PROPERTY + " (default: none).")
  private String metricsToken;

  @Option(names = "--metrics-token-file", paramLabel = "FILE",
      description = "A file holding the bearer token, instead of --metrics-token.")
  private Path metricsTokenFile;

  @Option(names = "--print-violations", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Print one line per violation as it is published (default: on).")
  private boolean printViolations;

  @Override
  public Integer call() throws Exception {
    MonitorConfig cfg = buildConfig();
    Properties overlay = kafkaOptions.configFileOrUsageError();
    if (stateDir != null) {
      overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    }
    registry.applyTo(overlay);
    Optional<String> token;
    try {
      token = metricsToken(metricsToken, metricsTokenFile, System.getenv(TOKEN_ENV), overlay);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    MonitorRequest request = new MonitorRequest(cfg, kafkaOptions.bootstrapServers(), applicationId, overlay, createTopics,
        Optional.ofNullable(partitions), Optional.ofNullable(replication).map(Integer::shortValue), metricsHost, metricsPort, token,
        printViolations);
    return UntilSignal.run(stop -> new MonitorRunner(spec.commandLine().getOut(), spec.commandLine().getErr())
        .run(request, stop, app -> { }));
  }

  /**
   * The endpoint's bearer token, from the first of: {@code --metrics-token}, {@code
   * --metrics-token-file} (giving both is an error), the environment variable {@value #TOKEN_ENV},
   * the config file's {@value #TOKEN_PROPERTY}. The property is removed from {@code config}, which
   * then holds only Kafka settings. Tokens are stripped of surrounding white space.
   *
   * @param option the option's value, or {@code null}
   * @param file the token file, or {@code null}
   * @param env the environment variable's value, or {@code null}
   * @param config the config file's properties; {@value #TOKEN_PROPERTY} is removed
   * @return the token, empty when none is given
   * @throws IllegalArgumentException naming the source, when both options are given, the file
   *     cannot be read, or the token found is empty
   */
  static Optional<String> metricsToken(String option, Path file, String env, Properties config) {
    Object fromConfig = config.remove(TOKEN_PROPERTY);
    if (option != null && file != null) {
      throw new IllegalArgumentException("give --metrics-token or --metrics-token-file, not both");
    }
    String token;
    String source;
    if (option != null) {
      token = option;
      source = "--metrics-token";
    } else if (file != null) {
      try {
        token = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new IllegalArgumentException("--metrics-token-file " + file + ": cannot read (" + e + ")");
      }
      source = "--metrics-token-file " + file;
    } else if (env != null) {
      token = env;
      source = "environment variable " + TOKEN_ENV;
    } else if (fromConfig != null) {
      token = fromConfig.toString();
      source = "config property " + TOKEN_PROPERTY;
    } else {
      return Optional.empty();
    }
    if (token.strip().isEmpty()) {
      throw new IllegalArgumentException(source + " gives an empty token");
    }
    return Optional.of(token.strip());
  }

  /** @return the monitor's configuration from the parsed options; @throws ParameterException naming a bad one */
  MonitorConfig buildConfig() {
    MonitorConfig d = MonitorConfig.defaults();
    Map<String, Level> levels = new LinkedHashMap<>();
    levelFor.forEach((history, name) -> {
      try {
        levels.put(history, new StreamOptions.LevelConverter().convert(name));
      } catch (TypeConversionException e) {
        throw new ParameterException(spec.commandLine(), "--level-for " + history + "=" + name + ": " + e.getMessage());
      }
    });
    MonitorConfig.Limits bounds = d.limits();
    for (Map.Entry<String, Integer> e : limits.entrySet()) {
      if (!MonitorConfig.Limits.NAMES.contains(e.getKey())) {
        throw new ParameterException(spec.commandLine(),
            "--limit: " + Choices.notOneOf(e.getKey(), MonitorConfig.Limits.NAMES));
      }
      try {
        bounds = bounds.with(e.getKey(), e.getValue());
      } catch (IllegalArgumentException bad) {
        throw new ParameterException(spec.commandLine(), "--limit: " + bad.getMessage());
      }
    }
    if (input != EventsInput.DEBEZIUM_CDC && (cdcTransactionTopic != null || cdcTable != null || cdcHistoryId != null)) {
      throw new ParameterException(spec.commandLine(),
          "--cdc-transaction-topic, --cdc-table and --cdc-history-id go with --input debezium-cdc");
    }
    try {
      MonitorConfig topics = d.withTopics(kafkaOptions.eventsTopic(), violationsTopic, dlqTopic).withInput(input);
      if (input == EventsInput.DEBEZIUM_CDC) {
        DebeziumCdc derived = topics.cdcInput();
        topics = topics.withCdc(new DebeziumCdc(
            cdcTransactionTopic != null ? cdcTransactionTopic : derived.transactionTopic(),
            cdcTable != null ? cdcTable : derived.table(),
            cdcHistoryId != null ? cdcHistoryId : derived.historyId()));
      }
      return topics
          .withLimits(bounds)
          .withExpectedLevel(level)
          .withLevelByHistory(levels)
          .withWindow(windowTransactions != null ? windowTransactions
                  : input == EventsInput.DEBEZIUM_CDC ? DebeziumCdc.DEFAULT_WINDOW : d.windowTransactions(),
              windowTime == null ? d.windowTime() : windowTime)
          .withTimeouts(readGrace == null ? d.readGrace() : readGrace, d.sequenceGrace(), d.openTimeout())
          .withSources(new MonitorConfig.Sources(0,
              partitionIdle == null ? d.sources().idleAfter() : partitionIdle,
              readHoldLimit == null ? d.sources().holdLimit() : readHoldLimit))
          .withSplitLevels(splitLevels);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
