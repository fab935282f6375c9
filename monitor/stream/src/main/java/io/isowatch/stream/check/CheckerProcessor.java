package io.isowatch.stream.check;

import io.isowatch.checker.LevelVerdicts;
import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.window.RejectedTransactionException;
import io.isowatch.checker.window.WindowChecker;
import io.isowatch.checker.window.WindowConfig;
import io.isowatch.checker.window.WindowTxn;
import io.isowatch.checker.window.WindowViolation;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.SourceWatermark;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.mapping.TransactionMapping;
import io.isowatch.schemas.mapping.ViolationMapping;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Checks each history's transactions with a {@link WindowChecker} and publishes what breaks the
 * history's expected level ({@link MonitorConfig#levelOf}).
 *
 * <ul>
 *   <li>Input: {@link Transaction} records keyed by historyId (the key is not trusted: the
 *       record's own historyId is used), and the assembler tasks' {@link SourceWatermark}s, which
 *       every checker partition receives. Another record type, or a transaction the checker refuses
 *       (an operation with no key or with a value of the wrong shape, a txnId seen before in the
 *       window, a write of a value already written), goes out as a {@link DeadLetter} with the
 *       record's topic, partition and offset ({@link ProcessorContext#recordMetadata()}) and the
 *       reason, counted by {@link MonitorMetrics#deadLetter}.
 *   <li>Output: a {@link io.isowatch.schemas.Violation} keyed by historyId for each new violation
 *       that breaks the expected level ({@link LevelVerdicts#breaks}: its weakest level broken is
 *       at most the expected level, the rule {@code isowatch check}'s verdict per level reads, so a
 *       violation of a weaker level counts against every stronger expected level); others are
 *       counted by {@link MonitorMetrics#strongerLevelOnly}. The id is the checker's stable id; {@code detectedAt} is
 *       the input record's timestamp, or for a read released by a watermark the low watermark (event
 *       time, never the wall clock), so the
 *       output is a function of the input. Each carries the header {@link
 *       CheckerStage#APPLICATION_ID_HEADER} with the application id, and no header of the input.
 *   <li>The read grace runs on the low watermark of the events topic's partitions ({@link
 *       SourceClock}), never on the largest end time seen nor on Kafka record timestamps: the
 *       checker's input is merged from several assembler tasks that progress at different speeds
 *       (lag, a restart, a slow partition), and a writer on a partition that is behind is late, not
 *       absent. Each history has its own clock ({@link SourceClock}), since histories are
 *       different databases with clocks of their own. When a watermark moves a history's clock,
 *       the history's held transactions are offered
 *       it: a read whose writer did not arrive is published as a thin-air read once the low
 *       watermark passes its end time plus the grace, and given up on as unresolved (counted by
 *       {@link MonitorMetrics#unresolvedReads}, not published) when every partition is idle, or
 *       when the low watermark has not moved for the hold limit of wall-clock time (a wall-clock
 *       punctuation every {@link #HOLD_CHECK_INTERVAL}; the one use of the wall clock, which
 *       decides only what is counted, never what is published).
 *   <li>On register-only histories the window's polygraph checks (snapshot isolation and
 *       serializable, those up to the history's expected level: a stronger one's findings would
 *       only be counted, at about 100 times the cost of the other checks) run every K
 *       transactions of a generation, when it retires, and when the
 *       checker gives up waiting (every partition idle, or the hold limit): what they find is
 *       published like every other violation, even when that call checked no transaction; a check
 *       that ran out of its budget is counted by {@link MonitorMetrics#undecidedChecks}.
 *   <li>State: the checkers live in memory; every change goes to the stores through {@link
 *       HistoryJournal} in the same processing step, and {@link #init} rebuilds the checkers from
 *       the stores, replaying each window with output suppressed, so that after a restart nothing
 *       reported is reported again.
 *   <li>Split ({@link CheckerStage#supplier(MonitorConfig, MonitorMetrics,
 *       io.isowatch.checker.window.CheckFamily, boolean)}): the checker runs one family of checks;
 *       each violation goes out with headers {@value #FAMILY_HEADER} and {@value #LAST_SEQ_HEADER},
 *       counted by the merge ({@link ViolationMerge}) rather than here, and each move of a history's
 *       oldest generation as a progress record (no value, headers {@value #FAMILY_HEADER} and
 *       {@value #PROGRESS_HEADER}); only the primary family's checker counts transactions, unresolved
 *       reads and the thin-air reads of a stronger level, exports window gauges, and publishes and
 *       counts dead letters, which every family sees alike.
 *   <li>Window gauges ({@link MonitorMetrics#windowSize}): set for each history when a transaction
 *       is checked and when {@link #init} restores its window; removed for this task's histories
 *       when Kafka Streams closes the processor ({@link #close}), so that after a rebalance only
 *       the instance that now checks a history exports its window size.
 * </ul>
 */
final class CheckerProcessor implements Processor<String, SpecificRecord, String, SpecificRecord> {
  /** Header of a split checker's records for the merge: its family's id (UTF-8). */
  static final String FAMILY_HEADER = "isowatch.check-family";
  /** Header of a split checker's violation: the feed position of its latest transaction (8 bytes big-endian). */
  static final String LAST_SEQ_HEADER = "isowatch.last-seq";
  /**
   * Header of a split checker's progress record (no value): the feed position where the history's
   * oldest live generation starts (8 bytes big-endian); the checker cannot find a violation whose
   * transactions are all before it.
   */
  static final String PROGRESS_HEADER = "isowatch.window-start";
  private final MonitorConfig config;
  private final WindowConfig window;
  private final MonitorMetrics metrics;
  private final CheckerStage.Lane lane;
  /** How often, in wall-clock time, the hold limit is checked. */
  static final Duration HOLD_CHECK_INTERVAL = Duration.ofSeconds(1);
  private final Map<String, HistoryState> histories = new HashMap<>();
  private ProcessorContext<String, SpecificRecord> context;
  /** The value of the header naming this application on every violation ({@link CheckerStage#APPLICATION_ID_HEADER}). */
  private byte[] applicationId;
  /** The value of {@link #FAMILY_HEADER} (split checkers). */
  private byte[] familyId;
  private CheckerStores stores;
  /** Each history's read clock: the events topic's partitions' low watermark in its event time. */
  private Map<String, SourceClock> clocks;

  /**
   * One history's checker and journal.
   *
   * @param synced whether the checker was given the clock's current low watermark
   *     (false after {@link #init} restored it, until its next transaction or watermark)
   */
  private static final class HistoryState {
    final WindowChecker checker;
    final HistoryJournal journal;
    boolean synced;
    /** The window start last published as progress (split checkers), -1 for none since {@link #init}. */
    long progressSent = -1;

    HistoryState(WindowChecker checker, HistoryJournal journal, boolean synced) {
      this.checker = checker;
      this.journal = journal;
      this.synced = synced;
    }
  }

  CheckerProcessor(MonitorConfig config, WindowConfig window, MonitorMetrics metrics, CheckerStage.Lane lane) {
    this.config = config;
    this.window = window;
    this.metrics = metrics;
    this.lane = lane;
  }

  /**
   * @return the window's config for {@code historyId}: its polygraph checks only up to the
   *     history's expected level, since what a stronger one finds is only counted
   */
  private WindowConfig windowOf(String historyId) {
    return window.withPolygraphUpTo(config.levelOf(historyId));
  }

  private KeyValueStore<Bytes, byte[]> store(String name) {
    return context.getStateStore(CheckerStage.storeName(name, lane.family()));
  }

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    stores = new CheckerStores(store(CheckerStage.WINDOW_STORE), store(CheckerStage.HELD_STORE),
        store(CheckerStage.REPORTED_STORE), store(CheckerStage.EVICTED_STORE), store(CheckerStage.LAST_WRITES_STORE),
        store(CheckerStage.LISTS_STORE), store(CheckerStage.META_STORE), store(CheckerStage.SOURCES_STORE));
    clocks = SourceClock.loadAll(stores.sources(), config.sources().eventsPartitions(), context.currentSystemTimeMs());
    Map<String, byte[]> metas = new TreeMap<>();
    try (KeyValueIterator<Bytes, byte[]> it = stores.meta().all()) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        metas.put(StoreKeys.historyId(kv.key.get()), kv.value);
      }
    }
    for (Map.Entry<String, byte[]> e : metas.entrySet()) {
      HistoryJournal journal = new HistoryJournal(e.getKey(), stores);
      WindowChecker checker = journal.restore(windowOf(e.getKey()), e.getValue());
      histories.put(e.getKey(), new HistoryState(checker, journal, false));
      if (lane.primary()) {
        metrics.windowRestored(e.getKey(), checker.windowSize(), checker.heldCount());
      }
    }
    applicationId = context.applicationId().getBytes(StandardCharsets.UTF_8);
    familyId = lane.split() ? lane.family().id().getBytes(StandardCharsets.UTF_8) : null;
    context.schedule(HOLD_CHECK_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::checkStall);
  }

  /**
   * The wall-clock punctuation: when the low watermark has not moved for the hold limit (a
   * partition stalled: its assembler task not running, or its producers stopped with a transaction
   * open), every held read is given up on, counted as unresolved and not published; then the limit
   * runs again.
   */
  private void checkStall(long wallMs) {
    for (Map.Entry<String, HistoryState> e : histories.entrySet()) {
      HistoryState s = e.getValue();
      if (s.checker.heldCount() == 0) {
        continue;
      }
      SourceClock clock = clockOf(e.getKey());
      if (wallMs - clock.stalledSinceMs() >= config.sources().holdLimit().toMillis()) {
        clock.gaveUp(wallMs);
        advance(e.getKey(), s, clock, Math.max(0, context.currentStreamTimeMs()), true);
      }
    }
  }

  private SourceClock clockOf(String historyId) {
    return clocks.computeIfAbsent(historyId, h -> SourceClock.fresh(h, stores.sources(),
        config.sources().eventsPartitions(), context.currentSystemTimeMs()));
  }

  @Override
  public void process(Record<String, SpecificRecord> record) {
    if (record.value() instanceof SourceWatermark w) {
      SourceClock clock = clockOf(w.getHistoryId());
      HistoryState s = histories.get(w.getHistoryId());
      if (clock.accept(w, context.currentSystemTimeMs()) && s != null) {
        // what this releases is detected at the event time every partition has reached
        advance(w.getHistoryId(), s, clock,
            clock.low() == Long.MIN_VALUE ? record.timestamp() : Math.max(0, clock.low() / 1000), clock.allIdle());
      }
      return;
    }
    if (!(record.value() instanceof Transaction)) {
      String what = record.value() == null ? "no value" : "a " + record.value().getClass().getSimpleName();
      deadLetter(record, "unexpected-record", "the checker takes Transaction records, got " + what);
      return;
    }
    Transaction t = (Transaction) record.value();
    HistoryState state = null;
    WindowChecker.Outcome outcome;
    try {
      WindowTxn txn = TransactionMapping.toWindow(t);
      state = histories.get(t.getHistoryId());
      if (state == null) {
        HistoryJournal journal = new HistoryJournal(t.getHistoryId(), stores);
        state = new HistoryState(new WindowChecker(windowOf(t.getHistoryId()), journal), journal, false);
      }
      sync(t.getHistoryId(), state, record.timestamp());
      outcome = state.checker.offer(txn);
    } catch (RejectedTransactionException e) {
      deadLetter(record, e.reasonClass(), e.getMessage());
      return;
    }
    histories.putIfAbsent(t.getHistoryId(), state);
    publish(t.getHistoryId(), state, outcome, record.timestamp());
  }

  /** Gives a history's checker the clock if it does not have it yet (new, or restored by {@link #init}). */
  private void sync(String historyId, HistoryState state, long timestampMillis) {
    if (!state.synced) {
      advance(historyId, state, clockOf(historyId), timestampMillis, false);
    }
  }

  /**
   * Called by Kafka Streams when the task closes or is suspended (revoked by a rebalance, migrated,
   * or the instance stops): removes the window gauges of this task's histories, and of no other
   * task's, since a history's transactions all go to one partition (keyed by historyId) and so to
   * one task. The same history's gauge on another task of this instance, after a move between
   * stream threads, cannot be removed here: that task initializes only once this one has closed and
   * unlocked the task's state directory. Forgets the checkers too: if the task resumes here, {@link
   * #init} rebuilds them from the stores.
   */
  @Override
  public void close() {
    for (String historyId : histories.keySet()) {
      if (lane.primary()) {
        metrics.windowReleased(historyId);
      }
    }
    histories.clear();
  }

  /**
   * Gives a history's checker its clock after a watermark moved it, so that held reads are released;
   * with {@code giveUp} (every partition idle, or the low watermark stalled for the hold limit) the
   * rest of the held reads are given up on.
   */
  private void advance(String historyId, HistoryState s, SourceClock clock, long timestampMillis, boolean giveUp) {
    s.synced = true;
    WindowChecker.Outcome o = s.checker.advance(clock.low(), giveUp);
    if (o.checked() > 0 || !o.violations().isEmpty() || o.undecidedChecks() > 0) {
      publish(historyId, s, o, timestampMillis);
    }
  }

  private void publish(String historyId, HistoryState state, WindowChecker.Outcome o, long timestampMillis) {
    WindowChecker.Meta meta = state.checker.meta();
    state.journal.meta(meta);
    if (lane.primary()) {
      for (int i = 0; i < o.checked(); i++) {
        metrics.transactionChecked(i == 0 ? o.checkedOps() : 0);
      }
      if (o.unresolvedReads() > 0) {
        metrics.unresolvedReads(o.unresolvedReads());
      }
      metrics.windowSize(historyId, state.checker.windowSize(), state.checker.heldCount());
    }
    if (lane.split() && o.checked() > 0) {
      metrics.familyChecked(lane.family().id(), o.checked());
    }
    if (o.undecidedChecks() > 0) {
      metrics.undecidedChecks(o.undecidedChecks());
    }
    Level expected = config.levelOf(historyId);
    long detectedAt = timestampMillis * 1000;
    for (WindowViolation v : o.violations()) {
      Finding f = v.finding();
      if (!LevelVerdicts.breaks(f.level(), expected)) {
        // every family's checker finds the window's thin-air reads: the primary one counts them
        if (lane.primary() || f.anomaly() != Anomaly.THIN_AIR_READ) {
          metrics.strongerLevelOnly(f.level().cliName(), f.anomaly().id());
        }
        continue;
      }
      Headers headers = new RecordHeaders().add(CheckerStage.APPLICATION_ID_HEADER, applicationId);
      if (lane.split()) {
        headers.add(FAMILY_HEADER, familyId).add(LAST_SEQ_HEADER, StoreKeys.longBytes(v.lastSeq()));
      } else {
        metrics.violation(f.level().cliName(), f.anomaly().id()); // else counted by the merge, once
      }
      context.forward(new Record<>(historyId, ViolationMapping.toAvro(historyId, v, detectedAt), timestampMillis,
          headers));
      long latencyMicros = System.currentTimeMillis() * 1000 - v.closingTime();
      metrics.checkLatency(Duration.ofNanos(Math.max(0, latencyMicros) * 1000));
    }
    long[] starts = meta.generationStarts();
    if (lane.split() && starts.length > 0 && starts[0] != state.progressSent) {
      state.progressSent = starts[0];
      context.forward(new Record<String, SpecificRecord>(historyId, null, timestampMillis, new RecordHeaders()
          .add(FAMILY_HEADER, familyId).add(PROGRESS_HEADER, StoreKeys.longBytes(starts[0]))));
    }
  }

  /** Publishes and counts a dead letter; a split checker that is not the primary one drops it (the primary one sees it too). */
  private void deadLetter(Record<String, SpecificRecord> record, String reasonClass, String reason) {
    if (!lane.primary()) {
      return;
    }
    RecordMetadata m = context.recordMetadata().orElse(null);
    ByteBuffer raw = record.value() == null ? null : ByteBuffer.wrap(RecordCodec.encode(record.value()));
    DeadLetter dl = new DeadLetter(raw, m == null ? "" : m.topic(), m == null ? -1 : m.partition(),
        m == null ? -1L : m.offset(), reason);
    context.forward(new Record<>(record.key(), dl, record.timestamp()));
    metrics.deadLetter(reasonClass);
  }
}
