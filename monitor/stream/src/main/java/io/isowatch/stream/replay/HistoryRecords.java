package io.isowatch.stream.replay;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.mapping.StatusMapping;
import io.isowatch.schemas.mapping.TransactionMapping;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;

/**
 * A {@link History} as the records of the events topic (schemas in {@code docs/events.md}): either
 * op-level {@link TxnEvent}s or whole {@link Transaction}s, in the history's transaction order (the
 * order of its file, which interleaves the sessions), each keyed {@code historyId/sessionId}.
 *
 * <p>Shapes. A transaction with {@code n} operations becomes {@code n + 2} events: {@code BEGIN}
 * (opIndex 0), the operations (opIndex 1..n, program order), then {@code COMMIT} or {@code ABORT}
 * (opIndex n + 1); a transaction whose outcome is unknown gets no end event, so the session
 * assembler emits it with status {@code UNKNOWN} after its open timeout. {@code txnSeq} is the
 * transaction's position in its session ({@link History#sessionIndex}); {@code txnId} is {@code
 * historyId/T<label>} when labels are unique in the history, else {@code historyId/T#<index>}. Event time is synthetic:
 * the {@code i}-th event (0-based, over the whole history) happens at {@code start + i * step};
 * a {@code Transaction}'s begin and end times are those its events would have.
 *
 * <p>Values: a register read of the initial value is {@code null}, a list read is the list; a read
 * whose result the history does not know ({@link History#UNKNOWN_VALUE}, or an unknown list) has no
 * representation in the schema and is left out of its transaction; {@link #unknownReadsLeftOut}
 * counts them so that the caller can say so.
 */
public final class HistoryRecords {
  /**
   * A record with its key.
   *
   * @param key {@code historyId/sessionId}
   * @param value a {@link TxnEvent} or a {@link Transaction}
   */
  public record Keyed(String key, SpecificRecord value) {}

  private final History h;
  private final String historyId;
  private final long startMicros;
  private final long stepMicros;
  private final boolean uniqueLabels;
  private int unknownReads;

  /**
   * @param history a history whose transactions are all closed
   * @param historyId the history's id in the records
   * @param start event time of the first event
   * @param step event time between consecutive events, at least 1 µs
   * @throws IllegalArgumentException if {@code step} is below one microsecond
   */
  public HistoryRecords(History history, String historyId, Instant start, Duration step) {
    if (step.toNanos() < 1000) {
      throw new IllegalArgumentException("step must be at least 1 µs, got " + step);
    }
    this.h = history;
    this.historyId = historyId;
    this.startMicros = start.getEpochSecond() * 1_000_000L + start.getNano() / 1000;
    this.stepMicros = step.toNanos() / 1000;
    LongOpenHashSet labels = new LongOpenHashSet();
    boolean unique = true;
    for (int t = 0; t < history.txnCount() && unique; t++) {
      unique = labels.add(history.label(t));
    }
    this.uniqueLabels = unique;
  }

  /**
   * The records of a history replayed now: event times {@code step} apart, the last event (or the
   * last transaction's end) at {@code end}, so that no event time, hence no record timestamp
   * ({@link Replayer}), is later than {@code end}. The brokers see a history that has just
   * happened, not one that will happen.
   *
   * @param history a history whose transactions are all closed
   * @param historyId the history's id in the records
   * @param end event time of the last event, e.g. the time of the call
   * @param step event time between consecutive events, at least 1 µs
   * @return the records
   * @throws IllegalArgumentException if {@code step} is below one microsecond
   */
  public static HistoryRecords endingAt(History history, String historyId, Instant end, Duration step) {
    long events = new HistoryRecords(history, historyId, end, step).events();
    return new HistoryRecords(history, historyId, end.minus(step.multipliedBy(Math.max(0, events - 1))), step);
  }

  /** @return the number of transactions */
  public int transactions() {
    return h.txnCount();
  }

