package io.isowatch.stream.assembly;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.RecordSerde;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The session assembler alone in a {@link TopologyTestDriver}: source topic {@value #IN} → assembler
 * → sink topic {@value #OUT}, with helpers that build events, transactions and expected dead letters.
 * Times: event times are {@code Instant.ofEpochMilli(ms)}; record timestamps are the same ms.
 */
final class AssemblerDriver implements AutoCloseable {
  static final String IN = "events";
  static final String OUT = "assembled";
  static final String H = "db";

  final MonitorMetrics metrics = MonitorMetrics.inMemory();
  private final TopologyTestDriver driver;
  private final TestInputTopic<String, byte[]> in;
  private final TestOutputTopic<String, SpecificRecord> out;

  AssemblerDriver(MonitorConfig config, Path stateDir) {
    Topology topology = new Topology();
    topology.addSource("source", new StringDeserializer(), Serdes.ByteArray().deserializer(), IN);
    topology.addProcessor("assembler", SessionAssembler.supplier(config.withTopics(IN, "violations", "dlq"), metrics), "source");
    topology.addSink("sink", OUT, new StringSerializer(), new RecordSerde().serializer(), "assembler");
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "assembler-test");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    driver = new TopologyTestDriver(topology, p);
    in = driver.createInputTopic(IN, new StringSerializer(), new ByteArraySerializer());
    out = driver.createOutputTopic(OUT, new StringDeserializer(), new RecordSerde().deserializer());
  }

  /** Pipes {@code bytes} with record key {@code key} at {@code ms}. */
  void send(String key, byte[] bytes, long ms) {
    in.pipeInput(key, bytes, ms);
  }

  /** Pipes an event, keyed by its session, at its own time. */
  void send(TxnEvent e) {
    send(e.getHistoryId() + "/" + e.getSessionId(), RecordCodec.encode(e), e.getTime().toEpochMilli());
  }

  /** Pipes a whole transaction, keyed by its session, at {@code ms}. */
  void send(Transaction t, long ms) {
    send(t.getHistoryId() + "/" + t.getSessionId(), RecordCodec.encode(t), ms);
  }

  /** Moves the driver's wall clock forward by {@code d}, firing the wall-clock punctuations due. */
  void wallClock(Duration d) {
    driver.advanceWallClockTime(d);
  }

  /** @return the records forwarded since the last call */
  List<KeyValue<String, SpecificRecord>> out() {
    return out.readKeyValuesToList();
  }

  /** @return the count of ignored duplicates */
  double duplicates() {
    return metrics.registry().get("isowatch.input.duplicates").counter().count();
  }

  /** @return the count of dead letters of class {@code reason} */
  double deadLetters(String reason) {
    return metrics.registry().get("isowatch.dlq.records").tag("reason", reason).counter().count();
  }

  @Override
  public void close() {
    driver.close();
  }

  static TxnEvent event(String session, String txnId, long txnSeq, int opIndex, EventKind kind, String key,
      Object value, long ms) {
    return new TxnEvent(H, session, txnId, txnSeq, opIndex, kind, key, value, Instant.ofEpochMilli(ms), null);
  }

  static TxnEvent begin(String session, String txnId, long txnSeq, long ms) {
    return event(session, txnId, txnSeq, 0, EventKind.BEGIN, null, null, ms);
  }

  static TxnEvent commit(String session, String txnId, long txnSeq, int opIndex, long ms) {
    return event(session, txnId, txnSeq, opIndex, EventKind.COMMIT, null, null, ms);
  }

  static TxnEvent write(String session, String txnId, long txnSeq, int opIndex, String key, long value, long ms) {
    return event(session, txnId, txnSeq, opIndex, EventKind.WRITE, key, value, ms);
  }

  static TxnEvent read(String session, String txnId, long txnSeq, int opIndex, String key, Object value, long ms) {
    return event(session, txnId, txnSeq, opIndex, EventKind.READ, key, value, ms);
  }

  static Operation w(String key, long value) {
    return new Operation(OpKind.WRITE, key, value);
  }

  static Operation r(String key, Object value) {
    return new Operation(OpKind.READ, key, value);
  }

  static Operation a(String key, long value) {
    return new Operation(OpKind.APPEND, key, value);
  }

  static Transaction txn(String session, String txnId, long txnSeq, TxnStatus status, long beginMs, long endMs,
      Operation... ops) {
    return new Transaction(H, session, txnId, txnSeq, status, List.of(ops), Instant.ofEpochMilli(beginMs),
        Instant.ofEpochMilli(endMs), null);
  }

  /** @return the expected output record of an emitted transaction */
  static KeyValue<String, SpecificRecord> emitted(Transaction t) {
    return KeyValue.pair(t.getHistoryId(), t);
  }

  /** @return the expected dead letter of the input record at {@code offset} of partition 0 */
  static KeyValue<String, SpecificRecord> dead(String key, byte[] raw, long offset, String reason) {
    return KeyValue.pair(key, new DeadLetter(raw == null ? null : ByteBuffer.wrap(raw), IN, 0, offset, reason));
  }

  /** @return the expected dead letter raised by a timer (no input record) */
  static KeyValue<String, SpecificRecord> timerDead(String key, String reason) {
    return KeyValue.pair(key, new DeadLetter(null, IN, 0, -1L, reason));
  }
}
