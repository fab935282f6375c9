package io.isowatch.stream.check;

import io.isowatch.schemas.SourceWatermark;
import io.isowatch.schemas.serde.RecordCodec;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The read clock of one history in a checker task: how far each partition of the events topic has
 * progressed in the history's event time, as the session assembler tasks report it ({@link
 * SourceWatermark}), reduced to a low watermark for {@link
 * io.isowatch.checker.window.WindowChecker#advance(long, boolean)}. Per history, because histories
 * are different databases with clocks of their own: a partition that has read one history up to
 * noon may still deliver another's records of the morning.
 *
 * <p>Per partition it keeps the largest time received (a restarted assembler task starts again from
 * the records it reads, so a smaller time than one kept says nothing new) and the latest idle flag.
 * The <b>low watermark</b> is {@link Long#MIN_VALUE} until every partition has reported for the
 * history (the count is the largest of the configured count, the counts the watermarks carry, and
 * one past the largest partition seen); then it is the least time of all partitions, idle ones
 * included: an idle partition is read to its end now, but records that reach it later may carry any
 * event time (a producer that is behind, a replay), so idleness never lets the checker declare a
 * writer absent. A partition that carries no session of the history therefore holds its reads back
 * until they are given up on. {@link #allIdle()} says the history's input is exhausted for now. A
 * partition whose assembler task does not run sends nothing and holds reads back until the
 * checker's hold limit ({@link #stalledSinceMs()}).
 *
 * <p>State: one entry per (history, partition) in the stage's changelogged store {@link
 * CheckerStage#SOURCES_STORE} (key: the history's {@link StoreKeys} prefix and the partition, 4
 * bytes big-endian; value: the single-object encoding of the merged watermark), so that a restarted
 * task resumes from exactly the clock it had. Not thread-safe.
 */
final class SourceClock {
  private final String historyId;
  private final KeyValueStore<Bytes, byte[]> store;
  private final int configuredPartitions;
  private final Map<Integer, SourceWatermark> sources = new TreeMap<>();
  private long low = Long.MIN_VALUE;
  private boolean allIdle;
  private long stalledSinceMs;

  private SourceClock(String historyId, KeyValueStore<Bytes, byte[]> store, int configuredPartitions, long nowMs) {
    this.historyId = historyId;
    this.store = store;
    this.configuredPartitions = configuredPartitions;
    this.stalledSinceMs = nowMs;
  }

  /**
   * @param historyId the history
   * @param store the stage's {@link CheckerStage#SOURCES_STORE}
   * @param configuredPartitions the events topic's partition count the monitor read at start, 0 if
   *     not known
   * @param nowMs wall-clock time, ms: the hold limit runs from here
   * @return a clock of a history no partition has reported for yet
   */
  static SourceClock fresh(String historyId, KeyValueStore<Bytes, byte[]> store, int configuredPartitions,
      long nowMs) {
    return new SourceClock(historyId, store, configuredPartitions, nowMs);
  }

  /**
   * Loads every history's clock from the store.
   *
   * @param store the stage's {@link CheckerStage#SOURCES_STORE}
   * @param configuredPartitions as for {@link #fresh}
   * @param nowMs wall-clock time, ms: the hold limits run from here
   * @return the clocks by historyId
   */
  static Map<String, SourceClock> loadAll(KeyValueStore<Bytes, byte[]> store, int configuredPartitions, long nowMs) {
    Map<String, SourceClock> clocks = new HashMap<>();
    try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        SourceWatermark w = (SourceWatermark) RecordCodec.decode(kv.value).record();
        if (w != null) {
          clocks.computeIfAbsent(w.getHistoryId(), h -> new SourceClock(h, store, configuredPartitions, nowMs))
              .sources.put(w.getSourcePartition(), w);
        }
      }
    }
    clocks.values().forEach(SourceClock::recompute);
    return clocks;
  }

  /**
   * Takes one watermark of this history in.
   *
   * @param w a watermark from an assembler task
   * @param nowMs wall-clock time, ms, when the low watermark moves
   * @return whether the low watermark moved or every partition became idle
   */
  boolean accept(SourceWatermark w, long nowMs) {
    int p = w.getSourcePartition();
    SourceWatermark prev = sources.get(p);
    long time = prev == null ? w.getTime() : Math.max(prev.getTime(), w.getTime());
    int count = prev == null ? w.getSourcePartitions() : Math.max(prev.getSourcePartitions(), w.getSourcePartitions());
    SourceWatermark merged = new SourceWatermark(historyId, p, count, time, w.getIdle());
    if (merged.equals(prev)) {
      return false;
    }
    sources.put(p, merged);
    store.put(StoreKeys.withInt(StoreKeys.prefix(historyId), p), RecordCodec.encode(merged));
    long oldLow = low;
    boolean wasIdle = allIdle;
    recompute();
    if (low > oldLow) {
      stalledSinceMs = nowMs;
    }
    return low != oldLow || (allIdle && !wasIdle);
  }

  /** @return the low watermark, µs ({@link Long#MIN_VALUE} before every partition reported) */
  long low() {
    return low;
  }

  /** @return whether every partition has reported and every one is idle (read to its end) */
  boolean allIdle() {
    return allIdle;
  }

  /** @return wall-clock time, ms, since which the low watermark has not moved (or of the last give-up) */
  long stalledSinceMs() {
    return stalledSinceMs;
  }

  /** Restarts the hold limit, after the held reads were given up on at {@code nowMs}. */
  void gaveUp(long nowMs) {
    stalledSinceMs = nowMs;
  }

  private int expectedPartitions() {
    int n = configuredPartitions;
    for (SourceWatermark w : sources.values()) {
      n = Math.max(n, Math.max(w.getSourcePartitions(), w.getSourcePartition() + 1));
    }
    return n;
  }

  private void recompute() {
    boolean complete = !sources.isEmpty() && sources.size() >= expectedPartitions();
    long least = Long.MAX_VALUE;
    boolean idle = true;
    for (SourceWatermark w : sources.values()) {
      least = Math.min(least, w.getTime());
      idle &= w.getIdle();
    }
    allIdle = complete && idle;
    low = complete ? least : Long.MIN_VALUE;
  }
}