  /** @return the number of events {@link #forEachEvent} gives (before reads are left out) */
  public long events() {
    long n = 0;
    for (int t = 0; t < h.txnCount(); t++) {
      n += h.opEnd(t) - h.opStart(t) + (h.status(t) == TxnStatus.UNKNOWN ? 1 : 2);
    }
    return n;
  }

  /** @return reads left out so far because their result is unknown */
  public int unknownReadsLeftOut() {
    return unknownReads;
  }

  /**
   * @return the {@code txnId} of transaction {@code t} in the records: {@code historyId/T<label>},
   *     or {@code historyId/T#<index>} when labels repeat; qualified by the history, as the
   *     recorder's and the probe's are, because a {@code txnId} must be unique across the
   *     histories one monitor checks (docs/events.md)
   */
  public String txnId(int t) {
    return historyId + (uniqueLabels ? "/T" + h.label(t) : "/T#" + t);
  }

  /**
   * Gives every transaction as op-level events, transaction after transaction.
   *
   * @param sink receives each event with its key
   */
  public void forEachEvent(Consumer<Keyed> sink) {
    long clock = 0;
    for (int t = 0; t < h.txnCount(); t++) {
      String session = h.sessionName(h.sessionOf(t));
      String key = historyId + "/" + session;
      String txnId = txnId(t);
      long seq = h.sessionIndex(t);
      int opIndex = 0;
      sink.accept(new Keyed(key, event(session, txnId, seq, opIndex++, EventKind.BEGIN, null, null, clock++)));
      for (Operation op : operations(t)) {
        EventKind kind = op.getKind() == OpKind.READ ? EventKind.READ
            : op.getKind() == OpKind.WRITE ? EventKind.WRITE : EventKind.APPEND;
        sink.accept(new Keyed(key, event(session, txnId, seq, opIndex++, kind, op.getKey(), op.getValue(), clock++)));
      }
      switch (h.status(t)) {
        case COMMITTED:
          sink.accept(new Keyed(key, event(session, txnId, seq, opIndex, EventKind.COMMIT, null, null, clock++)));
          break;
        case ABORTED:
          sink.accept(new Keyed(key, event(session, txnId, seq, opIndex, EventKind.ABORT, null, null, clock++)));
          break;
        default:
          break;
      }
    }
  }

  /**
   * Gives every transaction as one {@link Transaction} record, in transaction order.
   *
   * @param sink receives each transaction with its key
   */
  public void forEachTransaction(Consumer<Keyed> sink) {
    long clock = 0;
    for (int t = 0; t < h.txnCount(); t++) {
      String session = h.sessionName(h.sessionOf(t));
      List<Operation> ops = operations(t);
      long begin = clock;
      clock += h.opEnd(t) - h.opStart(t) + 1;
      long end = h.status(t) == TxnStatus.UNKNOWN ? clock - 1 : clock++;
      sink.accept(new Keyed(historyId + "/" + session, Transaction.newBuilder()
          .setHistoryId(historyId)
          .setSessionId(session)
          .setTxnId(txnId(t))
          .setTxnSeq(h.sessionIndex(t))
          .setStatus(StatusMapping.toAvro(h.status(t)))
          .setOps(ops)
          .setBeginTime(instant(begin))
          .setEndTime(instant(end))
          .build()));
    }
  }

  private List<Operation> operations(int t) {
    List<Operation> ops = TransactionMapping.operations(h, t);
    unknownReads += h.opEnd(t) - h.opStart(t) - ops.size();
    return ops;
  }

  private TxnEvent event(String session, String txnId, long seq, int opIndex, EventKind kind, String key,
      Object value, long tick) {
    return TxnEvent.newBuilder()
        .setHistoryId(historyId)
        .setSessionId(session)
        .setTxnId(txnId)
        .setTxnSeq(seq)
        .setOpIndex(opIndex)
        .setKind(kind)
        .setKey(key)
        .setValue(value)
        .setTime(instant(tick))
        .build();
  }

  private Instant instant(long tick) {
    long micros = startMicros + tick * stepMicros;
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
  }
}
