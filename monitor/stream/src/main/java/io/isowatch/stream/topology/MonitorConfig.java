package io.isowatch.stream.topology;

import io.isowatch.checker.level.Level;
import java.time.Duration;
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
 *     with status UNKNOWN (default 5 min)
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
    Duration openTimeout) {

  /** Default input topic. */
  public static final String EVENTS = "isowatch.events";
  /** Default violations topic. */
  public static final String VIOLATIONS = "isowatch.violations";
  /** Default dead-letter topic. */
  public static final String DLQ = "isowatch.dlq";

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
    for (Duration d : new Duration[] {windowTime, readGrace, sequenceGrace, openTimeout}) {
      if (d.isNegative()) {
        throw new IllegalArgumentException("durations must not be negative, got " + d);
      }
    }
  }

  /**
   * @return topics {@value #EVENTS}, {@value #VIOLATIONS}, {@value #DLQ}; expected level
   *     serializable; a window of 100,000 transactions with no time bound; 30 s grace for reads and
   *     sequence gaps; 5 min for transactions with no end
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
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout);
  }

  /** @return a copy with the per-history expected levels */
  public MonitorConfig withLevelByHistory(Map<String, Level> levels) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levels,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout);
  }

  /** @return a copy with a window of {@code transactions} transactions and {@code time} */
  public MonitorConfig withWindow(int transactions, Duration time) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory,
        transactions, time, readGrace, sequenceGrace, openTimeout);
  }

  /** @return a copy with the given grace periods and open-transaction timeout */
  public MonitorConfig withTimeouts(Duration readGrace, Duration sequenceGrace, Duration openTimeout) {
    return new MonitorConfig(eventsTopic, violationsTopic, dlqTopic, expectedLevel, levelByHistory,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout);
  }

  /** @return a copy with other topic names */
  public MonitorConfig withTopics(String events, String violations, String dlq) {
    return new MonitorConfig(events, violations, dlq, expectedLevel, levelByHistory,
        windowTransactions, windowTime, readGrace, sequenceGrace, openTimeout);
  }
}
