package io.isowatch.stream.assembly;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.EventTimes;
import io.isowatch.schemas.SourceWatermark;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.debezium.AvroEnvelopes;
import io.isowatch.schemas.debezium.Envelope;
import io.isowatch.schemas.debezium.EnvelopeException;
import io.isowatch.schemas.debezium.JsonEnvelopes;
import io.isowatch.schemas.debezium.OutboxRows;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.RegistryFormat;
import io.isowatch.schemas.serde.WireFormat;
import io.isowatch.stream.config.EventsInput;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.config.MonitorConfig.Limits;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
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
 * <p>With {@link EventsInput#DEBEZIUM_OUTBOX} each record is a Debezium change event of the
 * recorder's outbox table, read by {@link OutboxRows} (JSON, or Avro through the registry by {@link
 * AvroEnvelopes} when the application's properties name one): an insert's transaction is taken as a whole
 * {@code Transaction} record, keyed {@code historyId/sessionId}; tombstones, deletes, updates,
 * snapshot reads, transaction metadata and other tables are counted by {@link
 * MonitorMetrics#debeziumSkipped}; an event that is not an envelope or whose row holds no readable
 * record is a dead letter ({@code bad-envelope}, {@code bad-row}, or the record's own decoding
 * classes below).
 *
 * <p>With {@link EventsInput#DEBEZIUM_CDC} the records are Debezium's change events of a list-append
 * table and its connector's transaction-metadata records ({@link CdcTransactions}): each database
 * transaction, once whole, goes to the checker stage in commit order, once, after the stateless
 * checks of a whole {@code Transaction} record ({@link InputCheck}) but not through the session
 * machinery (each is alone in its session, and the sessions would pile up); an event that cannot be
 * decoded is a dead letter ({@code bad-envelope}, or {@code truncated}, {@code unknown-schema},
 * {@code bad-body} through the registry), and so is a row change that cannot be converted ({@code
 * bad-row}).
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
 *
 * <p><b>Parts.</b> This class is the Processor: it decodes, dispatches and schedules; each job is a
 * class of this package with its invariant in its comment, made anew at {@link #init}:
 * {@link TransactionIntake} (a record's effect on its transaction: open, add, complete, duplicate
 * or reject), {@link OpenTransactions} (the events of open transactions, in memory and stored, and
 * their assembly), {@link SessionOrder} (admission to a session and release in txnSeq order, with
 * the gap timer and the duplicate retention), {@link TimerSweep} (the stream-time punctuation over
 * the {@link Timers} and {@link WholeRetention}), {@link PartitionWatermarks} (the partition's
 * per-history progress and idleness) and {@link DeadLetters} (the rejection path).
 */
public final class SessionAssembler implements Processor<String, byte[], String, SpecificRecord> {
  /** How often, in stream time, the timers are checked. */
  public static final Duration PUNCTUATION_INTERVAL = Duration.ofSeconds(1);
  /** How often, in wall-clock time, the partition's watermark is sent when it changed. */
  public static final Duration WATERMARK_INTERVAL = Duration.ofMillis(200);

  private final MonitorConfig config;
  private final MonitorMetrics metrics;
  /** How the events topic is framed: single-object, or a registry's when the application's properties name one. */
  private WireFormat format = WireFormat.singleObject();
  /**
   * With {@link EventsInput#DEBEZIUM_OUTBOX} or {@link EventsInput#DEBEZIUM_CDC} and a registry in
   * the application's properties: the reader of Avro change events (those starting with byte 0);
   * null otherwise, and JSON events are read either way.
   */
  private AvroEnvelopes avroEnvelopes;
  /** With {@link EventsInput#DEBEZIUM_CDC}: the database transactions being assembled; null otherwise. */
  private CdcTransactions cdc;
  private ProcessorContext<String, SpecificRecord> context;
  private DeadLetters deadLetters;
  private TransactionIntake intake;
  private PartitionWatermarks watermarks;

  private SessionAssembler(MonitorConfig config, MonitorMetrics metrics) {
    this.config = config;
    this.metrics = metrics;
  }

  /**
   * @param config topics, grace periods, timeouts and limits
   * @param metrics where dead letters and duplicates are counted
   * @return a supplier of assemblers (input: String key, raw byte[] value; output: String key
   *     historyId or the input key, {@link Transaction}, {@link SourceWatermark} or
   *     {@link DeadLetter}) declaring the five stores of {@link AssemblerStores}
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
        return AssemblerStores.builders(config.input() == EventsInput.DEBEZIUM_CDC);
      }
    };
  }

  /**
   * Makes the parts over the restored stores (Kafka Streams re-initialises a revived task's
   * processors after its stores were restored, so nothing held in memory survives this) and
   * schedules the stream-time sweep and the wall-clock watermark tick.
   */
  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    KeyValueStore<String, byte[]> txns = context.getStateStore(AssemblerStores.TRANSACTIONS);
    KeyValueStore<String, byte[]> events = context.getStateStore(AssemblerStores.EVENTS);
    KeyValueStore<String, byte[]> assembled = context.getStateStore(AssemblerStores.ASSEMBLED);
    KeyValueStore<String, byte[]> deadlines = context.getStateStore(AssemblerStores.DEADLINES);
    format = WireFormat.of(context.appConfigs());
    if (config.input() != EventsInput.AVRO && context.appConfigs().get(RegistryFormat.URL) != null) {
      avroEnvelopes = new AvroEnvelopes(context.appConfigs());
    }
    if (config.input() == EventsInput.DEBEZIUM_CDC) {
      cdc = new CdcTransactions(context.getStateStore(AssemblerStores.CDC), config.cdcInput(), metrics);
    }
    this.context = context;
    WholeRetention wholes = new WholeRetention(deadlines);
    wholes.load();
    Timers timers = new Timers(deadlines);
    deadLetters = new DeadLetters(context, config.eventsTopic(), metrics);
    OpenTransactions open = new OpenTransactions(txns, events);
    SessionOrder order = new SessionOrder(context, config, timers, wholes, deadLetters);
    intake = new TransactionIntake(config, metrics, txns, assembled, open, order, wholes, timers);
    TimerSweep sweep = new TimerSweep(config.openTimeout(), txns, events, timers, open, order, wholes, deadLetters);
    context.schedule(PUNCTUATION_INTERVAL, PunctuationType.STREAM_TIME, sweep::sweep);
    watermarks = new PartitionWatermarks(context, config.sources(), timers);
    context.schedule(WATERMARK_INTERVAL, PunctuationType.WALL_CLOCK_TIME, watermarks::tick);
  }

  @Override
  public void close() {
    format.close();
    if (avroEnvelopes != null) {
      avroEnvelopes.close();
    }
  }

  @Override
  public void process(Record<String, byte[]> record) {
    watermarks.reading();
    Rejection bad = InputCheck.size(record.value(), config.limits());
    if (bad != null) {
      deadLetters.send(record.key(), record.value(), bad, record.timestamp());
      return;
    }
    if (config.input() == EventsInput.DEBEZIUM_OUTBOX) {
      outboxRow(record);
      return;
    }
    if (config.input() == EventsInput.DEBEZIUM_CDC) {
      cdcChange(record);
      return;
    }
    RecordCodec.Decoded decoded = format.decode(config.eventsTopic(), record.value());
    if (decoded.record() == null) {
      bad = new Rejection(decoded.reasonClass(), decoded.error());
    } else if (decoded.record() instanceof TxnEvent e) {
      bad = intake.event(singleObject(record, e), e);
      if (bad == null) {
        watermarks.accepted(e.getHistoryId(), EventTimes.micros(e.getTime()));
      }
    } else if (decoded.record() instanceof Transaction t) {
      bad = intake.transaction(singleObject(record, t), t);
      if (bad == null) {
        watermarks.accepted(t.getHistoryId(), EventTimes.micros(t.getEndTime()));
      }
    } else {
      bad = new Rejection("wrong-type", "a " + decoded.record().getSchema().getName()
          + " record on the events topic, which carries TxnEvent and Transaction records");
    }
    if (bad != null) {
      deadLetters.send(record.key(), record.value(), bad, record.timestamp());
    }
  }

  /**
   * One change event of a Debezium topic of the outbox table: its transaction goes in as a whole
   * {@code Transaction} record would, keyed {@code historyId/sessionId} and single-object encoded
   * (so a change event Debezium delivers twice is a held duplicate); what carries none is counted
   * by {@link MonitorMetrics#debeziumSkipped}; a bad one is a dead letter with the raw event.
   */
  private void outboxRow(Record<String, byte[]> record) {
    byte[] v = record.value();
    OutboxRows.Row row = inRegistryFormat(v)
        ? avroEnvelopes.outboxRow(config.eventsTopic(), v)
        : OutboxRows.read(v == null ? null : new String(v, StandardCharsets.UTF_8));
    Rejection bad;
    if (row instanceof OutboxRows.Skipped skipped) {
      metrics.debeziumSkipped(skipped.reason());
      return;
    } else if (row instanceof OutboxRows.Bad b) {
      bad = new Rejection(b.reasonClass(), b.detail());
    } else {
      Transaction t = ((OutboxRows.Published) row).transaction();
      bad = intake.transaction(
          record.withKey(t.getHistoryId() + "/" + t.getSessionId()).withValue(RecordCodec.encode(t)), t);
      if (bad == null) {
        watermarks.accepted(t.getHistoryId(), EventTimes.micros(t.getEndTime()));
      }
    }
    if (bad != null) {
      deadLetters.send(record.key(), record.value(), bad, record.timestamp());
    }
  }

  /**
   * One change event of a Debezium topic of a list-append table, or of its connector's
   * transaction-metadata topic: the database transactions it makes whole ({@link CdcTransactions})
   * are forwarded to the checker stage; an event that cannot be decoded or converted, and a
   * transaction over the limits, is a dead letter.
   */
  private void cdcChange(Record<String, byte[]> record) {
    byte[] v = record.value();
    Optional<Envelope> envelope;
    try {
      envelope = inRegistryFormat(v)
          ? avroEnvelopes.envelope(context.recordMetadata().map(RecordMetadata::topic).orElse(config.eventsTopic()), v)
          : JsonEnvelopes.parse(v == null ? null : new String(v, StandardCharsets.UTF_8));
    } catch (EnvelopeException e) {
      deadLetters.send(record.key(), v, new Rejection(e.reasonClass(), e.getMessage()), record.timestamp());
      return;
    }
    if (envelope.isEmpty()) {
      metrics.debeziumSkipped("tombstone");
      return;
    }
    CdcTransactions.Taken taken = cdc.accept(envelope.get());
    if (taken.rejection() != null) {
      deadLetters.send(record.key(), v, taken.rejection(), record.timestamp());
    }
    for (Transaction t : taken.transactions()) {
      String key = t.getHistoryId() + "/" + t.getSessionId();
      Rejection bad = InputCheck.transaction(key, t, config.limits());
      if (bad == null) {
        // whole, in commit order, each once (CdcTransactions): not held in a session, which would keep
        // a session's state for every database transaction
        context.forward(new Record<>(t.getHistoryId(), (SpecificRecord) t, Math.max(0, t.getEndTime().toEpochMilli())));
        watermarks.accepted(t.getHistoryId(), EventTimes.micros(t.getEndTime()));
      } else {
        deadLetters.send(key, RecordCodec.encode(t), bad, record.timestamp());
      }
    }
  }

  /**
   * @return whether a Debezium change event is to be read as Avro through the registry: a registry
   *     is configured and the value starts with the wire format's byte 0 (JSON never does)
   */
  private boolean inRegistryFormat(byte[] v) {
    return avroEnvelopes != null && v != null && v.length > 0 && v[0] == 0;
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
}
