package io.isowatch.stream.check;

import io.isowatch.schemas.SourceWatermark;
import io.isowatch.schemas.serde.RecordCodec;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The read clock of one checker task: the progress of every partition of the events topic, as the
 * session assembler tasks report it ({@link SourceWatermark}), reduced to a low watermark and a
 * whether every partition is idle, for {@link io.isowatch.checker.window.WindowChecker#advance(long,
 * boolean)}.
 *
 * <p>Per partition it keeps the largest time received (a restarted assembler task starts again from
 * the records it reads, so a smaller time than one kept says nothing new) and the latest idle flag.
 * The <b>low watermark</b> is {@link Long#MIN_VALUE} until every partition has reported (the count
 * is the largest of the configured count, the counts the watermarks carry, and one past the largest
 * partition seen); then it is the least time of all partitions, idle ones included: an idle
 * partition is read to its end now, but records that reach it later may carry any event time (a
 * producer that is behind, a replay), so idleness never lets the checker declare a writer absent.
 * When every partition is idle ({@link #allIdle()}) the input is exhausted for now, and the
 * checker gives held reads up (counted as unresolved, never published) rather than holding them
 * without end. A partition whose assembler task does not run sends nothing and holds reads back
 * until the checker's hold limit.
 *
 * <p>State: one entry per partition in its own changelogged store (key: the partition, 4 bytes
 * big-endian; value: the single-object encoding of the merged watermark), so that a restarted task
 * resumes from exactly the clock it had. Not thread-safe.
 */
final class SourceClock {
  private final KeyValueStore<Bytes, byte[]> store;
  private final int configuredPartitions;
  private final Map<Integer, SourceWatermark> sources = new TreeMap<>();
  private long low = Long.MIN_VALUE;
  private boolean allIdle;

  /**
   * Loads the clock from its store.
   *
   * @param store the stage's {@link CheckerStage#SOURCES_STORE}
   * @param configuredPartitions the events topic's partition count the monitor read at start, 0 if
   *     not known
   */
  SourceClock(KeyValueStore<Bytes, byte[]> store, int configuredPartitions) {
    this.store = store;
    this.configuredPartitions = configuredPartitions;
    try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        SourceWatermark w = (SourceWatermark) RecordCodec.decode(kv.value).record();
        if (w != null) {
          sources.put(w.getSourcePartition(), w);
        }
      }
    }
    recompute();
  }

  /**
   * Takes one watermark in.
   *
   * @param w a watermark from an assembler task
   * @return whether the low watermark moved or every partition became idle
   */
  boolean accept(SourceWatermark w) {
    int p = w.getSourcePartition();
    SourceWatermark prev = sources.get(p);
    long time = prev == null ? w.getTime() : Math.max(prev.getTime(), w.getTime());
    int count = prev == null ? w.getSourcePartitions() : Math.max(prev.getSourcePartitions(), w.getSourcePartitions());
    SourceWatermark merged = new SourceWatermark(p, count, time, w.getIdle());
    if (merged.equals(prev)) {
      return false;
    }
    sources.put(p, merged);
    store.put(Bytes.wrap(ByteBuffer.allocate(4).putInt(p).array()), RecordCodec.encode(merged));
    long oldLow = low;
    boolean wasIdle = allIdle;
    recompute();
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

  /** @return how many partitions the clock waits for */
  int expectedPartitions() {
    int n = configuredPartitions;
    for (SourceWatermark w : sources.values()) {
      n = Math.max(n, Math.max(w.getSourcePartitions(), w.getSourcePartition() + 1));
    }
    return n;
  }

  /** @return how many of the expected partitions have reported */
  int reportedPartitions() {
    return sources.size();
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
