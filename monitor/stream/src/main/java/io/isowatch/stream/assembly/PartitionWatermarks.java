package io.isowatch.stream.assembly;

import io.isowatch.schemas.SourceWatermark;
import io.isowatch.stream.config.MonitorConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The progress of the assembler's partition of the events topic, per history, sent as
 * {@link SourceWatermark} records keyed by the historyId (the record's timestamp is the time in
 * ms), so that the checker stage can tell a writer that is late from one that is absent.
 *
 * <p>Per history (histories are different databases with clocks of their own), the frontier is the
 * largest event time in µs of the history's records accepted from the partition: a
 * {@code TxnEvent}'s time, a whole transaction's end time. The partition is idle when nothing was
 * read for {@link MonitorConfig.Sources#idleAfter()} of wall-clock time and no transaction is held
 * back (none open, no session waiting for a txnSeq: {@link Timers#holdTransactions()}).
 *
 * <p>Invariants: a frontier never decreases while the task lives; a watermark is sent for a history
 * only when its time or the idle flag differs from the last one sent for it, at a wall-clock tick,
 * except that the first record read after idle watermarks sends every history's busy watermark
 * before anything that record may release. The frontiers are not stored: a new instance (a restart,
 * a task moved here) starts again from the records it reads, and the checker keeps the largest
 * time it received.
 */
final class PartitionWatermarks {
  private final ProcessorContext<String, SpecificRecord> context;
  private final MonitorConfig.Sources sources;
  private final Timers timers;
  /** Per history, the largest event time of its records accepted from this task's partition, µs. */
  private final Map<String, Long> frontiers = new HashMap<>();
  /** Per history, the watermark last sent. */
  private final Map<String, SourceWatermark> sent = new HashMap<>();
  /** Wall-clock time of the last record read, ms (the task's start before any). */
  private long lastRecordWallMs;
  /** Whether the watermarks last sent said idle. */
  private boolean idle;

  /**
   * @param context the assembler's context: wall clock, task partition, where to forward
   * @param sources the partition count and idle time
   * @param timers the assembler's timers, which tell whether it holds a transaction back
   */
  PartitionWatermarks(ProcessorContext<String, SpecificRecord> context, MonitorConfig.Sources sources,
      Timers timers) {
    this.context = context;
    this.sources = sources;
    this.timers = timers;
    this.lastRecordWallMs = context.currentSystemTimeMs();
  }

  /** A record is being read: the partition is busy, and if it was said idle, every history says so now. */
  void reading() {
    lastRecordWallMs = context.currentSystemTimeMs();
    if (idle) {
      idle = false;
      frontiers.forEach(this::forward); // busy again, before anything this record may release
    }
  }

  /** A record of {@code historyId} with event time {@code timeMicros} (µs) was accepted. */
  void accepted(String historyId, long timeMicros) {
    frontiers.merge(historyId, timeMicros, Math::max);
  }

  /**
   * The wall-clock tick: sends each history's watermark when its time or the partition's idleness
   * changed since the last one sent.
   *
   * @param wallMs the punctuation's wall-clock time, ms
   */
  void tick(long wallMs) {
    idle = wallMs - lastRecordWallMs >= sources.idleAfter().toMillis() && !timers.holdTransactions();
    frontiers.forEach((historyId, time) -> {
      SourceWatermark last = sent.get(historyId);
      if (last == null || last.getTime() != time || last.getIdle() != idle) {
        forward(historyId, time);
      }
    });
  }

  private void forward(String historyId, long time) {
    SourceWatermark w = new SourceWatermark(historyId, context.taskId().partition(),
        sources.eventsPartitions(), time, idle);
    sent.put(historyId, w);
    context.forward(new Record<>(historyId, (SpecificRecord) w, Math.max(0, time / 1000)));
  }
}
