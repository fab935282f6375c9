package io.isowatch.stream.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The monitor's own meters, registered in one Micrometer {@link MeterRegistry} (the Prometheus
 * registry in production, a {@link SimpleMeterRegistry} in tests). Names follow Micrometer's dotted
 * convention; the Prometheus registry exports them with underscores and a {@code _total} suffix on
 * counters (e.g. {@code isowatch.violations} becomes {@code isowatch_violations_total}).
 *
 * <p>Thread-safe: Kafka Streams calls it from every stream thread.
 */
public final class MonitorMetrics {
  private final MeterRegistry registry;
  private final Counter transactions;
  private final Counter operations;
  private final Counter unresolvedReads;
  private final Counter undecidedChecks;
  private final Counter duplicates;
  private final Timer checkLatency;
  private final DistributionSummary windowTransactions;
  /** The window gauges of the histories checked by this instance's tasks, by historyId. */
  private final ConcurrentHashMap<String, WindowGauge> windowGauges = new ConcurrentHashMap<>();

  /**
   * One history's gauges and the values they read: {@code isowatch.window.transactions} and {@code
   * isowatch.window.held}.
   */
  private record WindowGauge(AtomicLong transactions, Gauge gauge, AtomicLong held, Gauge heldGauge) {}

  /** @param registry where the meters live */
  public MonitorMetrics(MeterRegistry registry) {
    this.registry = registry;
    transactions = Counter.builder("isowatch.transactions.checked")
        .description("Transactions the checker accepted").register(registry);
    operations = Counter.builder("isowatch.operations.checked")
        .description("Operations of the transactions the checker accepted").register(registry);
    unresolvedReads = Counter.builder("isowatch.reads.unresolved")
        .description("Reads given up on: held past the hold limit while a partition of the events topic had"
            + " not passed them (counted, never published)").register(registry);
    undecidedChecks = Counter.builder("isowatch.checks.undecided")
        .description("Polygraph checks of a window generation (snapshot isolation, serializable on register"
            + " histories) that ran out of their budget: unknown, nothing published").register(registry);
    duplicates = Counter.builder("isowatch.input.duplicates")
        .description("Input events and transactions identical to one already received, ignored").register(registry);
    checkLatency = Timer.builder("isowatch.check.latency")
        .description("Event time of the transaction that closed a violation to the violation's publication")
        .publishPercentileHistogram().register(registry);
    windowTransactions = DistributionSummary.builder("isowatch.window.transactions.sampled")
        .description("Window size in transactions, sampled at each accepted transaction").register(registry);
  }

  /** @return metrics over a fresh in-memory registry, for tests and tools */
  public static MonitorMetrics inMemory() {
    return new MonitorMetrics(new SimpleMeterRegistry());
  }

  /** @return the registry the meters are in */
  public MeterRegistry registry() {
    return registry;
  }

  /** Counts one transaction with {@code ops} operations accepted by the checker. */
  public void transactionChecked(int ops) {
    transactions.increment();
    operations.increment(ops);
  }

  /**
   * Counts transactions checked by one family's checker of a split check ({@link
   * io.isowatch.stream.config.MonitorConfig#splitLevels()}): {@code isowatch.family.transactions.checked}
   * tagged {@code family}; the families progress apart, and the slowest bounds the monitor.
   *
   * @param family the family's id ({@code axiomatic}, {@code adya-polygraph})
   * @param n transactions checked
   */
  public void familyChecked(String family, int n) {
    Counter.builder("isowatch.family.transactions.checked")
        .description("Transactions checked by one family's checker of a split check")
        .tag("family", family).register(registry).increment(n);
  }

  /**
   * Counts a violation of the expected level, published to the violations topic.
   *
   * @param level the weakest level broken, CLI name (e.g. {@code read-committed})
   * @param anomaly the anomaly id (e.g. {@code G2-item})
   */
  public void violation(String level, String anomaly) {
    Counter.builder("isowatch.violations").description("Violations of the expected level published")
        .tag("level", level).tag("anomaly", anomaly).register(registry).increment();
  }

  /**
   * Counts an observation that breaks only levels stronger than the one expected (not published).
   *
   * @param level the weakest level broken, CLI name
   * @param anomaly the anomaly id
   */
  public void strongerLevelOnly(String level, String anomaly) {
    Counter.builder("isowatch.observations.stronger.level.only")
        .description("Anomalies that break only levels stronger than the expected one (not published)")
        .tag("level", level).tag("anomaly", anomaly).register(registry).increment();
  }

  /**
   * Counts a record sent to the dead-letter topic.
   *
   * @param reason a short, bounded reason class (e.g. {@code truncated}, {@code unknown-fingerprint},
   *     {@code sequence-gap}), not the full message: it becomes a tag
   */
  public void deadLetter(String reason) {
    Counter.builder("isowatch.dlq.records").description("Records sent to the dead-letter topic")
        .tag("reason", reason).register(registry).increment();
  }

