package io.isowatch.stream.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.level.Level;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.SourceWatermark;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TrustedClasses;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.serde.RecordSerde;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.StoreBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker stage on a small topology (Transactions in, the stage, Violations and DeadLetters
 * out) driven by {@link TopologyTestDriver}, with exact expected output records.
 */
class CheckerStageTest {
  private static final String IN = "transactions";
  private static final String OUT = "violations";
  private static final String DLQ = "dlq";

  @TempDir
  Path stateDir;

  @BeforeAll
  static void trust() {
    TrustedClasses.install();
  }

  static Topology topology(MonitorConfig config, MonitorMetrics metrics) {
    StreamsBuilder b = new StreamsBuilder();
    KStream<String, SpecificRecord> out = b.stream(IN, Consumed.with(Serdes.String(), new RecordSerde()))
        .process(CheckerStage.supplier(config, metrics));
    out.filter((k, v) -> v instanceof Violation).to(OUT, Produced.with(Serdes.String(), new RecordSerde()));
    out.filter((k, v) -> v instanceof DeadLetter).to(DLQ, Produced.with(Serdes.String(), new RecordSerde()));
    return b.build();
  }

  private final class Run implements AutoCloseable {
    final TopologyTestDriver driver;
    final TestInputTopic<String, SpecificRecord> in;
    final TestOutputTopic<String, SpecificRecord> out;
    final TestOutputTopic<String, SpecificRecord> dlq;
    final MonitorMetrics metrics;

    Run(MonitorConfig config) {
      this(config, MonitorMetrics.inMemory());
    }

    Run(MonitorConfig config, MonitorMetrics metrics) {
      this.metrics = metrics;
      Properties p = new Properties();
      p.put(StreamsConfig.APPLICATION_ID_CONFIG, "checker-stage-test");
      p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
      p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
      driver = new TopologyTestDriver(topology(config, metrics), p);
      RecordSerde serde = new RecordSerde();
      in = driver.createInputTopic(IN, Serdes.String().serializer(), serde.serializer());
      out = driver.createOutputTopic(OUT, Serdes.String().deserializer(), serde.deserializer());
      dlq = driver.createOutputTopic(DLQ, Serdes.String().deserializer(), serde.deserializer());
    }

    void pipe(Transaction... txns) {
      for (Transaction t : txns) {
        in.pipeInput(t.getHistoryId(), t, t.getEndTime());
      }
    }

    /** Moves the driver's wall clock forward, firing the stage's hold-limit punctuation when due. */
    void wallClock(Duration d) {
      driver.advanceWallClockTime(d);
    }

    /** Pipes an assembler task's watermark, with a record timestamp of {@code second} seconds. */
    void watermark(SourceWatermark w, long second) {
      in.pipeInput(w.getHistoryId(), w, Instant.ofEpochSecond(second));
    }

    @Override
    public void close() {
      driver.close();
    }
  }

  // ---------------------------------------------------------------- building records

  static Operation r(String key, Long v) {
    return new Operation(OpKind.READ, key, v);
  }

  static Operation rl(String key, long... elements) {
    List<Long> list = new ArrayList<>();
    for (long e : elements) {
      list.add(e);
    }
    return new Operation(OpKind.READ, key, list);
  }

  static Operation w(String key, long v) {
    return new Operation(OpKind.WRITE, key, v);
  }

  static Operation a(String key, long e) {
    return new Operation(OpKind.APPEND, key, e);
  }

  /** A committed transaction of history {@code h} ending at {@code second} seconds after the epoch. */
  static Transaction txn(String h, String session, String id, long seq, long second, Operation... ops) {
    Instant end = Instant.ofEpochSecond(second);
    return new Transaction(h, session, id, seq, TxnStatus.COMMITTED, Arrays.asList(ops), end.minusMillis(1), end, null);
  }

