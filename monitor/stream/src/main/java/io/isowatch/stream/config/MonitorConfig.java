package io.isowatch.stream.config;

import io.isowatch.checker.level.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the monitor's topology needs to know: topic names, the level expected of each history, the
 * window and the waiting times. Immutable; {@link #defaults()} gives the documented defaults and the
 * {@code with...} methods change one field.
 *
 * @param eventsTopic input topic of op-level {@code TxnEvent}s and whole {@code Transaction}s
 * @param violationsTopic output topic of {@code Violation}s, keyed by historyId
 * @param dlqTopic output topic of {@code DeadLetter}s
 * @param expectedLevel the level every history is expected to give unless {@code levelByHistory}
 *     names it
 * @param levelByHistory expected level per historyId, overriding {@code expectedLevel}
 * @param windowTransactions how many transactions of one history the checker keeps (the sliding
 *     window by count), at least 2
 * @param windowTime how far back in event time the window reaches; {@link Duration#ZERO} for no
 *     time bound
 * @param readGrace how long (event time) a read whose writer has not arrived waits before it is
 *     reported as unresolved (default 30 s)
 * @param sequenceGrace how long (event time) the session assembler waits for a missing txnSeq
 *     before reporting the gap (default 30 s)
 * @param openTimeout after how long (event time) a transaction with no COMMIT or ABORT is emitted
 *     with status UNKNOWN (default 5 min), counted from its first event
 * @param duplicateRetention how long (event time) the session assembler remembers an emitted
 *     transaction so that a re-sent event or record of it is recognised as a duplicate (default
 *     60 s); a copy arriving later goes to the dead-letter topic as a late event
 * @param limits the input limits the session assembler enforces with a dead-letter reason
 * @param sources how the checker stage learns the progress of the events topic's partitions (its
 *     read grace runs on their low watermark)
 * @param input what the events topic carries (default {@link EventsInput#AVRO})
 * @param splitLevels whether each history's checking is split over one Kafka Streams task per
 *     family of checks, merged by violation id (docs/monitoring.md, "One history over several
 *     cores"), so that more stream threads or instances check one history faster; default false
 * @param cdc with {@link EventsInput#DEBEZIUM_CDC}: the transaction-metadata topic, table and
 *     historyId; null to take them from the events topic's name ({@link #cdcInput()})
 */
public record MonitorConfig(
    String eventsTopic,
    String violationsTopic,
    String dlqTopic,
    Level expectedLevel,
    Map<String, Level> levelByHistory,
    int windowTransactions,
    Duration windowTime,
    Duration readGrace,
    Duration sequenceGrace,
    Duration openTimeout,
    Duration duplicateRetention,
    Limits limits,
    Sources sources,
    EventsInput input,
    boolean splitLevels,
    DebeziumCdc cdc) {

  /** Default input topic. */
  public static final String EVENTS = "isowatch.events";
  /** Default violations topic. */
  public static final String VIOLATIONS = "isowatch.violations";
  /** Default dead-letter topic. */
  public static final String DLQ = "isowatch.dlq";
  /** Default duplicate retention. */
  private static final Duration DUPLICATE_RETENTION = Duration.ofSeconds(60);

  /**
   * Bounds on hostile input, each enforced by sending the offending record to the dead-letter topic
   * (reason classes in parentheses) instead of growing the heap or the state stores. Each limit has a
   * command-line name ({@link #NAMES}, e.g. {@code max-ops-per-transaction}) for {@link #with}.
   *
   * @param maxOpsPerTransaction operations (READ, WRITE, APPEND) one transaction may hold
   *     ({@code too-many-operations}); default 100,000
   * @param maxOpenTransactionsPerSession transactions of one session that may be in progress or
   *     waiting for an earlier txnSeq at once ({@code too-many-open-transactions}); default 10,000
   * @param maxSessionsPerHistory sessions of one history one assembler task (one partition of the
   *     events topic) keeps state for ({@code too-many-sessions}); default 100,000. Sessions are
   *     spread over the partitions by their record key, so a history may have up to this many per
   *     partition
   * @param maxKeyBytes UTF-8 length of a key, and of historyId, sessionId and txnId
   *     ({@code oversized-field}); default 4,096, at most {@value #MAX_KEY_BYTES}
   * @param maxListLength elements of a list read, the one value of variable size
   *     ({@code oversized-field}); default 1,000,000
   * @param maxRecordBytes length of a record's value on the events topic, checked before it is
   *     decoded ({@code oversized-record}); default 16 MiB
   */
  public record Limits(int maxOpsPerTransaction, int maxOpenTransactionsPerSession, int maxSessionsPerHistory,
      int maxKeyBytes, int maxListLength, int maxRecordBytes) {
    /** Upper bound of {@code maxKeyBytes}: identifiers are kept in state with 16-bit lengths. */
    public static final int MAX_KEY_BYTES = 16_384;

    /** The limits' command-line names, in the order of the record's components. */
    public static final List<String> NAMES = List.of("max-ops-per-transaction", "max-open-transactions-per-session",
        "max-sessions-per-history", "max-key-bytes", "max-list-length", "max-record-bytes");

    /** @throws IllegalArgumentException for a limit below 1 or {@code maxKeyBytes} above {@value #MAX_KEY_BYTES} */
    public Limits {
      int[] all = {maxOpsPerTransaction, maxOpenTransactionsPerSession, maxSessionsPerHistory, maxKeyBytes,
          maxListLength, maxRecordBytes};
      for (int i = 0; i < all.length; i++) {
        if (all[i] < 1) {
          throw new IllegalArgumentException(NAMES.get(i) + " must be at least 1, got " + all[i]);
        }
      }
      if (maxKeyBytes > MAX_KEY_BYTES) {
        throw new IllegalArgumentException("max-key-bytes must be at most " + MAX_KEY_BYTES + ", got " + maxKeyBytes);
      }
    }

    /**
     * @return 100,000 operations, 10,000 open transactions, 100,000 sessions, 4,096-byte keys,
     *     1,000,000-element lists, 16 MiB records
     */
    public static Limits defaults() {
      return new Limits(100_000, 10_000, 100_000, 4_096, 1_000_000, 16 << 20);
    }

    /**
     * @param name one of {@link #NAMES}
     * @param value the new limit
     * @return a copy with that limit changed
     * @throws IllegalArgumentException for an unknown name (the message lists {@link #NAMES}) or a
     *     value the constructor refuses
     */
    public Limits with(String name, int value) {
      int[] all = {maxOpsPerTransaction, maxOpenTransactionsPerSession, maxSessionsPerHistory, maxKeyBytes,
          maxListLength, maxRecordBytes}; // in the order of NAMES
      int i = NAMES.indexOf(name);
      if (i < 0) {
        throw new IllegalArgumentException("unknown limit '" + name + "'; expected one of " + String.join(", ", NAMES));
      }
      all[i] = value;
      return new Limits(all[0], all[1], all[2], all[3], all[4], all[5]);
    }
  }

  /**
   * The sources of the checker stage's watermarks: the partitions of the events topic, each read by
   * one session assembler task that sends its progress ({@code SourceWatermark}, docs/monitoring.md
   * "Reads of writers that have not arrived").
   *
   * @param eventsPartitions how many partitions the events topic has (the monitor asks the brokers
   *     at start); the checker waits for a watermark from each before it declares any writer absent.
   *     0 when not known: then only the partitions that sent a watermark count, which is exact only
   *     when every assembler task has started (a test's single partition)
   * @param idleAfter how long (wall clock) an assembler task must have read nothing, holding no
   *     transaction back, before it declares its partition idle (read to its end); when every
   *     partition is idle, the reads still held are given up on as unresolved instead of waiting
   *     for the hold limit; default 5 s
   * @param holdLimit how long (wall clock) the low watermark may stand still while reads are held
   *     (a stalled partition); then the reads held are given up on as unresolved: counted ({@code
   *     isowatch_reads_unresolved_total}), never published. Default 5 min
   */
  public record Sources(int eventsPartitions, Duration idleAfter, Duration holdLimit) {
    /**
     * @throws IllegalArgumentException for a negative count or duration
     * @throws NullPointerException for a null duration
     */
    public Sources {
      if (eventsPartitions < 0) {
        throw new IllegalArgumentException("events partitions must not be negative, got " + eventsPartitions);
      }
      if (idleAfter.isNegative() || holdLimit.isNegative()) {
        throw new IllegalArgumentException("durations must not be negative");
      }
    }

    /** @return partitions not known (0), idle after 5 s, hold limit 5 min */
    public static Sources defaults() {
      return new Sources(0, Duration.ofSeconds(5), Duration.ofMinutes(5));
    }

    /** @return a copy naming the events topic's partition count */
    public Sources withEventsPartitions(int partitions) {
      return new Sources(partitions, idleAfter, holdLimit);
    }
  }

  /**
   * The configuration before duplicate retention, limits and sources existed: those two take their defaults
   * (60 s, {@link Limits#defaults()}, {@link Sources#defaults()}).
   *
   * @throws NullPointerException for a null field
   * @throws IllegalArgumentException for a window below 2 transactions or a negative duration
   */
  public MonitorConfig(String eventsTopic, String violationsTopic, String dlqTopic, Level expectedLevel,
      Map<String, Level> levelByHistory, int windowTransactions, Duration windowTime, Duration readGrace,
      Duration sequenceGrace, Duration openTimeout) {
    this(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory, windowTransactions,
        windowTime, readGrace, sequenceGrace, openTimeout, DUPLICATE_RETENTION, Limits.defaults(),
        Sources.defaults(), EventsInput.AVRO, false, null);
  }

  /**
   * The configuration before the input form and the split check existed: Avro input, not split.
   *
   * @throws NullPointerException for a null field
   * @throws IllegalArgumentException for a window below 2 transactions or a negative duration
   */
  public MonitorConfig(String eventsTopic, String violationsTopic, String dlqTopic, Level expectedLevel,
      Map<String, Level> levelByHistory, int windowTransactions, Duration windowTime, Duration readGrace,
      Duration sequenceGrace, Duration openTimeout, Duration duplicateRetention, Limits limits, Sources sources) {
    this(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory, windowTransactions, windowTime,
        readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources, EventsInput.AVRO, false, null);
  }

  /**
   * The configuration before the Debezium CDC input existed: its topics and table, if it is chosen,
   * follow from the events topic ({@link #cdcInput()}).
   *
   * @throws NullPointerException for a null field
   * @throws IllegalArgumentException for a window below 2 transactions or a negative duration
   */
  public MonitorConfig(String eventsTopic, String violationsTopic, String dlqTopic, Level expectedLevel,
      Map<String, Level> levelByHistory, int windowTransactions, Duration windowTime, Duration readGrace,
      Duration sequenceGrace, Duration openTimeout, Duration duplicateRetention, Limits limits, Sources sources,
      EventsInput input, boolean splitLevels) {
    this(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory, windowTransactions, windowTime,
        readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources, input, splitLevels, null);
  }

  /**
   * @throws NullPointerException for a null field
   * @throws IllegalArgumentException for a window below 2 transactions or a negative duration
   */
  public MonitorConfig {
    Objects.requireNonNull(eventsTopic, "eventsTopic");
    Objects.requireNonNull(violationsTopic, "violationsTopic");
    Objects.requireNonNull(dlqTopic, "dlqTopic");
    Objects.requireNonNull(expectedLevel, "expectedLevel");
    levelByHistory = Map.copyOf(levelByHistory);
    if (windowTransactions < 2) {
      throw new IllegalArgumentException("window must hold at least 2 transactions, got " + windowTransactions);
    }
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(sources, "sources");
    Objects.requireNonNull(input, "input");
    for (Duration d : new Duration[] {windowTime, readGrace, sequenceGrace, openTimeout, duplicateRetention}) {
      if (d.isNegative()) {
        throw new IllegalArgumentException("durations must not be negative, got " + d);
      }
    }
  }

  /**
   * @return topics {@value #EVENTS}, {@value #VIOLATIONS}, {@value #DLQ}; expected level
   *     serializable; a window of 100,000 transactions with no time bound; 30 s grace for reads and
   *     sequence gaps; 5 min for transactions with no end; duplicates recognised for 60 s;
   *     {@link Limits#defaults()}
   */
  public static MonitorConfig defaults() {
    return new MonitorConfig(EVENTS, VIOLATIONS, DLQ, Level.SERIALIZABLE, Map.of(), 100_000,
        Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMinutes(5));
  }

  /** @return the level expected of {@code historyId} */
  public Level levelOf(String historyId) {
    return levelByHistory.getOrDefault(historyId, expectedLevel);
  }

  /** @return a copy expecting {@code level} of every history not in the per-history map */
  public MonitorConfig withExpectedLevel(Level level) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, level, levelByHistory,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources, input, splitLevels, cdc);
  }

  /** @return a copy with the per-history expected levels */
  public MonitorConfig withLevelByHistory(Map<String, Level> levels) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levels,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources, input, splitLevels, cdc);
  }

  /** @return a copy with a window of {@code transactions} transactions and {@code time} */
  public MonitorConfig withWindow(int transactions, Duration time) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory,
        transactions, time, readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources, input, splitLevels, cdc);
  }

  /** @return a copy with the given grace periods and open-transaction timeout */
  public MonitorConfig withTimeouts(Duration readGrace, Duration sequenceGrace, Duration openTimeout) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources, input, splitLevels, cdc);
  }

  /** @return a copy with other topic names */
  public MonitorConfig withTopics(String events, String violations, String dlq) {
    return new MonitorConfig(events, violations, dlq, expectedLevel, levelByHistory,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources, input, splitLevels, cdc);
  }

  /** @return a copy remembering emitted transactions for {@code retention} of event time */
  public MonitorConfig withDuplicateRetention(Duration retention) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout, retention, limits, sources, input, splitLevels, cdc);
  }

  /** @return a copy enforcing {@code limits} */
  public MonitorConfig withLimits(Limits limits) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources, input, splitLevels, cdc);
  }

  /** @return a copy with other watermark sources' settings */
  public MonitorConfig withSources(Sources sources) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources, input, splitLevels, cdc);
  }

  /** @return a copy reading the events topic as {@code input} */
  public MonitorConfig withInput(EventsInput input) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources, input, splitLevels, cdc);
  }

  /**
   * @return the Debezium CDC input's settings: {@link #cdc()}, or if it is null those {@link
   *     DebeziumCdc#forDataTopic} derives from the events topic
   */
  public DebeziumCdc cdcInput() {
    return cdc != null ? cdc : DebeziumCdc.forDataTopic(eventsTopic);
  }

  /**
   * @return the topics the session assembler reads: the events topic; with {@link
   *     EventsInput#DEBEZIUM_CDC} also the connector's transaction-metadata topic, read by the same
   *     task (both have one partition)
   */
  public List<String> inputTopics() {
    return input == EventsInput.DEBEZIUM_CDC ? List.of(eventsTopic, cdcInput().transactionTopic()) : List.of(eventsTopic);
  }

  /** @return a copy reading Debezium's CDC topics with {@code cdc}'s settings (input {@link EventsInput#DEBEZIUM_CDC}) */
  public MonitorConfig withCdc(DebeziumCdc cdc) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources,
        EventsInput.DEBEZIUM_CDC, splitLevels, cdc);
  }

  /** @return a copy that splits each history's checking over one task per family of checks, or not */
  public MonitorConfig withSplitLevels(boolean split) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout, duplicateRetention, limits, sources,
        input, split, cdc);
  }
}