  /**
   * Counts a Debezium change event of the events topic that carries no transaction and is skipped
   * ({@code monitor --input debezium-outbox}; {@link io.isowatch.schemas.debezium.OutboxRows.Skipped}).
   *
   * @param reason {@code tombstone}, {@code delete}, {@code update}, {@code snapshot}, {@code
   *     truncate}, {@code transaction-metadata} or {@code other-table}: a tag
   */
  public void debeziumSkipped(String reason) {
    Counter.builder("isowatch.debezium.skipped")
        .description("Debezium change events on the events topic that carry no transaction (pruning, tombstones,"
            + " transaction metadata, other tables)")
        .tag("reason", reason).register(registry).increment();
  }

  /**
   * Counts an input record identical to one the session assembler already holds (same txnId and
   * opIndex, same bytes; or the same whole transaction), which it ignores: producers that retry
   * deliver such copies, and they change nothing.
   */
  public void duplicateIgnored() {
    duplicates.increment();
  }

  /**
   * Counts records restored into a local state store from its changelog topic (after a crash, a
   * wiped state directory, or a task moved to this instance by a rebalance).
   *
   * @param store the state store's name (a bounded set: the topology's stores), a tag
   * @param records records restored in one batch, at least 0
   */
  public void restored(String store, long records) {
    Counter.builder("isowatch.state.restored.records")
        .description("Records restored into local state stores from their changelog topics")
        .tag("store", store).register(registry).increment(records);
  }

  /**
   * Counts {@code n} reads given up on as unresolved: held past the hold limit while some partition
   * of the events topic had not passed their end time plus the read grace, so the writer's absence
   * is not established. They are not violations and are never published.
   */
  public void unresolvedReads(int n) {
    unresolvedReads.increment(n);
  }

  /** @return the reads counted by {@link #unresolvedReads} since this instance started */
  public long unresolvedReadsCount() {
    return (long) unresolvedReads.count();
  }

  /**
   * Counts {@code n} polygraph checks of a window generation that ran out of their conflict budget
   * (the window checker's {@code Outcome.undecidedChecks}): their verdict is
   * unknown, nothing is published for them.
   */
  public void undecidedChecks(int n) {
    undecidedChecks.increment(n);
  }

  /** Records the latency from the closing transaction's event time to publication. */
  public void checkLatency(Duration latency) {
    checkLatency.record(latency);
  }

  /**
   * Sets the window size of one history and samples it; registers the history's gauge ({@code
   * isowatch.window.transactions}, tag {@code history}) when it is not registered.
   *
   * @param historyId the history
   * @param transactions transactions in its window now
   * @param held transactions held now, waiting for a writer or for the low watermark ({@code
   *     isowatch.window.held}, tag {@code history})
   */
  public void windowSize(String historyId, long transactions, int held) {
    WindowGauge g = windowGauge(historyId);
    g.transactions().set(transactions);
    g.held().set(held);
    windowTransactions.record(transactions);
  }

  /**
   * Sets the window size of one history whose window was just restored from the state stores (a
   * restart, or a task moved here by a rebalance), registering its gauge, without sampling it: no
   * transaction was accepted.
   *
   * @param historyId the history
   * @param transactions transactions in its restored window
   * @param held transactions held in it
   */
  public void windowRestored(String historyId, long transactions, int held) {
    WindowGauge g = windowGauge(historyId);
    g.transactions().set(transactions);
    g.held().set(held);
  }

  /**
   * Removes the window gauge of a history that this instance no longer checks, because the task
   * holding it closed (a rebalance moved it to another instance, or the instance stops), so that
   * only the instance that checks a history exports its window size. Nothing happens when the
   * history has no gauge here. The gauge returns at the next {@link #windowSize} or {@link
   * #windowRestored} of the history, on whichever instance then holds it.
   *
   * @param historyId the history
   */
  public void windowReleased(String historyId) {
    WindowGauge g = windowGauges.remove(historyId);
    if (g != null) {
      registry.remove(g.gauge());
      registry.remove(g.heldGauge());
    }
  }

  private WindowGauge windowGauge(String historyId) {
    return windowGauges.computeIfAbsent(historyId, h -> {
      AtomicLong value = new AtomicLong();
      Gauge gauge = Gauge.builder("isowatch.window.transactions", value, AtomicLong::get)
          .description("Transactions in the history's window now, on the instance whose task checks it")
          .tag("history", h).register(registry);
      AtomicLong held = new AtomicLong();
      Gauge heldGauge = Gauge.builder("isowatch.window.held", held, AtomicLong::get)
          .description("Transactions of the history held now, waiting for a writer or for every partition"
              + " of the events topic to pass the read grace")
          .tag("history", h).register(registry);
      return new WindowGauge(value, gauge, held, heldGauge);
    });
  }
}