  static MonitorConfig expecting(Level level) {
    return MonitorConfig.defaults().withExpectedLevel(level).withWindow(1000, Duration.ZERO)
        .withTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMinutes(5));
  }

  static final Transaction[] WRITE_SKEW = {
      txn("h", "s1", "T1", 0, 10, rl("x"), rl("y"), a("x", 1)),
      txn("h", "s2", "T2", 0, 11, rl("x"), rl("y"), a("y", 1)),
  };

  /** T1 and T2 both read x's initial value and write it: a lost update on registers, which only the polygraph sees. */
  static final Transaction[] REGISTER_LOST_UPDATE = {
      txn("h", "s1", "T1", 0, 10, r("x", null), w("x", 1)),
      txn("h", "s2", "T2", 0, 11, r("x", null), w("x", 2)),
  };

  private static String only(List<KeyValue<String, SpecificRecord>> records, String key) {
    assertThat(records).hasSize(1);
    assertThat(records.get(0).key).isEqualTo(key);
    return records.get(0).value.toString();
  }

  private static double count(MonitorMetrics m, String name, String... tags) {
    var c = m.registry().find(name).tags(tags).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void writeSkewOnListAppendExpectingSerializableIsPublishedAsAG2Item() {
    try (Run run = new Run(expecting(Level.SERIALIZABLE))) {
      run.pipe(WRITE_SKEW);
      assertThat(only(run.out.readKeyValuesToList(), "h")).isEqualTo("{\"historyId\": \"h\", "
          + "\"violationId\": \"09b757860dafbeafbdd27a4c5a795644\", \"detectedAt\": \"1970-01-01T00:00:11Z\", "
          + "\"level\": \"SERIALIZABLE\", \"anomaly\": \"G2-item\", \"witness\": {\"transactions\": ["
          + "{\"txnId\": \"T1\", \"sessionId\": \"s1\", \"status\": \"COMMITTED\", \"ops\": ["
          + "{\"kind\": \"READ\", \"key\": \"x\", \"value\": []}, {\"kind\": \"READ\", \"key\": \"y\", \"value\": []}, "
          + "{\"kind\": \"APPEND\", \"key\": \"x\", \"value\": 1}]}, "
          + "{\"txnId\": \"T2\", \"sessionId\": \"s2\", \"status\": \"COMMITTED\", \"ops\": ["
          + "{\"kind\": \"READ\", \"key\": \"x\", \"value\": []}, {\"kind\": \"READ\", \"key\": \"y\", \"value\": []}, "
          + "{\"kind\": \"APPEND\", \"key\": \"y\", \"value\": 1}]}], "
          + "\"edges\": [{\"fromTxnId\": \"T1\", \"toTxnId\": \"T2\", \"type\": \"RW\", \"key\": \"y\", \"value\": 1, "
          + "\"explanation\": \"T1 read y = [] and so did not see T2's append of 1\"}, "
          + "{\"fromTxnId\": \"T2\", \"toTxnId\": \"T1\", \"type\": \"RW\", \"key\": \"x\", \"value\": 1, "
          + "\"explanation\": \"T2 read x = [] and so did not see T1's append of 1\"}], \"support\": [], \"cases\": []}, "
          + "\"window\": {\"startTime\": \"1970-01-01T00:00:10Z\", \"endTime\": \"1970-01-01T00:00:11Z\", \"transactions\": 2}, "
          + "\"summary\": \"cycle T1 -> T2 -> T1 (2 edges)\"}");
      assertThat(run.dlq.isEmpty()).isTrue();
      assertThat(count(run.metrics, "isowatch.violations", "level", "serializable", "anomaly", "G2-item")).isEqualTo(1.0);
      assertThat(count(run.metrics, "isowatch.transactions.checked")).isEqualTo(2.0);
      assertThat(count(run.metrics, "isowatch.operations.checked")).isEqualTo(6.0);
      assertThat(run.metrics.registry().find("isowatch.window.transactions").tags("history", "h").gauge().value())
          .isEqualTo(2.0);
    }
  }

  static final Transaction[] G1C = {
      txn("h", "s1", "T1", 0, 10, a("x", 1), rl("y", 1)),
      txn("h", "s2", "T2", 0, 11, a("y", 1), rl("x", 1)),
  };

  @Test
  void aG1cOnListAppendIsPublishedOnceItsHeldReadIsResolved() {
    try (Run run = new Run(expecting(Level.SERIALIZABLE))) {
      run.pipe(G1C);
      // the axiomatic read-committed check closes the same wr cycle as a commit-order cycle
      List<KeyValue<String, SpecificRecord>> out = run.out.readKeyValuesToList();
      assertThat(out).extracting(kv -> ((Violation) kv.value).getAnomaly())
          .containsExactly("commit-order-cycle", "G1c");
      assertThat(out.get(1).value.toString()).isEqualTo(G1C_RECORD);
    }
  }

  static final String G1C_RECORD = "{\"historyId\": \"h\", \"violationId\": \"fc850fcb2f6075ba7fe1c47f4fb62506\", "
      + "\"detectedAt\": \"1970-01-01T00:00:11Z\", \"level\": \"READ_COMMITTED\", \"anomaly\": \"G1c\", "
      + "\"witness\": {\"transactions\": [{\"txnId\": \"T1\", \"sessionId\": \"s1\", \"status\": \"COMMITTED\", "
      + "\"ops\": [{\"kind\": \"APPEND\", \"key\": \"x\", \"value\": 1}, {\"kind\": \"READ\", \"key\": \"y\", \"value\": [1]}]}, "
      + "{\"txnId\": \"T2\", \"sessionId\": \"s2\", \"status\": \"COMMITTED\", \"ops\": ["
      + "{\"kind\": \"APPEND\", \"key\": \"y\", \"value\": 1}, {\"kind\": \"READ\", \"key\": \"x\", \"value\": [1]}]}], "
      + "\"edges\": [{\"fromTxnId\": \"T1\", \"toTxnId\": \"T2\", \"type\": \"WR\", \"key\": \"x\", \"value\": 1, "
      + "\"explanation\": \"T2 read T1's append of 1 to x\"}, {\"fromTxnId\": \"T2\", \"toTxnId\": \"T1\", "
      + "\"type\": \"WR\", \"key\": \"y\", \"value\": 1, \"explanation\": \"T1 read T2's append of 1 to y\"}], \"support\": [], \"cases\": []}, "
      + "\"window\": {\"startTime\": \"1970-01-01T00:00:10Z\", \"endTime\": \"1970-01-01T00:00:11Z\", \"transactions\": 2}, "
      + "\"summary\": \"cycle T1 -> T2 -> T1 (2 edges)\"}";

  @Test
  void aReadCommittedCommitOrderCycleOnRegisters() {
    try (Run run = new Run(expecting(Level.READ_COMMITTED))) {
      run.pipe(txn("r", "writer", "T1", 0, 10, w("x", 1)), txn("r", "writer", "T2", 1, 11, w("x", 2), w("y", 2)),
          txn("r", "reader", "T3", 0, 12, r("y", 2L), r("x", 2L), r("x", 2L), r("x", 1L)));
      assertThat(only(run.out.readKeyValuesToList(), "r")).isEqualTo("{\"historyId\": \"r\", "
          + "\"violationId\": \"a80b9dc4838bac02a97c3215c65d633e\", \"detectedAt\": \"1970-01-01T00:00:12Z\", "
          + "\"level\": \"READ_COMMITTED\", \"anomaly\": \"commit-order-cycle\", \"witness\": {\"transactions\": ["
          + "{\"txnId\": \"T2\", \"sessionId\": \"writer\", \"status\": \"COMMITTED\", \"ops\": ["
          + "{\"kind\": \"WRITE\", \"key\": \"x\", \"value\": 2}, {\"kind\": \"WRITE\", \"key\": \"y\", \"value\": 2}]}, "
          + "{\"txnId\": \"T1\", \"sessionId\": \"writer\", \"status\": \"COMMITTED\", \"ops\": ["
          + "{\"kind\": \"WRITE\", \"key\": \"x\", \"value\": 1}]}, "
          + "{\"txnId\": \"T3\", \"sessionId\": \"reader\", \"status\": \"COMMITTED\", \"ops\": ["
          + "{\"kind\": \"READ\", \"key\": \"y\", \"value\": 2}, {\"kind\": \"READ\", \"key\": \"x\", \"value\": 2}, "
          + "{\"kind\": \"READ\", \"key\": \"x\", \"value\": 2}, {\"kind\": \"READ\", \"key\": \"x\", \"value\": 1}]}], "
          + "\"edges\": [{\"fromTxnId\": \"T2\", \"toTxnId\": \"T1\", \"type\": \"CO\", \"key\": \"x\", \"value\": null, "
          + "\"explanation\": \"T2 precedes T1 in commit order because T3 read x from T1 after reading from T2, which also writes x\"}, "
          + "{\"fromTxnId\": \"T1\", \"toTxnId\": \"T2\", \"type\": \"SO\", \"key\": null, \"value\": null, "
          + "\"explanation\": \"T1 precedes T2 in session writer\"}], \"support\": [], \"cases\": []}, "
          + "\"window\": {\"startTime\": \"1970-01-01T00:00:10Z\", \"endTime\": \"1970-01-01T00:00:12Z\", \"transactions\": 3}, "
          + "\"summary\": \"cycle T2 -> T1 -> T2 (2 edges, 1 inferred commit order)\"}");
    }
  }

  @Test
  void writeSkewExpectingReadCommittedIsOnlyCounted() {
    try (Run run = new Run(expecting(Level.READ_COMMITTED))) {
      run.pipe(WRITE_SKEW);
      assertThat(run.out.isEmpty()).isTrue();
      assertThat(run.dlq.isEmpty()).isTrue();
      assertThat(count(run.metrics, "isowatch.observations.stronger.level.only", "level", "serializable",
          "anomaly", "G2-item")).isEqualTo(1.0);
      assertThat(count(run.metrics, "isowatch.violations", "level", "serializable", "anomaly", "G2-item")).isZero();
    }
  }

  @Test
  void theExpectedLevelIsPerHistory() {
    MonitorConfig config = expecting(Level.READ_COMMITTED).withLevelByHistory(Map.of("h", Level.SERIALIZABLE));
    try (Run run = new Run(config)) {
      run.pipe(WRITE_SKEW);
      for (Transaction t : WRITE_SKEW) {
        run.pipe(txn("other", t.getSessionId(), t.getTxnId(), 0, t.getEndTime().getEpochSecond(),
            t.getOps().toArray(new Operation[0])));
      }
      assertThat(run.out.readKeyValuesToList()).extracting(kv -> kv.key).containsExactly("h");
    }
  }

  @Test
  void aRepeatedTransactionAndABadOperationGoToTheDeadLetterTopic() {
    try (Run run = new Run(expecting(Level.SERIALIZABLE))) {
      run.pipe(WRITE_SKEW[0], WRITE_SKEW[0]);
      Transaction bad = new Transaction("h", "s3", "T9", 0L, TxnStatus.COMMITTED,
          List.of(new Operation(OpKind.APPEND, "x", List.of(5L))), Instant.ofEpochSecond(12), Instant.ofEpochSecond(12), null);
      run.pipe(bad);
      List<KeyValue<String, SpecificRecord>> dead = run.dlq.readKeyValuesToList();
      assertThat(dead).hasSize(2);
      DeadLetter first = (DeadLetter) dead.get(0).value;
      assertThat(first.getTopic()).isEqualTo(IN);
      assertThat(first.getPartition()).isEqualTo(0);
      assertThat(first.getOffset()).isEqualTo(1L);
      assertThat(first.getReason()).isEqualTo("transaction T1 arrived before");
      assertThat(first.getRaw()).isEqualTo(java.nio.ByteBuffer.wrap(io.isowatch.schemas.serde.RecordCodec.encode(WRITE_SKEW[0])));
      DeadLetter second = (DeadLetter) dead.get(1).value;
      assertThat(second.getOffset()).isEqualTo(2L);
      assertThat(second.getReason()).isEqualTo("operation 0 of T9 appends a list; an append needs a long element");
      assertThat(count(run.metrics, "isowatch.dlq.records", "reason", "duplicate-txn")).isEqualTo(1.0);
      assertThat(count(run.metrics, "isowatch.dlq.records", "reason", "bad-value")).isEqualTo(1.0);
      run.pipe(WRITE_SKEW[1]);
      assertThat(run.out.readKeyValuesToList()).hasSize(1); // the history was not disturbed
    }
  }

  @Test
  void aViolationFoundByBothGenerationsIsPublishedOnce() {
    MonitorConfig config = expecting(Level.SERIALIZABLE).withWindow(4, Duration.ZERO);
    try (Run run = new Run(config)) {
      // positions 0, 1 fill the first generation's first half; the write skew at 2, 3 lies in both
      run.pipe(txn("h", "s9", "F1", 0, 1, w("z", 1)), txn("h", "s9", "F2", 1, 2, w("z", 2)));
      run.pipe(WRITE_SKEW);
      List<KeyValue<String, SpecificRecord>> out = run.out.readKeyValuesToList();
      assertThat(out).hasSize(1);
      assertThat(((Violation) out.get(0).value).getViolationId()).isEqualTo("09b757860dafbeafbdd27a4c5a795644");
    }
  }

  /**
   * A watermark of history {@code h} from partition {@code partition} (of {@code partitions}) at
   * {@code second} seconds.
   */
  static SourceWatermark watermark(String h, int partition, int partitions, long second, boolean idle) {
    return new SourceWatermark(h, partition, partitions, second * 1_000_000L, idle);
  }

  /** A watermark of history {@code h}: {@link #watermark(String, int, int, long, boolean)}. */
  static SourceWatermark watermark(int partition, int partitions, long second, boolean idle) {
    return watermark("h", partition, partitions, second, idle);
  }

  /**
   * A lost update on registers, which only the polygraph sees: the window decides its generation
   * when every partition is idle (the stream may end there), and the violation is published with its
   * cases, the two orders of the writes and the cycle each closes.
   */
  @Test
  void aRegisterLostUpdateExpectingSerializableIsPublishedWithItsCasesWhenEveryPartitionIsIdle() {
    try (Run run = new Run(expecting(Level.SERIALIZABLE))) {
      run.pipe(REGISTER_LOST_UPDATE);
      run.watermark(watermark(0, 1, 11, false), 11);
      assertThat(run.out.isEmpty()).isTrue(); // K = 1000: not decided yet
      run.watermark(watermark(0, 1, 11, true), 11);
      assertThat(only(run.out.readKeyValuesToList(), "h")).isEqualTo("{\"historyId\": \"h\", \"violationId\": \"424746b77c121c2ef024e4e6675f9ce6\", "
          + "\"detectedAt\": \"1970-01-01T00:00:11Z\", \"level\": \"SNAPSHOT_ISOLATION\", \"anomaly\": \"lost-update\", "
          + "\"witness\": {\"transactions\": [{\"txnId\": \"T1\", \"sessionId\": \"s1\", \"status\": \"COMMITTED\", "
          + "\"ops\": [{\"kind\": \"READ\", \"key\": \"x\", \"value\": null}, {\"kind\": \"WRITE\", \"key\": \"x\", "
          + "\"value\": 1}]}, {\"txnId\": \"T2\", \"sessionId\": \"s2\", \"status\": \"COMMITTED\", "
          + "\"ops\": [{\"kind\": \"READ\", \"key\": \"x\", \"value\": null}, {\"kind\": \"WRITE\", \"key\": \"x\", "
          + "\"value\": 2}]}], \"edges\": [], \"support\": [], \"cases\": [{\"orders\": [{\"first\": \"T1\", "
          + "\"second\": \"T2\"}], \"edges\": [{\"fromTxnId\": \"T1\", \"toTxnId\": \"T2\", \"type\": \"WW\", \"key\": \"x\", "
          + "\"value\": 1, \"explanation\": \"this case puts T2's write of x = 2 after T1's write of x = 1\"}, "
          + "{\"fromTxnId\": \"T2\", \"toTxnId\": \"T1\", \"type\": \"RW\", \"key\": \"x\", \"value\": 1, "
          + "\"explanation\": \"T2 read x = init and so did not see T1's write of 1\"}]}, "
          + "{\"orders\": [{\"first\": \"T2\", \"second\": \"T1\"}], \"edges\": [{\"fromTxnId\": \"T2\", \"toTxnId\": \"T1\", "
          + "\"type\": \"WW\", \"key\": \"x\", \"value\": 2, "
          + "\"explanation\": \"this case puts T1's write of x = 1 after T2's write of x = 2\"}, "
          + "{\"fromTxnId\": \"T1\", \"toTxnId\": \"T2\", \"type\": \"RW\", \"key\": \"x\", \"value\": 2, "
          + "\"explanation\": \"T1 read x = init and so did not see T2's write of 2\"}]}]}, "
          + "\"window\": {\"startTime\": \"1970-01-01T00:00:10Z\", \"endTime\": \"1970-01-01T00:00:11Z\", "
          + "\"transactions\": 2}, \"summary\": \"no order of the writes of T1 and T2 avoids a cycle (2 cases)\"}");
      run.watermark(watermark(0, 1, 12, false), 12);
      run.watermark(watermark(0, 1, 12, true), 12);
      assertThat(run.out.isEmpty()).isTrue(); // nothing fed since: not decided again
      assertThat(count(run.metrics, "isowatch.violations", "level", "snapshot-isolation", "anomaly", "lost-update"))
          .isEqualTo(1.0);
      assertThat(count(run.metrics, "isowatch.checks.undecided")).isEqualTo(0.0);
    }
  }

  /**
   * The same lost update expecting causal consistency: the polygraph checks, which decide only
   * snapshot isolation and serializable, do not run, so nothing is published nor counted.
   */
  @Test
  void aRegisterLostUpdateExpectingCausalRunsNoPolygraphCheck() {
    try (Run run = new Run(expecting(Level.CAUSAL))) {
      run.pipe(REGISTER_LOST_UPDATE);
      run.watermark(watermark(0, 1, 11, true), 11);
      assertThat(run.out.isEmpty()).isTrue();
      assertThat(count(run.metrics, "isowatch.observations.stronger.level.only", "level", "snapshot-isolation",
          "anomaly", "lost-update")).isZero();
    }
  }

  /** A write skew on registers: the polygraph's G2-item, a cycle of two rw edges, published as such. */
  @Test
  void aRegisterWriteSkewExpectingSerializableIsPublishedAsAG2ItemWhenEveryPartitionIsIdle() {
    try (Run run = new Run(expecting(Level.SERIALIZABLE))) {
      run.pipe(txn("h", "s1", "T1", 0, 10, r("x", null), r("y", null), w("x", 1)),
          txn("h", "s2", "T2", 0, 11, r("x", null), r("y", null), w("y", 1)));
      run.watermark(watermark(0, 1, 11, true), 11);
      assertThat(only(run.out.readKeyValuesToList(), "h")).isEqualTo("{\"historyId\": \"h\", \"violationId\": \"09b757860dafbeafbdd27a4c5a795644\", "
          + "\"detectedAt\": \"1970-01-01T00:00:11Z\", \"level\": \"SERIALIZABLE\", \"anomaly\": \"G2-item\", "
          + "\"witness\": {\"transactions\": [{\"txnId\": \"T1\", \"sessionId\": \"s1\", \"status\": \"COMMITTED\", "
          + "\"ops\": [{\"kind\": \"READ\", \"key\": \"x\", \"value\": null}, {\"kind\": \"READ\", \"key\": \"y\", "
          + "\"value\": null}, {\"kind\": \"WRITE\", \"key\": \"x\", \"value\": 1}]}, {\"txnId\": \"T2\", "
          + "\"sessionId\": \"s2\", \"status\": \"COMMITTED\", \"ops\": [{\"kind\": \"READ\", \"key\": \"x\", \"value\": null}, "
          + "{\"kind\": \"READ\", \"key\": \"y\", \"value\": null}, {\"kind\": \"WRITE\", \"key\": \"y\", \"value\": 1}]}], "
          + "\"edges\": [{\"fromTxnId\": \"T1\", \"toTxnId\": \"T2\", \"type\": \"RW\", \"key\": \"y\", \"value\": 1, "
          + "\"explanation\": \"T1 read y = init and so did not see T2's write of 1\"}, {\"fromTxnId\": \"T2\", "
          + "\"toTxnId\": \"T1\", \"type\": \"RW\", \"key\": \"x\", \"value\": 1, "
          + "\"explanation\": \"T2 read x = init and so did not see T1's write of 1\"}], \"support\": [], "
          + "\"cases\": []}, \"window\": {\"startTime\": \"1970-01-01T00:00:10Z\", "
          + "\"endTime\": \"1970-01-01T00:00:11Z\", \"transactions\": 2}, "
          + "\"summary\": \"cycle T1 -> T2 -> T1 (2 edges)\"}");
    }
  }

  @Test
  void aReadWhoseWriterNeverArrivesIsPublishedAsThinAirWhenTheLowWatermarkPassesTheGrace() {
    try (Run run = new Run(expecting(Level.SERIALIZABLE))) {
      run.pipe(txn("h", "s1", "T1", 0, 10, r("x", 5L)));
      run.pipe(txn("other", "s1", "U1", 0, 39, w("q", 1)));
      run.pipe(txn("other", "s1", "U2", 1, 41, w("q", 2)));
      assertThat(run.out.isEmpty()).isTrue(); // later end times alone are no clock
      run.watermark(watermark(0, 1, 39, false), 39);
      assertThat(run.out.isEmpty()).isTrue();
      run.watermark(watermark(0, 1, 41, false), 41);
      assertThat(only(run.out.readKeyValuesToList(), "h")).isEqualTo("{\"historyId\": \"h\", "
          + "\"violationId\": \"76706f97f4cfb6aa99e1d9cad4b8a86d\", \"detectedAt\": \"1970-01-01T00:00:41Z\", "
          + "\"level\": \"READ_COMMITTED\", \"anomaly\": \"thin-air-read\", \"witness\": {\"transactions\": ["
          + "{\"txnId\": \"T1\", \"sessionId\": \"s1\", \"status\": \"COMMITTED\", \"ops\": ["
          + "{\"kind\": \"READ\", \"key\": \"x\", \"value\": 5}]}], \"edges\": [], \"support\": [], \"cases\": []}, "
          + "\"window\": {\"startTime\": \"1970-01-01T00:00:10Z\", \"endTime\": \"1970-01-01T00:00:10Z\", \"transactions\": 1}, "
          + "\"summary\": \"T1 read x = 5, which no transaction wrote within the read grace period\"}");
      assertThat(count(run.metrics, "isowatch.reads.unresolved")).isEqualTo(0.0);
      run.pipe(txn("other", "s1", "U3", 2, 100, w("q", 3)));
      run.watermark(watermark(0, 1, 100, false), 100);
      assertThat(run.out.isEmpty()).isTrue();
    }
  }

  /**
   * Histories have clocks of their own: partitions far ahead in another history's event time (a
   * history replayed before, or a database whose clock is ahead) do not release a read of this
   * history; only this history's progress on every partition does.
   */
  @Test
  void eachHistoryHasItsOwnClock() {
    try (Run run = new Run(expecting(Level.SERIALIZABLE))) {
      run.watermark(watermark("other", 0, 2, 1_000, false), 1_000);
      run.watermark(watermark("other", 1, 2, 1_000, false), 1_000);
      run.watermark(watermark("h", 0, 2, 5, false), 5);
      run.watermark(watermark("h", 1, 2, 5, false), 5);
      run.pipe(txn("h", "s1", "T1", 0, 10, r("x", 5L)));
      run.pipe(txn("other", "s1", "U1", 0, 1_000, w("q", 1)));
      assertThat(run.out.isEmpty()).isTrue();
      run.watermark(watermark("h", 0, 2, 41, false), 41);
      assertThat(run.out.isEmpty()).isTrue();
      run.watermark(watermark("h", 1, 2, 41, false), 41);
      assertThat(run.out.readKeyValuesToList()).extracting(kv -> ((Violation) kv.value).getSummary())
          .containsExactly("T1 read x = 5, which no transaction wrote within the read grace period");
    }
  }

  /**
   * Two upstream partitions, one held back by far more than the grace (a lagging assembler task):
   * the reader's partition is at 100 s, the writer's at 5 s. Nothing is published while the writer's
   * partition is behind, the writer then arrives late, and the history is consistent: no violation,
   * nothing unresolved. (With the largest end time as clock, T1's read was published as a thin-air
   * read the moment U1 ended at 100 s.)
   */
  @Test
  void aPartitionHeldBackByMoreThanTheGraceInventsNothing() {
    try (Run run = new Run(expecting(Level.SERIALIZABLE))) {
      run.watermark(watermark(1, 2, 5, false), 5);
      run.pipe(txn("h", "s1", "T1", 0, 10, r("x", 5L)));
      run.pipe(txn("h", "s3", "U1", 0, 100, w("q", 1)));
      run.watermark(watermark(0, 2, 100, false), 100);
      assertThat(run.out.isEmpty()).isTrue();
      run.pipe(txn("h", "s2", "T0", 0, 9, w("x", 5)));
      run.watermark(watermark(1, 2, 100, false), 100);
      assertThat(run.out.isEmpty()).isTrue();
      assertThat(run.dlq.isEmpty()).isTrue();
      assertThat(count(run.metrics, "isowatch.reads.unresolved")).isEqualTo(0.0);
      assertThat(count(run.metrics, "isowatch.transactions.checked")).isEqualTo(3.0);
    }
  }

  /**
   * A partition that never reports (its assembler task not running) holds every read back, however
   * far the others get, until the low watermark has stood still for the hold limit (5 min of wall
   * clock); the read is then given up on as unresolved: counted, never published.
   */
  @Test
  void aStalledPartitionEndsInAnUnresolvedCount() {
    try (Run run = new Run(expecting(Level.SERIALIZABLE))) {
      run.watermark(watermark(0, 3, 10, false), 10);
      run.watermark(watermark(1, 3, 10, false), 10);
      run.pipe(txn("h", "s1", "T1", 0, 10, r("x", 5L)));
      run.watermark(watermark(0, 3, 100_000, false), 100_000);
      run.watermark(watermark(1, 3, 100_000, false), 100_000);
      run.wallClock(Duration.ofMinutes(4));
      assertThat(run.out.isEmpty()).isTrue();
      assertThat(count(run.metrics, "isowatch.reads.unresolved")).isEqualTo(0.0);
      run.wallClock(Duration.ofMinutes(1));
      assertThat(run.out.isEmpty()).isTrue();
      assertThat(count(run.metrics, "isowatch.reads.unresolved")).isEqualTo(1.0);
      assertThat(count(run.metrics, "isowatch.transactions.checked")).isEqualTo(1.0);
    }
  }

  /**
   * An idle partition (read to its end) still holds reads back at its time, since records that
   * reach it later may carry any event time; when every partition is idle the input is exhausted,
   * and the held read is given up on as unresolved, not published. A read every partition has
   * passed is published as before.
   */
  @Test
  void anIdlePartitionHoldsReadsBackAndEveryPartitionIdleEndsTheWaitUnpublished() {
    try (Run run = new Run(expecting(Level.SERIALIZABLE))) {
      run.watermark(watermark(0, 3, 430, false), 430);
      run.watermark(watermark(1, 3, 430, false), 430);
      run.watermark(watermark(2, 3, 40, false), 40);
      run.pipe(txn("h", "s2", "T2", 0, 400, r("y", 7L)));
      run.pipe(txn("h", "s3", "T3", 0, 5, r("z", 8L))); // every partition has passed 5 + 30 s
      assertThat(run.out.readKeyValuesToList()).extracting(kv -> ((Violation) kv.value).getSummary())
          .containsExactly("T3 read z = 8, which no transaction wrote within the read grace period");
      run.watermark(watermark(2, 3, 40, true), 40);
      assertThat(run.out.isEmpty()).isTrue(); // partition 2 may still bring older records
      assertThat(count(run.metrics, "isowatch.reads.unresolved")).isEqualTo(0.0);
      run.watermark(watermark(0, 3, 430, true), 430);
      run.watermark(watermark(1, 3, 430, true), 430);
      assertThat(run.out.isEmpty()).isTrue();
      assertThat(count(run.metrics, "isowatch.reads.unresolved")).isEqualTo(1.0);
      assertThat(count(run.metrics, "isowatch.transactions.checked")).isEqualTo(2.0);
    }
  }

  /**
   * A crash and restart: the processor's in-memory checkers are lost, its stores survive (Kafka
   * Streams restores them from their changelogs before {@code init}). Two processor instances from
   * the supplier share the same stores (the supplier's own persistent stores, changelogging off)
   * through {@link MockProcessorContext}; the second is initialised on the first one's stores. ({@link
   * TopologyTestDriver#close()} deletes its state directory, so it cannot show a restart.)
   */
  @Test
  void afterARestartTheStateIsRestoredAndNothingIsPublishedTwice() {
    List<StateStore> opened = new ArrayList<>();
    try {
      restart(opened);
    } finally {
      opened.forEach(StateStore::close);
    }
  }

  private void restart(List<StateStore> stores) {
    MonitorConfig config = expecting(Level.SERIALIZABLE);
    var supplier = CheckerStage.supplier(config, MonitorMetrics.inMemory());
    for (StoreBuilder<?> b : supplier.stores()) {
      stores.add(((StoreBuilder<?>) withoutLogging(b)).build());
    }
    Transaction[] skew = new Transaction[WRITE_SKEW.length];
    for (int i = 0; i < skew.length; i++) {
      Transaction t = WRITE_SKEW[i];
      skew[i] = txn("w", t.getSessionId(), t.getTxnId(), 0, t.getEndTime().getEpochSecond(),
          t.getOps().toArray(new Operation[0]));
    }
    MockProcessorContext<String, SpecificRecord> first = context(stores, true);
    var p1 = supplier.get();
    p1.init(first);
    for (Transaction t : List.of(skew[0], skew[1], G1C[0])) {
      p1.process(new org.apache.kafka.streams.processor.api.Record<>(t.getHistoryId(), t, t.getEndTime().toEpochMilli()));
    }
    List<String> keys = new ArrayList<>();
    first.forwarded().forEach(f -> keys.add(f.record().key()));
    assertThat(keys).containsExactly("w"); // G1C[0] is held

    MockProcessorContext<String, SpecificRecord> second = context(stores, false);
    var p2 = supplier.get();
    p2.init(second);
    List<Transaction> more = List.of(G1C[1], txn("w", "s3", "T3", 0, 12, rl("x", 1), rl("y", 1)), skew[0]);
    for (Transaction t : more) {
      p2.process(new org.apache.kafka.streams.processor.api.Record<>(t.getHistoryId(), t, t.getEndTime().toEpochMilli()));
    }
    List<SpecificRecord> out = new ArrayList<>();
    second.forwarded().forEach(f -> out.add(f.record().value()));
    assertThat(out).hasSize(3);
    assertThat(((Violation) out.get(0)).getAnomaly()).isEqualTo("commit-order-cycle");
    assertThat(out.get(1).toString()).isEqualTo(G1C_RECORD); // the restored held T1 was released by T2
    assertThat(((DeadLetter) out.get(2)).getReason()).isEqualTo("transaction T1 arrived before");
  }

  /**
   * Closing the topology (as Kafka Streams closes a task when a rebalance revokes it or the instance
   * stops) removes the window gauges of the histories it checked; the sampled window sizes, an
   * instance-wide summary, stay.
   */
  @Test
  void closingTheTopologyRemovesItsHistoriesWindowGauges() {
    MonitorMetrics metrics = MonitorMetrics.inMemory();
    try (Run run = new Run(expecting(Level.SERIALIZABLE), metrics)) {
      run.pipe(WRITE_SKEW);
      run.pipe(txn("other", "s1", "U1", 0, 20, w("q", 1)));
      assertThat(windowGauge(metrics, "h")).isEqualTo(2.0);
      assertThat(windowGauge(metrics, "other")).isEqualTo(1.0);
    }
    assertThat(metrics.registry().find("isowatch.window.transactions").tag("history", "h").gauge()).isNull();
    assertThat(metrics.registry().find("isowatch.window.transactions").tag("history", "other").gauge()).isNull();
    assertThat(metrics.registry().find("isowatch.window.transactions.sampled").summary().count()).isEqualTo(3);
  }

  /**
   * A history's window gauge lives as long as the task that checks it on this instance (issue 5).
   * Two tasks of one instance, sharing its {@link MonitorMetrics} as in {@code MonitorApp}, check
   * disjoint histories: task 0_0 checks h (3 transactions), task 0_1 checks other (2). Closing task
   * 0_0's processor, as Kafka Streams does when a rebalance revokes the task, removes h's gauge and
   * leaves other's. A processor initialised on task 0_0's stores (the task assigned again, restored
   * from its changelog) registers h's gauge again with the restored window size, before any
   * transaction and without sampling it; h's next transaction sets it to 4. Two sets of the stage's
   * stores stand for the two tasks' state, as in {@link #afterARestartTheStateIsRestoredAndNothingIsPublishedTwice}.
   */
  @Test
  void aClosingTaskRemovesOnlyItsOwnHistoriesWindowGaugesAndTheRestoredTaskRegistersThemAgain() {
    List<StateStore> opened = new ArrayList<>();
    try {
      gaugesOfTwoTasks(opened);
    } finally {
      opened.forEach(StateStore::close);
    }
  }

  private void gaugesOfTwoTasks(List<StateStore> opened) {
    MonitorMetrics metrics = MonitorMetrics.inMemory();
    var supplier = CheckerStage.supplier(expecting(Level.SERIALIZABLE), metrics);
    List<StateStore> storesOf00 = new ArrayList<>();
    List<StateStore> storesOf01 = new ArrayList<>();
    for (StoreBuilder<?> b : supplier.stores()) {
      storesOf00.add(((StoreBuilder<?>) withoutLogging(b)).build());
      storesOf01.add(((StoreBuilder<?>) withoutLogging(b)).build());
    }
    opened.addAll(storesOf00);
    opened.addAll(storesOf01);
    MockProcessorContext<String, SpecificRecord> task00 = context(storesOf00, true, 0);
    MockProcessorContext<String, SpecificRecord> task01 = context(storesOf01, true, 1);
    var h = supplier.get();
    h.init(task00);
    var other = supplier.get();
    other.init(task01);
    for (Transaction t : List.of(WRITE_SKEW[0], WRITE_SKEW[1], txn("h", "s3", "T3", 0, 12, w("z", 1)))) {
      h.process(new org.apache.kafka.streams.processor.api.Record<>("h", t, t.getEndTime().toEpochMilli()));
    }
    for (Transaction t : List.of(txn("other", "s1", "U1", 0, 20, w("q", 1)), txn("other", "s1", "U2", 1, 21, w("q", 2)))) {
      other.process(new org.apache.kafka.streams.processor.api.Record<>("other", t, t.getEndTime().toEpochMilli()));
    }
    assertThat(windowGauge(metrics, "h")).isEqualTo(3.0);
    assertThat(windowGauge(metrics, "other")).isEqualTo(2.0);

    h.close();
    assertThat(metrics.registry().find("isowatch.window.transactions").tag("history", "h").gauge()).isNull();
    assertThat(windowGauge(metrics, "other")).isEqualTo(2.0);

    var restored = supplier.get();
    restored.init(context(storesOf00, false, 0));
    assertThat(windowGauge(metrics, "h")).isEqualTo(3.0);
    assertThat(windowGauge(metrics, "other")).isEqualTo(2.0);
    assertThat(metrics.registry().find("isowatch.window.transactions.sampled").summary().count()).isEqualTo(5);
    Transaction t4 = txn("h", "s3", "T4", 1, 13, w("z", 2));
    restored.process(new org.apache.kafka.streams.processor.api.Record<>("h", t4, t4.getEndTime().toEpochMilli()));
    assertThat(windowGauge(metrics, "h")).isEqualTo(4.0);

    restored.close();
    other.close();
    assertThat(metrics.registry().find("isowatch.window.transactions").gauges()).isEmpty();
    assertThat(metrics.registry().find("isowatch.window.transactions.sampled").summary().count()).isEqualTo(6);
  }

  /** @return the value of {@code history}'s window gauge; fails when it is not registered */
  private static double windowGauge(MonitorMetrics m, String history) {
    return m.registry().get("isowatch.window.transactions").tag("history", history).gauge().value();
  }

  /**
   * The evicted-write memory survives a restart, across its store's blocks of slots: with W = 40
   * (memory of 160 evicted writes), the 41st transaction evicts the first 20, among them T1 and T2,
   * whose 142 writes fill slots 0..141 (three blocks). After the restart U1 reads x = 1 (slot 0) and
   * k69 = 1 (slot 70), values that T2 overwrote, so only that memory knows them (not the per-key
   * latest evicted write): U1 is fed at once, and when the low watermark passes its read grace
   * nothing is reported as unresolved. The window restored holds positions 20..40 only, although
   * the window store's first block still holds 0..19 too.
   */
  @Test
  void theEvictedWriteMemoryIsRestoredAfterARestart() {
    List<StateStore> opened = new ArrayList<>();
    try {
      evictedWritesRestart(opened);
    } finally {
      opened.forEach(StateStore::close);
    }
  }

  private void evictedWritesRestart(List<StateStore> stores) {
    MonitorConfig config = expecting(Level.CAUSAL).withWindow(40, Duration.ZERO);
    MonitorMetrics metrics = MonitorMetrics.inMemory();
    var supplier = CheckerStage.supplier(config, metrics);
    for (StoreBuilder<?> b : supplier.stores()) {
      stores.add(((StoreBuilder<?>) withoutLogging(b)).build());
    }
    List<Transaction> first = new ArrayList<>(List.of(writesAll("s1", "T1", 1, 1), writesAll("s2", "T2", 2, 2)));
    for (int i = 0; i < 39; i++) {
      first.add(txn("h", "s3", "F" + i, i, 3 + i, w("q", i)));
    }
    MockProcessorContext<String, SpecificRecord> before = context(stores, true);
    var p1 = supplier.get();
    p1.init(before);
    for (Transaction t : first) {
      p1.process(new org.apache.kafka.streams.processor.api.Record<>("h", t, t.getEndTime().toEpochMilli()));
    }
    assertThat(before.forwarded()).isEmpty();

    MockProcessorContext<String, SpecificRecord> after = context(stores, false);
    var p2 = supplier.get();
    p2.init(after);
    for (Transaction t : List.of(txn("h", "s4", "U1", 0, 50, r("x", 1L), r("k69", 1L)), txn("h", "s3", "U2", 39, 100, w("q", 99)))) {
      p2.process(new org.apache.kafka.streams.processor.api.Record<>("h", t, t.getEndTime().toEpochMilli()));
    }
    p2.process(record("h", watermark(0, 1, 100, false), 100_000));
    assertThat(after.forwarded()).isEmpty();
    assertThat(count(metrics, "isowatch.reads.unresolved")).isEqualTo(0.0);
    assertThat(count(metrics, "isowatch.transactions.checked")).isEqualTo(43.0);
    // positions 20..40 were restored from the window store's first two blocks (0..31 partly
    // evicted, 32..40), then U1 and U2 were fed: 23 transactions
    assertThat(metrics.registry().find("isowatch.window.transactions").tags("history", "h").gauge().value())
        .isEqualTo(23.0);
  }

  /** A transaction of session {@code session}, txnSeq 0, writing {@code v} to x and to k0..k69. */
  private static Transaction writesAll(String session, String id, long second, long v) {
    List<Operation> ops = new ArrayList<>(List.of(w("x", v)));
    for (int k = 0; k < 70; k++) {
      ops.add(w("k" + k, v));
    }
    return txn("h", session, id, 0, second, ops.toArray(new Operation[0]));
  }

  /**
   * The read clock survives a restart exactly, and record timestamps (here wall-clock times, a
   * producer's, far from the events' own times) never move it. Before the restart partition 0 of 2
   * is at 50 s and partition 1 at 5 s, so T1's read (ended at 10 s) is held; after it, partition 1
   * reaching 41 s alone releases it, which needs partition 0's 50 s restored from the store.
   */
  @Test
  void theSourcesWatermarksAreRestoredExactlyAfterARestart() {
    List<StateStore> opened = new ArrayList<>();
    try {
      watermarkRestart(opened);
    } finally {
      opened.forEach(StateStore::close);
    }
  }

  private void watermarkRestart(List<StateStore> stores) {
    MonitorConfig config = expecting(Level.SERIALIZABLE); // read grace 30 s
    var supplier = CheckerStage.supplier(config, MonitorMetrics.inMemory());
    for (StoreBuilder<?> b : supplier.stores()) {
      stores.add(((StoreBuilder<?>) withoutLogging(b)).build());
    }
    long wall = Instant.parse("2026-12-01T02:00:00Z").toEpochMilli();
    MockProcessorContext<String, SpecificRecord> first = context(stores, true);
    var p1 = supplier.get();
    p1.init(first);
    p1.process(record("h", watermark(0, 2, 50, false), wall));
    p1.process(record("h", watermark(1, 2, 5, false), wall));
    p1.process(record("h", txn("h", "s1", "T1", 0, 10, r("x", 5L)), wall + 1_000));
    assertThat(first.forwarded()).isEmpty();

    MockProcessorContext<String, SpecificRecord> second = context(stores, false);
    var p2 = supplier.get();
    p2.init(second);
    p2.process(record("h", watermark(1, 2, 39, false), wall + 2_000));
    assertThat(second.forwarded()).isEmpty(); // 39 s < 10 s + 30 s
    p2.process(record("h", watermark(1, 2, 41, false), wall + 3_000));
    List<String> published = new ArrayList<>();
    second.forwarded().forEach(f -> published.add(f.record().key() + " " + ((Violation) f.record().value()).getAnomaly()));
    assertThat(published).containsExactly("h thin-air-read");
  }

  private static org.apache.kafka.streams.processor.api.Record<String, SpecificRecord> record(String key,
      SpecificRecord value, long timestampMillis) {
    return new org.apache.kafka.streams.processor.api.Record<>(key, value, timestampMillis);
  }

  /**
   * The stage's store as a restarted task finds it after a commit: {@link MockProcessorContext}
   * supports neither changelogs nor the record cache, so both are off; every write reaches the
   * store at once, as the cached writes of a committed task have (Kafka Streams flushes the cache
   * before it commits, and a task that crashes before committing restarts from its last commit). The
   * real commit, crash and restore with the cache on are {@code MonitorIntegrationTest}'s.
   */
  private static StoreBuilder<?> withoutLogging(StoreBuilder<?> b) {
    return b.withLoggingDisabled().withCachingDisabled();
  }

  private MockProcessorContext<String, SpecificRecord> context(List<StateStore> stores, boolean initStores) {
    return context(stores, initStores, stateDir, new org.apache.kafka.streams.processor.TaskId(0, 0));
  }

  /** A context of task 0_{@code partition}, whose stores live under their own directory. */
  private MockProcessorContext<String, SpecificRecord> context(List<StateStore> stores, boolean initStores, int partition) {
    return context(stores, initStores, stateDir.resolve("0_" + partition),
        new org.apache.kafka.streams.processor.TaskId(0, partition));
  }

  private MockProcessorContext<String, SpecificRecord> context(List<StateStore> stores, boolean initStores, Path dir,
      org.apache.kafka.streams.processor.TaskId task) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "checker-stage-test");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    MockProcessorContext<String, SpecificRecord> ctx =
        new MockProcessorContext<>(p, task, dir.toFile());
    ctx.setCurrentSystemTimeMs(0); // the hold limit's wall clock
    for (StateStore s : stores) {
      if (initStores) {
        s.init(ctx.getStateStoreContext(), s);
      }
      ctx.addStateStore(s);
    }
    return ctx;
  }
}
