package io.isowatch.stream.assembly;

import static io.isowatch.stream.assembly.AssemblerStores.FORGET;
import static io.isowatch.stream.assembly.AssemblerStores.GAP;
import static io.isowatch.stream.assembly.AssemblerStores.OPEN_TIMEOUT;
import static io.isowatch.stream.assembly.AssemblerStores.deadline;
import static io.isowatch.stream.assembly.AssemblerStores.display;
import static io.isowatch.stream.assembly.AssemblerStores.eventKey;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.EventTimes;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.SourceWatermark;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.WireFormat;
import io.isowatch.stream.assembly.SessionState.Pending;
import io.isowatch.stream.assembly.TxnState.Phase;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.config.MonitorConfig.Limits;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The session assembler (Kafka Streams Processor API, "Processor API" and "Punctuation" in the
 * developer guide): reads the raw records of the events topic, key {@code historyId/sessionId},
 * and forwards, keyed by historyId, each transaction as one {@link Transaction} in program order
 * ({@code po}) and session order ({@code so}), and every record it cannot use as a
 * {@link DeadLetter} (raw bytes, topic, partition, offset, reason {@code "<class>: <detail>"}),
 * counted by {@link MonitorMetrics#deadLetter(String)} under its class.
 *
 * <p>Time is Kafka Streams' stream time: record timestamps (which producers set to the event time)
 * for record-triggered work, and a {@link PunctuationType#STREAM_TIME} punctuation every
 * {@link #PUNCTUATION_INTERVAL} for the timers, so that runs are deterministic and a replay gives
 * the same output. Timers fire at the first punctuation at or after their due time. A forwarded
 * transaction's record timestamp is its end time in ms (0 if before the epoch), the clock of the
 * checker stage; a dead letter's is the input record's, or the punctuation's.
 *
 * <p>Rules, with the dead-letter reason classes:
 * <ul>
 *   <li>A value longer than {@link Limits#maxRecordBytes()}, before it is decoded:
 *       {@code oversized-record} ({@link InputCheck}).
 *   <li>Bytes that are not a single-object {@code TxnEvent} or {@code Transaction} (nor, when the
 *       application's properties name a schema registry, one in the registry's wire format):
 *       {@code empty}, {@code truncated}, {@code bad-marker}, {@code unknown-fingerprint},
 *       {@code bad-body} ({@link RecordCodec}), {@code unknown-schema} ({@link
 *       io.isowatch.schemas.serde.RegistryFormat}), {@code wrong-type}.
 *   <li>Stateless checks ({@link InputCheck}): {@code bad-field}, {@code oversized-field},
 *       {@code key-mismatch}, {@code negative-sequence}, {@code bad-event},
 *       {@code too-many-operations}.
 *   <li>Events of a transaction are kept until its COMMIT or ABORT (opIndex n+1) and all its
 *       operations 1..n have arrived, in any order; BEGIN (opIndex 0) is optional. A COMMIT whose
 *       operations are missing waits for them like a sequence gap waits, up to the open timeout.
 *   <li>A complete transaction is emitted when it is the next txnSeq of its session (sessions start
 *       at txnSeq 0); complete successors wait for it and are released in txnSeq order. Whole
 *       {@code Transaction} records are complete on arrival and follow the same order.
 *   <li>A record identical to one held (same txnId and opIndex and bytes, or a whole transaction
 *       whose bytes have the SHA-256 of the one held) is ignored and counted by {@link MonitorMetrics#duplicateIgnored()}; a
 *       different one is {@code conflicting-duplicate}. Emitted transactions are held for
 *       {@link MonitorConfig#duplicateRetention()} for this.
 *   <li>{@code op-after-end}: an operation past the transaction's end, or an end before an
 *       operation already seen; {@code conflicting-end}: a second end at another opIndex;
 *       {@code late-event}: a record of a transaction already emitted (or of a txnSeq the session
 *       has passed) that is not a held duplicate; {@code txn-id-reused}: a txnId already seen in
 *       another session (detected when both sessions are in the same task, that is the same
 *       partition of the events topic); {@code duplicate-sequence}: two transactions with one
 *       txnSeq in a session; {@code too-many-open-transactions}; {@code too-many-sessions}: a
 *       transaction of a new session when this task holds {@link Limits#maxSessionsPerHistory()}
 *       sessions of its history.
 *   <li>{@code sequence-gap}: when a complete transaction has waited
 *       {@link MonitorConfig#sequenceGrace()} for a txnSeq no record has claimed, the missing
 *       txnSeqs are reported (raw null, offset -1) and the session moves on.
 *   <li>A transaction without a complete end {@link MonitorConfig#openTimeout()} after its first
 *       record is emitted with status UNKNOWN, end time the punctuation time, holding its operations
 *       from opIndex 1 up to the first missing one; if events past a missing one are left out, one
 *       {@code incomplete-transaction} dead letter (raw null, offset -1) lists them.
 * </ul>
 *
 * <p><b>Watermarks.</b> Besides transactions, the task sends its partition's progress in each
 * history's event time as a {@link SourceWatermark}, keyed by the historyId like the history's
 * transactions, so that the checker stage can tell a writer that is late from one that is absent:
 * {@code time} is the largest event time of the history's records accepted from the partition (a
 * {@code TxnEvent}'s time, a whole transaction's end time; the record's timestamp is that time in
 * ms). Per history, since histories are different databases with clocks of their own: a partition
 * that has read one history up to noon may still hold another's records of the morning. {@code idle}
 * says that the task has read nothing for {@link MonitorConfig.Sources#idleAfter()} of wall-clock
 * time and holds no transaction back (none open, no session waiting for a txnSeq), so the
 * partition is read to its end. A wall-clock punctuation every {@link #WATERMARK_INTERVAL} sends
 * each history's watermark when it changed; the first record read after idle watermarks sends busy
 * ones before anything else. The frontiers are not stored: after a restart they start again from the
 * records read, and the checker keeps the largest time it received.
 *
 * <p>State: the five persistent, changelogged stores of {@link AssemblerStores}; memory and store
 * size are bounded by {@link Limits} and the retention and timeouts.
 */
public final class SessionAssembler implements Processor<String, byte[], String, SpecificRecord> {
  /** How often, in stream time, the timers are checked. */
  public static final Duration PUNCTUATION_INTERVAL = Duration.ofSeconds(1);
  /** How often, in wall-clock time, the partition's watermark is sent when it changed. */
  public static final Duration WATERMARK_INTERVAL = Duration.ofMillis(200);

  private static final byte[] NOTHING = new byte[0];
  private static final int LISTED = 10;

  private final MonitorConfig config;
  private final MonitorMetrics metrics;
  private final Limits limits;
  private ProcessorContext<String, SpecificRecord> context;
  private KeyValueStore<String, byte[]> sessions;
  private KeyValueStore<String, byte[]> txns;
  private KeyValueStore<String, byte[]> events;
  private KeyValueStore<String, byte[]> assembled;
  private KeyValueStore<String, byte[]> deadlines;
  /** Whole transactions emitted on arrival, remembered for the duplicate retention. */
  private WholeRetention wholes;
  private final MessageDigest sha256;
  /** How the events topic is framed: single-object, or a registry's when the application's properties name one. */
  private WireFormat format = WireFormat.singleObject();
  /**
   * The open transactions this instance holds in memory, by txnId: their state and their events,
   * so that an event costs no read of the transactions or events store and the transaction is
   * assembled without reading its events back. The stored state of an open transaction is the one
   * written when its first event arrived (counters at zero); the events store has every event. Empty
   * after {@link #init} (a restart, or a task moved here): an open transaction not held is loaded
   * from the stores at its next event or timer. Removed when the transaction completes.
   */
  private final Map<String, OpenTxn> open = new HashMap<>();
  /** Per history, the largest event time of its records accepted from this task's partition, µs. */
  private final Map<String, Long> frontiers = new HashMap<>();
  /** Per history, the watermark last sent. */
  private final Map<String, SourceWatermark> sent = new HashMap<>();
  /** Wall-clock time of the last record read, ms (the task's start before any). */
  private long lastRecordWallMs;
  /** Whether the watermarks last sent said idle. */
  private boolean idle;

  /** One event as received: its bytes, and decoded. */
  private record Received(byte[] raw, TxnEvent event) {}

  /** An open transaction in memory: its current state and its events by opIndex. */
  private record OpenTxn(TxnState state, TreeMap<Integer, Received> events) {}

  private SessionAssembler(MonitorConfig config, MonitorMetrics metrics) {
    this.config = config;
    this.metrics = metrics;
    this.limits = config.limits();
    try {
      this.sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256 (MessageDigest documentation)", e);
    }
  }

  /**
   * @param config topics, grace periods, timeouts and limits
   * @param metrics where dead letters and duplicates are counted
   * @return a supplier of assemblers (input: String key, raw byte[] value; output: String key
   *     historyId or the input key, {@link Transaction} or {@link DeadLetter}) declaring the five
   *     stores of {@link AssemblerStores}
   */
  public static ProcessorSupplier<String, byte[], String, SpecificRecord> supplier(MonitorConfig config,
      MonitorMetrics metrics) {
    return new ProcessorSupplier<>() {
      @Override
      public Processor<String, byte[], String, SpecificRecord> get() {
        return new SessionAssembler(config, metrics);
      }

      @Override
      public Set<StoreBuilder<?>> stores() {
        return AssemblerStores.builders();
      }
    };
  }

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    open.clear(); // Kafka Streams re-initialises a revived task's processors after its stores were restored
    sessions = context.getStateStore(AssemblerStores.SESSIONS);
    txns = context.getStateStore(AssemblerStores.TRANSACTIONS);
    events = context.getStateStore(AssemblerStores.EVENTS);
    assembled = context.getStateStore(AssemblerStores.ASSEMBLED);
    deadlines = context.getStateStore(AssemblerStores.DEADLINES);
    format = WireFormat.of(context.appConfigs());
    wholes = new WholeRetention(deadlines);
    wholes.load();
    context.schedule(PUNCTUATION_INTERVAL, PunctuationType.STREAM_TIME, this::punctuate);
    frontiers.clear();
    sent.clear();
    idle = false;
    lastRecordWallMs = context.currentSystemTimeMs();
    context.schedule(WATERMARK_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::sendWatermark);
  }

  @Override
  public void close() {
    format.close();
  }

  @Override
  public void process(Record<String, byte[]> record) {
    lastRecordWallMs = context.currentSystemTimeMs();
    if (idle) {
      idle = false;
      frontiers.forEach(this::forwardWatermark); // busy again, before anything this record may release
    }
    Rejection bad = InputCheck.size(record.value(), limits);
    if (bad != null) {
      deadLetter(record.key(), record.value(), bad, record.timestamp());
      return;
    }
    RecordCodec.Decoded decoded = format.decode(config.eventsTopic(), record.value());
    if (decoded.record() == null) {
      bad = new Rejection(decoded.reasonClass(), decoded.error());
    } else if (decoded.record() instanceof TxnEvent e) {
      bad = onEvent(singleObject(record, e), e);
      if (bad == null) {
        frontiers.merge(e.getHistoryId(), EventTimes.micros(e.getTime()), Math::max);
      }
    } else if (decoded.record() instanceof Transaction t) {
      bad = onTransaction(singleObject(record, t), t);
      if (bad == null) {
        frontiers.merge(t.getHistoryId(), EventTimes.micros(t.getEndTime()), Math::max);
      }
    } else {
      bad = new Rejection("wrong-type", "a " + decoded.record().getSchema().getName()
          + " record on the events topic, which carries TxnEvent and Transaction records");
    }
    if (bad != null) {
      deadLetter(record.key(), record.value(), bad, record.timestamp());
    }
  }

  /**
   * @return {@code record}, its value re-encoded in single-object encoding if it came in a
   *     registry's wire format: the stores, duplicate detection and digests work on single-object
   *     bytes whatever the producer's format
   */
  private static Record<String, byte[]> singleObject(Record<String, byte[]> record, SpecificRecord decoded) {
    byte[] v = record.value();
    return (v[0] & 0xff) == 0xC3 ? record : record.withValue(RecordCodec.encode(decoded));
  }

  private Rejection onEvent(Record<String, byte[]> record, TxnEvent e) {
    Rejection bad = InputCheck.event(record.key(), e, limits);
    if (bad != null) {
      return bad;
    }
    String session = AssemblerStores.sessionKey(e.getHistoryId(), e.getSessionId());
    String txnId = e.getTxnId();
    long now = record.timestamp();
    OpenTxn known = held(txnId);
    TxnState txn = known != null ? known.state() : stored(txnId);
    if (txn == null) {
      byte[] stored = sessions.get(session);
      SessionState state = SessionState.fromBytes(stored);
      bad = admit(state, stored == null, e.getHistoryId(), session, txnId, e.getTxnSeq());
      if (bad != null) {
        return bad;
      }
      txn = new TxnState();
      txn.session = session;
      txn.txnSeq = e.getTxnSeq();
      txn.firstSeen = now;
      txns.put(txnId, txn.toBytes());
      known = new OpenTxn(txn, new TreeMap<>());
      open.put(txnId, known);
      state.pending.put(txn.txnSeq, new Pending(txnId, false));
      sessions.put(session, state.toBytes());
      deadlines.put(deadline(OPEN_TIMEOUT, plus(now, config.openTimeout()), txnId), NOTHING);
    } else {
      bad = sameTransaction(txn, session, txnId, e.getTxnSeq());
      if (bad != null) {
        return bad;
      }
      String at = e.getKind() + " at opIndex " + e.getOpIndex() + " of " + txnId;
      if (txn.whole) {
        return new Rejection("conflicting-duplicate", at + ": the transaction arrived as a whole Transaction record");
      }
      byte[] first;
      if (known != null) {
        Received r = known.events().get(e.getOpIndex());
        first = r == null ? null : r.raw();
      } else {
        first = events.get(eventKey(txnId, e.getOpIndex()));
      }
      if (first != null) {
        if (Arrays.equals(first, record.value())) {
          metrics.duplicateIgnored();
          return null;
        }
        return new Rejection("conflicting-duplicate", at + " differs from the event received first at that opIndex");
      }
      bad = txn.phase == Phase.OPEN ? order(at, e, txn) : afterEnd(at, e, txn);
      if (bad != null) {
        return bad;
      }
    }
    events.put(eventKey(txnId, e.getOpIndex()), record.value());
    known.events().put(e.getOpIndex(), new Received(record.value(), e));
    count(txn, e);
    if (txn.allOperationsIn()) {
      deadlines.delete(deadline(OPEN_TIMEOUT, plus(txn.firstSeen, config.openTimeout()), txnId));
      complete(txnId, txn, assemble(txnId, txn, now).transaction(), now);
    }
    return null;
  }

  /** Counts event {@code e} of an open transaction in its state. */
  private static void count(TxnState txn, TxnEvent e) {
    switch (e.getKind()) {
      case BEGIN:
        break;
      case COMMIT:
      case ABORT:
        txn.endIndex = e.getOpIndex();
        txn.aborted = e.getKind() == EventKind.ABORT;
        break;
      default:
        txn.opsReceived++;
        txn.maxOpIndex = Math.max(txn.maxOpIndex, e.getOpIndex());
    }
  }

  /**
   * @return the open transaction {@code txnId} in memory, loaded from the stores (its state, and its
   *     counters recounted from its stored events) if this instance does not hold it yet; null if it
   *     is not open
   */
  private OpenTxn held(String txnId) {
    OpenTxn known = open.get(txnId);
    if (known != null) {
      return known;
    }
    TxnState stored = TxnState.fromBytes(txns.get(txnId));
    if (stored == null || stored.phase != Phase.OPEN) {
      return null;
    }
    TreeMap<Integer, Received> received = new TreeMap<>();
    try (KeyValueIterator<String, byte[]> it =
        events.range(AssemblerStores.firstEventKey(txnId), AssemblerStores.lastEventKey(txnId))) {
      while (it.hasNext()) {
        byte[] raw = it.next().value;
        TxnEvent e = (TxnEvent) RecordCodec.decode(raw).record();
        received.put(e.getOpIndex(), new Received(raw, e));
        count(stored, e);
      }
    }
    known = new OpenTxn(stored, received);
    open.put(txnId, known);
    return known;
  }

  private Rejection onTransaction(Record<String, byte[]> record, Transaction t) {
    Rejection bad = InputCheck.transaction(record.key(), t, limits);
    if (bad != null) {
      return bad;
    }
    String session = AssemblerStores.sessionKey(t.getHistoryId(), t.getSessionId());
    String txnId = t.getTxnId();
    TxnState txn = stored(txnId);
    if (txn != null) {
      bad = sameTransaction(txn, session, txnId, t.getTxnSeq());
      if (bad != null) {
        return bad;
      }
      boolean identical = txn.digest != null ? Arrays.equals(txn.digest, digest(record.value()))
          : Arrays.equals(assembled.get(txnId), record.value());
      if (identical) {
        metrics.duplicateIgnored();
        return null;
      }
      return new Rejection("conflicting-duplicate", "transaction " + txnId + " arrived before "
          + (txn.whole ? "as a different Transaction record" : "as events, which do not assemble to this record"));
    }
    byte[] stored = sessions.get(session);
    SessionState state = SessionState.fromBytes(stored);
    bad = admit(state, stored == null, t.getHistoryId(), session, txnId, t.getTxnSeq());
    if (bad != null) {
      return bad;
    }
    txn = new TxnState();
    txn.session = session;
    txn.txnSeq = t.getTxnSeq();
    txn.whole = true;
    txn.firstSeen = record.timestamp();
    txn.digest = digest(record.value());
    settle(txnId, txn, state, t, record.value(), record.timestamp());
    return null;
  }

  /**
   * @return the state of transaction {@code txnId} in the stores: a whole one emitted on arrival
   *     and remembered ({@link WholeRetention}), or one in the transactions store; null if neither
   */
  private TxnState stored(String txnId) {
    WholeRetention.Entry e = wholes.find(txnId);
    if (e == null) {
      return TxnState.fromBytes(txns.get(txnId));
    }
    TxnState txn = new TxnState();
    txn.session = e.session();
    txn.txnSeq = e.txnSeq();
    txn.phase = Phase.EMITTED;
    txn.whole = true;
    txn.digest = e.digest();
    return txn;
  }

  /**
   * A new transaction may join its session: its txnSeq is ahead, free, and there is room; for a
   * session this task has no state for, there is room in its history too, and the session is
   * counted in it (the caller then stores the session).
   */
  private Rejection admit(SessionState state, boolean newSession, String historyId, String session, String txnId,
      long txnSeq) {
    if (txnSeq < state.nextSeq) {
      return new Rejection("late-event", "transaction " + txnId + " has txnSeq " + txnSeq + " but session "
          + display(session) + " has moved on to txnSeq " + state.nextSeq);
    }
    Pending other = state.pending.get(txnSeq);
    if (other != null) {
      return new Rejection("duplicate-sequence", "transaction " + txnId + " claims txnSeq " + txnSeq
          + " of session " + display(session) + ", which transaction " + other.txnId() + " holds");
    }
    if (state.pending.size() >= limits.maxOpenTransactionsPerSession()) {
      return new Rejection("too-many-open-transactions", "session " + display(session) + " has "
          + state.pending.size() + " transactions open or waiting, the limit; transaction " + txnId + " refused");
    }
    if (newSession) {
      String history = AssemblerStores.historyKey(historyId);
      byte[] count = sessions.get(history);
      int known = count == null ? 0 : ByteBuffer.wrap(count).getInt();
      if (known >= limits.maxSessionsPerHistory()) {
        return new Rejection("too-many-sessions", "history " + historyId + " has " + known
            + " sessions in this task, the limit; session " + display(session) + " of transaction " + txnId + " refused");
      }
      sessions.put(history, ByteBuffer.allocate(Integer.BYTES).putInt(known + 1).array());
    }
    return null;
  }

  private static Rejection sameTransaction(TxnState txn, String session, String txnId, long txnSeq) {
    if (!txn.session.equals(session)) {
      return new Rejection("txn-id-reused", "transaction " + txnId + " belongs to session "
          + display(txn.session) + ", not " + display(session));
    }
    if (txn.txnSeq != txnSeq) {
      return new Rejection("conflicting-duplicate", "transaction " + txnId + " has txnSeq " + txn.txnSeq
          + ", this record says " + txnSeq);
    }
    return null;
  }

  /** Checks a new event of an open transaction against the end and operations already seen. */
  private static Rejection order(String at, TxnEvent e, TxnState txn) {
    int i = e.getOpIndex();
    boolean end = e.getKind() == EventKind.COMMIT || e.getKind() == EventKind.ABORT;
    if (end && txn.endIndex >= 0) {
      return new Rejection("conflicting-end", at + ": the transaction already ended with "
          + endKind(txn) + " at opIndex " + txn.endIndex);
    }
    if (end && i <= txn.maxOpIndex) {
      return new Rejection("op-after-end", at + ": an operation at opIndex " + txn.maxOpIndex
          + " was already received");
    }
    if (!end && e.getKind() != EventKind.BEGIN && txn.endIndex >= 0 && i > txn.endIndex) {
      return new Rejection("op-after-end", at + " comes after its " + endKind(txn) + " at opIndex " + txn.endIndex);
    }
    return null;
  }

  /** Rejects a new event of a transaction already assembled. */
  private static Rejection afterEnd(String at, TxnEvent e, TxnState txn) {
    if (txn.timedOut) {
      return new Rejection("late-event", at + " arrives after the transaction was emitted with status UNKNOWN at its open timeout");
    }
    if (e.getOpIndex() > txn.endIndex) {
      return new Rejection("op-after-end", at + " comes after its " + endKind(txn) + " at opIndex " + txn.endIndex);
    }
    return new Rejection("late-event", at + " arrives after the transaction was assembled");
  }

  private static String endKind(TxnState txn) {
    return txn.aborted ? "ABORT" : "COMMIT";
  }

  /**
   * A transaction built from the held events.
   *
   * @param transaction the transaction
   * @param missing the first opIndex in 1..end-1 not held, or -1 if none
   * @param left the opIndexes held past {@code missing}, left out of {@code transaction}
   */
  private record Assembly(Transaction transaction, int missing, List<Integer> left) {}

  /**
   * Builds the transaction from its held events: operations from opIndex 1 up to the first missing
   * one; status from the end if nothing is missing, UNKNOWN otherwise. Times in microseconds.
   */
  private Assembly assemble(String txnId, TxnState txn, long nowMs) {
    List<Operation> ops = new ArrayList<>();
    List<Integer> left = new ArrayList<>();
    TxnEvent begin = null;
    TxnEvent end = null;
    TxnEvent first = null;
    Source source = null;
    int missing = -1;
    for (TxnEvent e : heldEvents(txnId)) {
      if (first == null || e.getTime().isBefore(first.getTime())) {
        first = e;
      }
      if (source == null) {
        source = e.getSource();
      }
      switch (e.getKind()) {
        case BEGIN -> begin = e;
        case COMMIT, ABORT -> {
          end = e;
          if (missing >= 0) {
            left.add(e.getOpIndex());
          }
        }
        default -> {
          if (missing < 0 && e.getOpIndex() == ops.size() + 1) {
            ops.add(new Operation(OpKind.valueOf(e.getKind().name()), e.getKey(), e.getValue()));
          } else {
            if (missing < 0) {
              missing = ops.size() + 1;
            }
            left.add(e.getOpIndex());
          }
        }
      }
    }
    if (missing < 0 && end != null && ops.size() + 1 < end.getOpIndex()) {
      missing = ops.size() + 1;
      left.add(end.getOpIndex());
    }
    boolean ended = missing < 0 && end != null;
    if (ended && end.getSource() != null) {
      source = end.getSource();
    }
    TxnStatus status = !ended ? TxnStatus.UNKNOWN
        : end.getKind() == EventKind.COMMIT ? TxnStatus.COMMITTED : TxnStatus.ABORTED;
    Instant beginTime = begin != null ? begin.getTime() : first.getTime();
    Instant endTime = ended ? end.getTime() : Instant.ofEpochMilli(nowMs);
    Transaction t = new Transaction(first.getHistoryId(), first.getSessionId(), txnId, txn.txnSeq, status, ops,
        beginTime, endTime, source);
    return new Assembly(t, missing, left);
  }

  /**
   * @return the events held for the open transaction {@code txnId}, in opIndex order; the
   *     transaction leaves {@link #open}
   */
  private List<TxnEvent> heldEvents(String txnId) {
    OpenTxn known = held(txnId);
    open.remove(txnId);
    List<TxnEvent> out = new ArrayList<>();
    if (known != null) {
      known.events().values().forEach(r -> out.add(r.event()));
    }
    return out;
  }

  /** Marks {@code txn} complete with {@code t} and releases what its session can emit. */
  private void complete(String txnId, TxnState txn, Transaction t, long nowMs) {
    byte[] encoded = RecordCodec.encode(t);
    txn.digest = digest(encoded);
    settle(txnId, txn, SessionState.fromBytes(sessions.get(txn.session)), t, encoded, nowMs);
  }

  /**
   * Marks the complete transaction {@code txn} pending in its session and releases what the session
   * can emit. Its record ({@code encoded}) is stored only if it must wait for an earlier txnSeq; one
   * released at once costs a single write of its state.
   */
  private void settle(String txnId, TxnState txn, SessionState state, Transaction t, byte[] encoded, long nowMs) {
    txn.phase = Phase.COMPLETE;
    state.pending.put(txn.txnSeq, new Pending(txnId, true));
    if (txn.txnSeq != state.nextSeq) {
      assembled.put(txnId, encoded);
      txns.put(txnId, txn.toBytes());
      release(txn.session, state, null, null, nowMs);
    } else {
      release(txn.session, state, t, txn, nowMs);
    }
  }

  /** @return the SHA-256 of {@code bytes}, which tells an identical copy of a transaction's record */
  private byte[] digest(byte[] bytes) {
    return sha256.digest(bytes);
  }

  /**
   * Emits the session's complete transactions from its next txnSeq on, then starts, keeps or stops
   * the gap timer, and stores the session.
   *
   * @param fresh a transaction just completed and not stored, to forward without decoding it again;
   *     may be null
   * @param freshState its state, not stored either; null when {@code fresh} is
   */
  private void release(String session, SessionState state, Transaction fresh, TxnState freshState, long nowMs) {
    for (Pending p = state.pending.get(state.nextSeq); p != null && p.complete(); p = state.pending.get(state.nextSeq)) {
      boolean isFresh = fresh != null && fresh.getTxnId().equals(p.txnId());
      Transaction t;
      TxnState txn;
      if (isFresh) {
        t = fresh;
        txn = freshState;
      } else {
        t = (Transaction) RecordCodec.decode(assembled.get(p.txnId())).record();
        assembled.delete(p.txnId());
        txn = TxnState.fromBytes(txns.get(p.txnId()));
      }
      // the checker measures its read grace in stream time: the record carries the end's event time
      context.forward(new Record<>(t.getHistoryId(), (SpecificRecord) t, Math.max(0, t.getEndTime().toEpochMilli())));
      long forgetAt = plus(nowMs, config.duplicateRetention());
      if (isFresh && txn.whole) {
        // never stored: remembered in a chunk of its kind rather than by a state and a timer of its own
        wholes.add(new WholeRetention.Entry(p.txnId(), session, txn.txnSeq, forgetAt, txn.digest));
      } else {
        txn.phase = Phase.EMITTED;
        txn.emittedAt = nowMs;
        txns.put(p.txnId(), txn.toBytes());
        deadlines.put(deadline(FORGET, forgetAt, p.txnId()), NOTHING);
      }
      state.pending.remove(state.nextSeq);
      state.nextSeq++;
    }
    if (state.blockedByGap()) {
      if (state.gapSince < 0 || state.gapSeq != state.nextSeq) {
        stopGapTimer(session, state);
        state.gapSince = nowMs;
        state.gapSeq = state.nextSeq;
        deadlines.put(deadline(GAP, plus(nowMs, config.sequenceGrace()), session), NOTHING);
      }
    } else {
      stopGapTimer(session, state);
    }
    sessions.put(session, state.toBytes());
  }

  private void stopGapTimer(String session, SessionState state) {
    if (state.gapSince >= 0) {
      deadlines.delete(deadline(GAP, plus(state.gapSince, config.sequenceGrace()), session));
      state.gapSince = -1;
      state.gapSeq = -1;
    }
  }

  /**
   * The wall-clock punctuation: sends each history's watermark when its time or the partition's
   * idleness changed since the last one sent.
   */
  private void sendWatermark(long wallMs) {
    idle = wallMs - lastRecordWallMs >= config.sources().idleAfter().toMillis() && !holdsTransactions();
    frontiers.forEach((historyId, time) -> {
      SourceWatermark last = sent.get(historyId);
      if (last == null || last.getTime() != time || last.getIdle() != idle) {
        forwardWatermark(historyId, time);
      }
    });
  }

  private void forwardWatermark(String historyId, long time) {
    SourceWatermark w = new SourceWatermark(historyId, context.taskId().partition(),
        config.sources().eventsPartitions(), time, idle);
    sent.put(historyId, w);
    context.forward(new Record<>(historyId, (SpecificRecord) w, Math.max(0, time / 1000)));
  }

  /** @return whether a transaction is open or a session waits for a txnSeq (their timers are set) */
  private boolean holdsTransactions() {
    for (char kind : new char[] {OPEN_TIMEOUT, GAP}) {
      try (KeyValueIterator<String, byte[]> it =
          deadlines.range(AssemblerStores.firstDeadline(kind), AssemblerStores.lastDeadline(kind, Long.MAX_VALUE))) {
        if (it.hasNext()) {
          return true;
        }
      }
    }
    return false;
  }

  /** Fires the timers due at {@code nowMs}: open timeouts, then sequence gaps, then retention. */
  private void punctuate(long nowMs) {
    for (String key : due(OPEN_TIMEOUT, nowMs)) {
      String txnId = AssemblerStores.deadlineId(key);
      OpenTxn known = held(txnId);
      if (known != null) {
        timeOut(txnId, known.state(), nowMs);
      }
    }
    for (String key : due(GAP, nowMs)) {
      String session = AssemblerStores.deadlineId(key);
      SessionState state = SessionState.fromBytes(sessions.get(session));
      if (state.gapSince >= 0 && state.blockedByGap()) {
        skipGap(session, state, nowMs);
      }
    }
    for (String key : due(FORGET, nowMs)) {
      forget(AssemblerStores.deadlineId(key));
    }
    wholes.forgetDue(nowMs);
  }

  /** @return the keys of the timers of {@code kind} due at or before {@code nowMs}, now deleted */
  private List<String> due(char kind, long nowMs) {
    List<String> keys = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it =
        deadlines.range(AssemblerStores.firstDeadline(kind), AssemblerStores.lastDeadline(kind, nowMs))) {
      it.forEachRemaining(kv -> keys.add(kv.key));
    }
    keys.forEach(deadlines::delete);
    return keys;
  }

  private void timeOut(String txnId, TxnState txn, long nowMs) {
    Assembly a = assemble(txnId, txn, nowMs);
    if (a.missing() >= 0) {
      deadLetter(InputCheck.recordKey(a.transaction().getHistoryId(), a.transaction().getSessionId()), null,
          new Rejection("incomplete-transaction", "transaction " + txnId + " of session " + display(txn.session)
              + " is still incomplete " + config.openTimeout() + " after its first event; opIndex " + a.missing()
              + " never arrived, so it is emitted with status UNKNOWN and operations 1.." + (a.missing() - 1)
              + ", leaving out opIndex " + list(a.left())),
          nowMs);
    }
    txn.timedOut = true;
    complete(txnId, txn, a.transaction(), nowMs);
  }

  private void skipGap(String session, SessionState state, long nowMs) {
    long next = state.pending.firstKey();
    String missing = next - 1 == state.nextSeq ? "txnSeq " + state.nextSeq : "txnSeq " + state.nextSeq + ".." + (next - 1);
    deadLetter(display(session), null, new Rejection("sequence-gap", "session " + display(session)
        + " has no transaction at " + missing + " " + config.sequenceGrace() + " after a later one was complete; moving on to txnSeq " + next),
        nowMs);
    state.nextSeq = next;
    state.gapSince = -1;
    state.gapSeq = -1;
    release(session, state, null, null, nowMs);
  }

  private void forget(String txnId) {
    TxnState txn = TxnState.fromBytes(txns.get(txnId));
    txns.delete(txnId);
    if (txn != null && txn.whole) {
      return; // no events, and its record left the assembled store when it was emitted
    }
    List<String> keys = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it =
        events.range(AssemblerStores.firstEventKey(txnId), AssemblerStores.lastEventKey(txnId))) {
      it.forEachRemaining((KeyValue<String, byte[]> kv) -> keys.add(kv.key));
    }
    keys.forEach(events::delete);
  }

  /**
   * Forwards a dead letter. Topic, partition and offset come from the record being processed; for
   * one raised by a timer they are the events topic, this task's partition and -1.
   */
  private void deadLetter(String key, byte[] raw, Rejection why, long timestampMs) {
    // in a punctuation Kafka Streams gives metadata without a topic (partition and offset -1)
    Optional<RecordMetadata> meta = context.recordMetadata().filter(m -> m.topic() != null);
    DeadLetter letter = new DeadLetter(raw == null ? null : ByteBuffer.wrap(raw),
        meta.map(RecordMetadata::topic).orElse(config.eventsTopic()),
        meta.map(RecordMetadata::partition).orElse(context.taskId().partition()),
        meta.map(RecordMetadata::offset).orElse(-1L),
        why.reason());
    metrics.deadLetter(why.reasonClass());
    context.forward(new Record<>(key, (SpecificRecord) letter, timestampMs));
  }

  private static String list(List<Integer> indexes) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < Math.min(LISTED, indexes.size()); i++) {
      s.append(i == 0 ? "" : ", ").append(indexes.get(i));
    }
    if (indexes.size() > LISTED) {
      s.append(" and ").append(indexes.size() - LISTED).append(" more");
    }
    return s.toString();
  }

  private static long plus(long ms, Duration d) {
    long add = d.toMillis();
    return ms > Long.MAX_VALUE - add ? Long.MAX_VALUE : Math.max(0, ms + add);
  }
}
