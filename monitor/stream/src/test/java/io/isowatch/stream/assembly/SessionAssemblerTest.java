package io.isowatch.stream.assembly;

import static io.isowatch.stream.assembly.AssemblerDriver.a;
import static io.isowatch.stream.assembly.AssemblerDriver.begin;
import static io.isowatch.stream.assembly.AssemblerDriver.commit;
import static io.isowatch.stream.assembly.AssemblerDriver.dead;
import static io.isowatch.stream.assembly.AssemblerDriver.emitted;
import static io.isowatch.stream.assembly.AssemblerDriver.event;
import static io.isowatch.stream.assembly.AssemblerDriver.r;
import static io.isowatch.stream.assembly.AssemblerDriver.read;
import static io.isowatch.stream.assembly.AssemblerDriver.timerDead;
import static io.isowatch.stream.assembly.AssemblerDriver.txn;
import static io.isowatch.stream.assembly.AssemblerDriver.w;
import static io.isowatch.stream.assembly.AssemblerDriver.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.SourceWatermark;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.stream.config.MonitorConfig;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import io.isowatch.stream.metrics.MonitorMetrics;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session assembler in a {@link org.apache.kafka.streams.TopologyTestDriver}: each test pipes
 * records and compares the whole list of forwarded records (transactions and dead letters).
 */
class SessionAssemblerTest {
  private static final MonitorConfig CONFIG = MonitorConfig.defaults()
      .withTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(60));

  @TempDir
  Path stateDir;
  private AssemblerDriver d;

  private AssemblerDriver driver(MonitorConfig config) {
    d = new AssemblerDriver(config, stateDir);
    return d;
  }

  @AfterEach
  void close() {
    if (d != null) {
      d.close();
    }
  }

  @Test
  void assemblesTheEventsOfATransactionInProgramOrder() {
    AssemblerDriver d = driver(CONFIG);
    Source src = new Source("8841", 42L, null);
    d.send(begin("s1", "T1", 0, 1_000));
    d.send(write("s1", "T1", 0, 1, "x", 1, 1_001));
    d.send(read("s1", "T1", 0, 2, "y", null, 1_002));
    d.send(event("s1", "T1", 0, 3, EventKind.APPEND, "l", 5L, 1_003));
    d.send(read("s1", "T1", 0, 4, "l", List.of(4L, 5L), 1_004));
    assertThat(d.out()).isEmpty();
    d.send(new TxnEvent("db", "s1", "T1", 0L, 5, EventKind.COMMIT, null, null, Instant.ofEpochMilli(1_005), src));

    Transaction expected = new Transaction("db", "s1", "T1", 0L, TxnStatus.COMMITTED,
        List.of(w("x", 1), r("y", null), a("l", 5), r("l", List.of(4L, 5L))),
        Instant.ofEpochMilli(1_000), Instant.ofEpochMilli(1_005), src);
    assertThat(d.out()).containsExactly(emitted(expected));
  }

  @Test
  void restoresProgramOrderOfEventsArrivingOutOfOrder() {
    AssemblerDriver d = driver(CONFIG);
    d.send(commit("s1", "T1", 0, 4, 1_004));
    d.send(write("s1", "T1", 0, 3, "z", 3, 1_003));
    d.send(begin("s1", "T1", 0, 1_000));
    d.send(write("s1", "T1", 0, 1, "x", 1, 1_001));
    assertThat(d.out()).isEmpty();
    d.send(read("s1", "T1", 0, 2, "y", 7L, 1_002));

    assertThat(d.out()).containsExactly(emitted(
        txn("s1", "T1", 0, TxnStatus.COMMITTED, 1_000, 1_004, w("x", 1), r("y", 7L), w("z", 3))));
  }

  @Test
  void withoutBeginTheTransactionBeginsAtItsEarliestEvent() {
    AssemblerDriver d = driver(CONFIG);
    d.send(write("s1", "T1", 0, 1, "x", 1, 1_001));
    d.send(event("s1", "T1", 0, 2, EventKind.ABORT, null, null, 1_002));

    assertThat(d.out()).containsExactly(emitted(txn("s1", "T1", 0, TxnStatus.ABORTED, 1_001, 1_002, w("x", 1))));
  }

  @Test
  void restoresSessionOrderOfTransactionsArrivingOutOfOrder() {
    AssemblerDriver d = driver(CONFIG);
    d.send(write("s1", "T2", 1, 1, "x", 2, 2_001));
    d.send(commit("s1", "T2", 1, 2, 2_002));
    d.send(write("s2", "U1", 0, 1, "y", 1, 2_003));
    d.send(commit("s2", "U1", 0, 2, 2_004));
    List<KeyValue<String, SpecificRecord>> beforeT1 = d.out();
    d.send(write("s1", "T1", 0, 1, "x", 1, 2_005));
    d.send(commit("s1", "T1", 0, 2, 2_006));

    assertThat(beforeT1).containsExactly(emitted(txn("s2", "U1", 0, TxnStatus.COMMITTED, 2_003, 2_004, w("y", 1))));
    assertThat(d.out()).containsExactly(
        emitted(txn("s1", "T1", 0, TxnStatus.COMMITTED, 2_005, 2_006, w("x", 1))),
        emitted(txn("s1", "T2", 1, TxnStatus.COMMITTED, 2_001, 2_002, w("x", 2))));
  }

  @Test
  void identicalDuplicatesAreIgnoredAndCounted() {
    AssemblerDriver d = driver(CONFIG);
    d.send(write("s1", "T1", 0, 1, "x", 1, 1_001));
    d.send(write("s1", "T1", 0, 1, "x", 1, 1_001));
    d.send(commit("s1", "T1", 0, 2, 1_002));
    d.send(commit("s1", "T1", 0, 2, 1_002));
    d.send(write("s1", "T1", 0, 1, "x", 1, 1_001));

    assertThat(d.out()).containsExactly(emitted(txn("s1", "T1", 0, TxnStatus.COMMITTED, 1_001, 1_002, w("x", 1))));
    assertThat(d.duplicates()).isEqualTo(3.0);
  }

  @Test
  void aConflictingDuplicateGoesToTheDeadLetterTopic() {
    AssemblerDriver d = driver(CONFIG);
    d.send(write("s1", "T1", 0, 1, "x", 1, 1_001));
    TxnEvent other = write("s1", "T1", 0, 1, "x", 2, 1_001);
    d.send(other);
    d.send(commit("s1", "T1", 0, 2, 1_002));

    assertThat(d.out()).containsExactly(
        dead("db/s1", RecordCodec.encode(other), 1,
            "conflicting-duplicate: WRITE at opIndex 1 of T1 differs from the event received first at that opIndex"),
        emitted(txn("s1", "T1", 0, TxnStatus.COMMITTED, 1_001, 1_002, w("x", 1))));
    assertThat(d.deadLetters("conflicting-duplicate")).isEqualTo(1.0);
  }

  @Test
  void malformedBytesGoToTheDeadLetterTopicWithTheirOffsetAndReason() {
    AssemblerDriver d = driver(CONFIG);
    byte[] valid = RecordCodec.encode(write("s1", "T1", 0, 1, "x", 1, 1_000));
    byte[] truncatedHeader = {(byte) 0xC3, 0x01, 0x11, 0x22};
    byte[] badMarker = valid.clone();
    badMarker[0] = 0x7B;
    byte[] unknownFingerprint = valid.clone();
    Arrays.fill(unknownFingerprint, 2, 10, (byte) 0x01);
    byte[] truncatedBody = Arrays.copyOf(valid, 14);
    d.send("db/s1", truncatedHeader, 1_000);
    d.send("db/s1", badMarker, 1_000);
    d.send("db/s1", unknownFingerprint, 1_000);
    d.send("db/s1", truncatedBody, 1_000);
    d.send("db/s1", null, 1_000);
    d.send("db/s1", new byte[0], 1_000);

    assertThat(d.out()).containsExactly(
        dead("db/s1", truncatedHeader, 0, "truncated: truncated header: 4 bytes, a single-object header needs 10"),
        dead("db/s1", badMarker, 1, "bad-marker: not Avro single-object encoding: marker 7B 01 at byte 0, expected C3 01"),
        dead("db/s1", unknownFingerprint, 2, "unknown-fingerprint: " + RecordCodec.decode(unknownFingerprint).error()),
        dead("db/s1", truncatedBody, 3, "bad-body: " + RecordCodec.decode(truncatedBody).error()),
        dead("db/s1", null, 4, "empty: null value (tombstone)"),
        dead("db/s1", new byte[0], 5, "empty: empty value"));
    assertThat(RecordCodec.decode(unknownFingerprint).error())
        .startsWith("unknown schema fingerprint 0x0101010101010101 at byte 2 (expected one of [");
    assertThat(RecordCodec.decode(truncatedBody).error()).startsWith("cannot read the TxnEvent body after byte 10 of 14: ");
    assertThat(d.deadLetters("truncated")).isEqualTo(1.0);
    assertThat(d.deadLetters("unknown-fingerprint")).isEqualTo(1.0);
  }

  @Test
  void aRecordOfAnotherTypeIsADeadLetter() {
    AssemblerDriver d = driver(CONFIG);
    byte[] letter = RecordCodec.encode(new io.isowatch.schemas.DeadLetter(null, "t", 0, 0L, "x"));
    d.send("db/s1", letter, 1_000);

    assertThat(d.out()).containsExactly(dead("db/s1", letter, 0,
        "wrong-type: a DeadLetter record on the events topic, which carries TxnEvent and Transaction records"));
  }

  @Test
  void aTransactionWithNoEndIsEmittedAsUnknownAfterTheOpenTimeout() {
    AssemblerDriver d = driver(CONFIG);
    d.send(begin("s1", "T1", 0, 0));
    d.send(write("s1", "T1", 0, 1, "x", 1, 10));
    d.send(read("s1", "T1", 0, 2, "y", null, 20));
    d.send(begin("s2", "U1", 0, 59_999));
    assertThat(d.out()).isEmpty();
    d.send(begin("s2", "U2", 1, 60_000));

    assertThat(d.out()).containsExactly(
        emitted(txn("s1", "T1", 0, TxnStatus.UNKNOWN, 0, 60_000, w("x", 1), r("y", null))));
  }

  @Test
  void aCommitWithMissingOperationsWaitsThenTheTransactionIsUnknownWithItsCompletePrefix() {
    AssemblerDriver d = driver(CONFIG);
    d.send(write("s1", "T1", 0, 1, "x", 1, 0));
    d.send(write("s1", "T1", 0, 3, "z", 3, 0));
    d.send(commit("s1", "T1", 0, 4, 0));
    d.send(write("s1", "T2", 1, 1, "x", 2, 1));
    d.send(commit("s1", "T2", 1, 2, 1));
    assertThat(d.out()).isEmpty();
    d.send(begin("s2", "U1", 0, 60_000));

    assertThat(d.out()).containsExactly(
        timerDead("db/s1", "incomplete-transaction: transaction T1 of session db/s1 is still incomplete PT1M after its"
            + " first event; opIndex 2 never arrived, so it is emitted with status UNKNOWN and operations 1..1,"
            + " leaving out opIndex 3, 4"),
        emitted(txn("s1", "T1", 0, TxnStatus.UNKNOWN, 0, 60_000, w("x", 1))),
        emitted(txn("s1", "T2", 1, TxnStatus.COMMITTED, 1, 1, w("x", 2))));
  }

  @Test
  void aGapIsReportedAfterTheSequenceGraceAndTheSessionMovesOn() {
    AssemblerDriver d = driver(CONFIG);
    d.send(write("s1", "T2", 1, 1, "x", 2, 0));
    d.send(commit("s1", "T2", 1, 2, 0));
    d.send(write("s1", "T4", 3, 1, "x", 4, 1));
    d.send(commit("s1", "T4", 3, 2, 1));
    d.send(begin("s2", "U1", 0, 29_999));
    assertThat(d.out()).isEmpty();
    d.send(begin("s2", "U2", 1, 30_000));
    List<KeyValue<String, SpecificRecord>> afterFirstGrace = d.out();
    d.send(begin("s2", "U3", 2, 60_000));
    List<KeyValue<String, SpecificRecord>> afterSecondGrace = d.out();
    TxnEvent late = commit("s1", "T1", 0, 1, 60_001);
    d.send(late);

    assertThat(afterFirstGrace).containsExactly(
        timerDead("db/s1", "sequence-gap: session db/s1 has no transaction at txnSeq 0 PT30S after a later one was"
            + " complete; moving on to txnSeq 1"),
        emitted(txn("s1", "T2", 1, TxnStatus.COMMITTED, 0, 0, w("x", 2))));
    assertThat(afterSecondGrace).containsExactly(
        timerDead("db/s1", "sequence-gap: session db/s1 has no transaction at txnSeq 2 PT30S after a later one was"
            + " complete; moving on to txnSeq 3"),
        emitted(txn("s1", "T4", 3, TxnStatus.COMMITTED, 1, 1, w("x", 4))));
    assertThat(d.out()).containsExactly(dead("db/s1", RecordCodec.encode(late), 7,
        "late-event: transaction T1 has txnSeq 0 but session db/s1 has moved on to txnSeq 4"));
    assertThat(d.deadLetters("sequence-gap")).isEqualTo(2.0);
  }

  @Test
  void aGapThatFillsInTimeIsNotReported() {
    AssemblerDriver d = driver(CONFIG);
    d.send(commit("s1", "T2", 1, 1, 0));
    d.send(commit("s1", "T1", 0, 1, 29_000));
    d.send(begin("s2", "U1", 0, 40_000));

    assertThat(d.out()).containsExactly(
        emitted(txn("s1", "T1", 0, TxnStatus.COMMITTED, 29_000, 29_000)),
        emitted(txn("s1", "T2", 1, TxnStatus.COMMITTED, 0, 0)));
  }

  @Test
  void wholeTransactionsPassThroughInSessionOrderAndDuplicatesAreIgnored() {
    AssemblerDriver d = driver(CONFIG);
    Transaction t1 = txn("s1", "T1", 0, TxnStatus.COMMITTED, 1_000, 1_001, w("x", 1), r("y", null));
    Transaction t2 = txn("s1", "T2", 1, TxnStatus.ABORTED, 1_002, 1_003, a("l", 1));
    Transaction t2Changed = txn("s1", "T2", 1, TxnStatus.COMMITTED, 1_002, 1_003, a("l", 1));
    d.send(t2, 1_003);
    d.send(t1, 1_004);
    d.send(t1, 1_005);
    d.send(t2Changed, 1_006);

    assertThat(d.out()).containsExactly(emitted(t1), emitted(t2),
        dead("db/s1", RecordCodec.encode(t2Changed), 3,
            "conflicting-duplicate: transaction T2 arrived before as a different Transaction record"));
    assertThat(d.duplicates()).isEqualTo(1.0);
  }

  @Test
  void protocolErrorsGoToTheDeadLetterTopicWithPreciseReasons() {
    AssemblerDriver d = driver(CONFIG);
    TxnEvent negativeSeq = commit("s1", "T9", -1, 1, 0);
    TxnEvent negativeOp = event("s1", "T9", 0, -3, EventKind.READ, "x", null, 0);
    TxnEvent wrongKey = write("s1", "T1", 0, 1, "x", 1, 0);
    d.send(negativeSeq);
    d.send(negativeOp);
    d.send("db/s2", RecordCodec.encode(wrongKey), 0);
    d.send(write("s1", "T1", 0, 1, "x", 1, 0));
    d.send(commit("s1", "T1", 0, 2, 0));
    TxnEvent afterCommit = write("s1", "T1", 0, 3, "x", 3, 0);
    TxnEvent otherSession = write("s2", "T1", 0, 1, "x", 4, 0);
    TxnEvent sameSeq = commit("s1", "T5", 1, 1, 0);
    d.send(afterCommit);
    d.send(otherSession);
    d.send(write("s1", "T2", 1, 1, "y", 1, 0));
    d.send(sameSeq);
    TxnEvent secondEnd = event("s1", "T2", 1, 3, EventKind.ABORT, null, null, 0);
    TxnEvent opAfterEnd = write("s1", "T2", 1, 3, "y", 3, 0);
    d.send(commit("s1", "T2", 1, 2, 0));
    d.send(write("s1", "T3", 2, 1, "y", 1, 0));
    d.send(write("s1", "T3", 2, 3, "y", 3, 0));
    TxnEvent endBeforeOp = commit("s1", "T3", 2, 2, 0);
    d.send(endBeforeOp);
    TxnEvent beginWithKey = event("s1", "T3", 2, 0, EventKind.BEGIN, "k", null, 0);
    TxnEvent writeWithList = event("s1", "T3", 2, 2, EventKind.WRITE, "k", List.of(1L), 0);
    d.send(beginWithKey);
    d.send(writeWithList);

    assertThat(d.out()).containsExactly(
        dead("db/s1", RecordCodec.encode(negativeSeq), 0, "negative-sequence: txnSeq -1 of transaction T9"),
        dead("db/s1", RecordCodec.encode(negativeOp), 1, "negative-sequence: opIndex -3 of transaction T9"),
        dead("db/s2", RecordCodec.encode(wrongKey), 2,
            "key-mismatch: record key \"db/s2\" but the record is of session \"db/s1\" of transaction T1"),
        emitted(txn("s1", "T1", 0, TxnStatus.COMMITTED, 0, 0, w("x", 1))),
        dead("db/s1", RecordCodec.encode(afterCommit), 5, "op-after-end: WRITE at opIndex 3 of T1 comes after its COMMIT at opIndex 2"),
        dead("db/s2", RecordCodec.encode(otherSession), 6, "txn-id-reused: transaction T1 belongs to session db/s1, not db/s2"),
        dead("db/s1", RecordCodec.encode(sameSeq), 8,
            "duplicate-sequence: transaction T5 claims txnSeq 1 of session db/s1, which transaction T2 holds"),
        emitted(txn("s1", "T2", 1, TxnStatus.COMMITTED, 0, 0, w("y", 1))),
        dead("db/s1", RecordCodec.encode(endBeforeOp), 12, "op-after-end: COMMIT at opIndex 2 of T3: an operation at opIndex 3 was already received"),
        dead("db/s1", RecordCodec.encode(beginWithKey), 13, "bad-event: BEGIN of T3 at opIndex 0 carries a key"),
        dead("db/s1", RecordCodec.encode(writeWithList), 14, "bad-event: WRITE of T3 at opIndex 2 has a list value, WRITE takes one long"));
    d.send(secondEnd);
    d.send(opAfterEnd);
    assertThat(d.out()).containsExactly(
        dead("db/s1", RecordCodec.encode(secondEnd), 15, "op-after-end: ABORT at opIndex 3 of T2 comes after its COMMIT at opIndex 2"),
        dead("db/s1", RecordCodec.encode(opAfterEnd), 16, "op-after-end: WRITE at opIndex 3 of T2 comes after its COMMIT at opIndex 2"));
  }

  @Test
  void aSecondEndOfAnOpenTransactionConflicts() {
    AssemblerDriver d = driver(CONFIG);
    d.send(commit("s1", "T1", 0, 3, 0));
    TxnEvent abort = event("s1", "T1", 0, 2, EventKind.ABORT, null, null, 0);
    d.send(abort);

    assertThat(d.out()).containsExactly(dead("db/s1", RecordCodec.encode(abort), 1,
        "conflicting-end: ABORT at opIndex 2 of T1: the transaction already ended with COMMIT at opIndex 3"));
  }

  @Test
  void limitsAreEnforcedWithDeadLetters() {
    MonitorConfig limited = CONFIG.withLimits(new MonitorConfig.Limits(2, 2, 100, 8, 3, 1 << 20));
    AssemblerDriver d = driver(limited);
    TxnEvent thirdOp = write("s1", "T1", 0, 3, "x", 3, 0);
    TxnEvent longEnd = commit("s1", "T1", 0, 4, 0);
    TxnEvent longKey = write("s1", "T1", 0, 1, "123456789", 3, 0);
    TxnEvent longList = read("s1", "T1", 0, 1, "x", List.of(1L, 2L, 3L, 4L), 0);
    TxnEvent longTxnId = commit("s1", "T123456789", 0, 1, 0);
    Transaction wide = txn("s2", "W1", 0, TxnStatus.COMMITTED, 0, 0, w("x", 1), w("y", 1), w("z", 1));
    d.send(thirdOp);
    d.send(longEnd);
    d.send(longKey);
    d.send(longList);
    d.send(longTxnId);
    d.send(wide, 0);
    d.send(write("s3", "V1", 0, 1, "x", 1, 0));
    d.send(write("s3", "V2", 1, 1, "x", 1, 0));
    TxnEvent third = write("s3", "V3", 2, 1, "x", 1, 0);
    d.send(third);

    assertThat(d.out()).containsExactly(
        dead("db/s1", RecordCodec.encode(thirdOp), 0,
            "too-many-operations: WRITE of T1 at opIndex 3 is past the limit of 2 operations per transaction"),
        dead("db/s1", RecordCodec.encode(longEnd), 1,
            "too-many-operations: COMMIT of T1 at opIndex 4 ends a transaction of 3 operations, the limit is 2"),
        dead("db/s1", RecordCodec.encode(longKey), 2, "oversized-field: WRITE of T1 at opIndex 1: key is 9 bytes, the limit is 8"),
        dead("db/s1", RecordCodec.encode(longList), 3,
            "oversized-field: READ of T1 at opIndex 1: the list read has 4 elements, the limit is 3"),
        dead("db/s1", RecordCodec.encode(longTxnId), 4, "oversized-field: txnId is 10 bytes, the limit is 8"),
        dead("db/s2", RecordCodec.encode(wide), 5, "too-many-operations: transaction W1 has 3 operations, the limit is 2"),
        dead("db/s3", RecordCodec.encode(third), 8,
            "too-many-open-transactions: session db/s3 has 2 transactions open or waiting, the limit; transaction V3 refused"));
    assertThat(d.deadLetters("too-many-operations")).isEqualTo(3.0);
  }

  @Test
  void duplicatesAreRecognisedForTheRetentionThenLateCopiesAreDeadLetters() {
    AssemblerDriver d = driver(CONFIG.withDuplicateRetention(Duration.ofSeconds(10)));
    byte[] t1 = RecordCodec.encode(commit("s1", "T1", 0, 1, 0));
    d.send("db/s1", t1, 0);
    d.send("db/s1", t1, 9_000);
    d.send(begin("s2", "U1", 0, 10_000));
    d.send("db/s1", t1, 10_001);

    assertThat(d.out()).containsExactly(
        emitted(txn("s1", "T1", 0, TxnStatus.COMMITTED, 0, 0)),
        dead("db/s1", t1, 3,
            "late-event: transaction T1 has txnSeq 0 but session db/s1 has moved on to txnSeq 1"));
    assertThat(d.duplicates()).isEqualTo(1.0);
  }

  /**
   * The assembler task sends its partition's progress in each history's event time (the largest
   * event time of the history's records accepted), keyed by the history, to the checker stage on a
   * wall-clock punctuation, when it changed; it says idle only after reading nothing for
   * the idle time while holding no transaction open, and the first record after that sends a busy
   * watermark before anything else.
   */
  @Test
  void theAssemblerSendsItsPartitionsProgressAndIdlenessAsWatermarks() {
    MonitorConfig config = CONFIG.withSources(new MonitorConfig.Sources(3, Duration.ofSeconds(5), Duration.ofMinutes(5)));
    try (AssemblerDriver d = new AssemblerDriver(config, stateDir)) {
      d.send(begin("s1", "T1", 0, 1_000));
      d.send(write("s1", "T1", 0, 1, "x", 1, 1_001));
      d.wallClock(SessionAssembler.WATERMARK_INTERVAL);
      assertThat(d.out()).containsExactly(watermark(1_001_000L, false));
      d.wallClock(Duration.ofSeconds(10));
      assertThat(d.out()).isEmpty(); // T1 is open: not idle, and the time did not move
      d.send(commit("s1", "T1", 0, 2, 1_002));
      assertThat(d.out()).containsExactly(emitted(txn("s1", "T1", 0, TxnStatus.COMMITTED, 1_000, 1_002, w("x", 1))));
      d.wallClock(SessionAssembler.WATERMARK_INTERVAL);
      assertThat(d.out()).containsExactly(watermark(1_002_000L, false));
      d.wallClock(Duration.ofSeconds(5));
      assertThat(d.out()).containsExactly(watermark(1_002_000L, true));
      d.send(begin("s2", "U1", 0, 900));
      assertThat(d.out()).containsExactly(watermark(1_002_000L, false));
    }
  }

  private static KeyValue<String, SpecificRecord> watermark(long micros, boolean idle) {
    return KeyValue.pair(AssemblerDriver.H, new SourceWatermark(AssemblerDriver.H, 0, 3, micros, idle));
  }

  /**
   * A restart in the middle of a transaction: the new processor instance holds none of its events in
   * memory, so it compares a duplicate with, and assembles the transaction from, the events store.
   * Processor-level, two instances on one set of stores without changelog or cache (what a
   * restarted task finds after the last commit; {@code MonitorCrashTest} kills a real one).
   */
  @Test
  void aTransactionBegunBeforeARestartIsAssembledFromTheStoreAfterIt() {
    MonitorMetrics metrics = MonitorMetrics.inMemory();
    var supplier = SessionAssembler.supplier(CONFIG, metrics);
    List<StateStore> stores = new ArrayList<>();
    try {
      for (StoreBuilder<?> b : supplier.stores()) {
        stores.add(b.withLoggingDisabled().withCachingDisabled().build());
      }
      MockProcessorContext<String, SpecificRecord> before = mockContext(stores, true);
      var p1 = supplier.get();
      p1.init(before);
      for (TxnEvent e : List.of(begin("s1", "T1", 0, 1_000), write("s1", "T1", 0, 1, "x", 1, 1_001))) {
        p1.process(new Record<>("db/s1", RecordCodec.encode(e), 1_000));
      }
      MockProcessorContext<String, SpecificRecord> after = mockContext(stores, false);
      var p2 = supplier.get();
      p2.init(after);
      for (TxnEvent e : List.of(write("s1", "T1", 0, 1, "x", 1, 1_001), read("s1", "T1", 0, 2, "y", 7L, 1_002),
          commit("s1", "T1", 0, 3, 1_003))) {
        p2.process(new Record<>("db/s1", RecordCodec.encode(e), 1_003));
      }

      assertThat(before.forwarded()).isEmpty();
      assertThat(after.forwarded()).extracting(f -> KeyValue.pair(f.record().key(), f.record().value()))
          .containsExactly(emitted(txn("s1", "T1", 0, TxnStatus.COMMITTED, 1_000, 1_003, w("x", 1), r("y", 7L))));
      assertThat(metrics.registry().get("isowatch.input.duplicates").counter().count()).isEqualTo(1.0);
    } finally {
      stores.forEach(StateStore::close);
    }
  }

  /**
   * Whole transactions emitted on arrival are remembered in chunks of {@value WholeRetention#PER_CHUNK}
   * in the deadlines store, not one state and one timer each. Across two restarts (processor
   * instances on one set of stores, without changelog or cache) and a punctuation that forgets
   * part of a chunk, every copy is told apart exactly as before: identical copies ignored, changed
   * ones, other sessions, other txnSeqs and events of the same txnId rejected, forgotten ones late.
   */
  @Test
  void wholeTransactionsEmittedOnArrivalAreRememberedInChunksAcrossRestarts() {
    MonitorConfig config = CONFIG.withDuplicateRetention(Duration.ofSeconds(10));
    MonitorMetrics metrics = MonitorMetrics.inMemory();
    var supplier = SessionAssembler.supplier(config, metrics);
    List<StateStore> stores = new ArrayList<>();
    try {
      for (StoreBuilder<?> b : supplier.stores()) {
        stores.add(b.withLoggingDisabled().withCachingDisabled().build());
      }
      List<Transaction> s1 = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        s1.add(txn("s1", "T" + i, i, TxnStatus.COMMITTED, 1_000 + 100 * i, 1_000 + 100 * i, w("x", i)));
      }
      Transaction u0 = txn("s2", "U0", 0, TxnStatus.COMMITTED, 4_950, 4_950, r("x", 39L));

      MockProcessorContext<String, SpecificRecord> first = mockContext(stores, true);
      var p1 = supplier.get();
      p1.init(first);
      for (Transaction t : s1) {
        p1.process(new Record<>("db/s1", RecordCodec.encode(t), t.getEndTime().toEpochMilli()));
      }
      p1.process(new Record<>("db/s2", RecordCodec.encode(u0), 4_950));

      assertThat(first.forwarded()).extracting(f -> KeyValue.pair(f.record().key(), f.record().value()))
          .containsExactlyElementsOf(concat(s1.stream().map(AssemblerDriver::emitted).toList(), List.of(emitted(u0))));
      @SuppressWarnings("unchecked")
      KeyValueStore<String, byte[]> deadlines = (KeyValueStore<String, byte[]>) stores.stream()
          .filter(st -> st.name().equals(AssemblerStores.DEADLINES)).findFirst().orElseThrow();
      // T0..T31 in the first chunk (due 11.0 s), T32..T39 and U0 in the second (due 14.2 s)
      assertThat(chunks(deadlines)).containsExactly(
          KeyValue.pair("w0000000000000011000\0T0", ids(0, 32)),
          KeyValue.pair("w0000000000000014200\0T32", concat(ids(32, 40), List.of("U0"))));
      assertThat(count(stores, AssemblerStores.TRANSACTIONS)).isZero();

      Transaction t35Changed = txn("s1", "T35", 35, TxnStatus.ABORTED, 4_500, 4_500, w("x", 35));
      Transaction t7Elsewhere = txn("s2", "T7", 1, TxnStatus.COMMITTED, 5_000, 5_000);
      Transaction t8OtherSeq = txn("s1", "T8", 41, TxnStatus.COMMITTED, 5_000, 5_000);
      TxnEvent t9Event = commit("s1", "T9", 9, 1, 5_000);
      MockProcessorContext<String, SpecificRecord> second = mockContext(stores, false);
      var p2 = supplier.get();
      p2.init(second);
      p2.process(new Record<>("db/s1", RecordCodec.encode(s1.get(5)), 5_000));
      p2.process(new Record<>("db/s1", RecordCodec.encode(t35Changed), 5_000));
      p2.process(new Record<>("db/s2", RecordCodec.encode(t7Elsewhere), 5_000));
      p2.process(new Record<>("db/s1", RecordCodec.encode(t8OtherSeq), 5_000));
      p2.process(new Record<>("db/s1", RecordCodec.encode(t9Event), 5_000));
      // due at or before 13.0 s: T0..T20, from the first chunk
      second.scheduledPunctuators().get(0).getPunctuator().punctuate(13_000);
      p2.process(new Record<>("db/s1", RecordCodec.encode(s1.get(20)), 13_000));
      p2.process(new Record<>("db/s1", RecordCodec.encode(s1.get(21)), 13_000));

      String topic = config.eventsTopic();
      assertThat(second.forwarded()).extracting(f -> KeyValue.pair(f.record().key(), f.record().value()))
          .containsExactly(
              KeyValue.pair("db/s1", deadLetter(topic, t35Changed,
                  "conflicting-duplicate: transaction T35 arrived before as a different Transaction record")),
              KeyValue.pair("db/s2", deadLetter(topic, t7Elsewhere,
                  "txn-id-reused: transaction T7 belongs to session db/s1, not db/s2")),
              KeyValue.pair("db/s1", deadLetter(topic, t8OtherSeq,
                  "conflicting-duplicate: transaction T8 has txnSeq 8, this record says 41")),
              KeyValue.pair("db/s1", deadLetter(topic, t9Event,
                  "conflicting-duplicate: COMMIT at opIndex 1 of T9: the transaction arrived as a whole Transaction record")),
              KeyValue.pair("db/s1", deadLetter(topic, s1.get(20),
                  "late-event: transaction T20 has txnSeq 20 but session db/s1 has moved on to txnSeq 40")));
      // the rest of the first chunk rewritten under the due time of its earliest entry, T21 (11.0 + 2.1 s)
      assertThat(chunks(deadlines)).containsExactly(
          KeyValue.pair("w0000000000000013100\0T21", ids(21, 32)),
          KeyValue.pair("w0000000000000014200\0T32", concat(ids(32, 40), List.of("U0"))));

      MockProcessorContext<String, SpecificRecord> third = mockContext(stores, false);
      var p3 = supplier.get();
      p3.init(third);
      p3.process(new Record<>("db/s1", RecordCodec.encode(s1.get(3)), 13_000));
      p3.process(new Record<>("db/s1", RecordCodec.encode(s1.get(31)), 13_000));
      p3.process(new Record<>("db/s2", RecordCodec.encode(u0), 13_000));
      third.scheduledPunctuators().get(0).getPunctuator().punctuate(14_950);
      p3.process(new Record<>("db/s1", RecordCodec.encode(s1.get(39)), 14_950));

      assertThat(third.forwarded()).extracting(f -> KeyValue.pair(f.record().key(), f.record().value()))
          .containsExactly(
              KeyValue.pair("db/s1", deadLetter(topic, s1.get(3),
                  "late-event: transaction T3 has txnSeq 3 but session db/s1 has moved on to txnSeq 40")),
              KeyValue.pair("db/s1", deadLetter(topic, s1.get(39),
                  "late-event: transaction T39 has txnSeq 39 but session db/s1 has moved on to txnSeq 40")));
      assertThat(chunks(deadlines)).isEmpty();
      assertThat(metrics.registry().get("isowatch.input.duplicates").counter().count()).isEqualTo(4.0);
    } finally {
      stores.forEach(StateStore::close);
    }
  }

  /** @return the chunks of {@link WholeRetention} in the deadlines store: key and the txnIds in it */
  private static List<KeyValue<String, List<String>>> chunks(KeyValueStore<String, byte[]> deadlines) {
    List<KeyValue<String, List<String>>> out = new ArrayList<>();
    try (var it = deadlines.range("w", "x")) {
      it.forEachRemaining(kv -> out.add(KeyValue.pair(kv.key,
          WholeRetention.entries(kv.value).stream().map(WholeRetention.Entry::txnId).toList())));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static long count(List<StateStore> stores, String name) {
    var store = (KeyValueStore<String, byte[]>) stores.stream().filter(st -> st.name().equals(name)).findFirst().orElseThrow();
    return store.approximateNumEntries();
  }

  private static List<String> ids(int from, int to) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add("T" + i);
    }
    return out;
  }

  private static <T> List<T> concat(List<? extends T> a, List<? extends T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /** @return the dead letter of {@code r} processed without record metadata (topic, partition 0, offset -1) */
  private static DeadLetter deadLetter(String topic, SpecificRecord r, String reason) {
    return new DeadLetter(ByteBuffer.wrap(RecordCodec.encode(r)), topic, 0, -1L, reason);
  }

  private MockProcessorContext<String, SpecificRecord> mockContext(List<StateStore> stores, boolean initStores) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "assembler-restart-test");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    MockProcessorContext<String, SpecificRecord> ctx = new MockProcessorContext<>(p, new TaskId(0, 0), stateDir.toFile());
    ctx.setCurrentSystemTimeMs(0); // the wall clock of the watermark's idleness
    for (StateStore st : stores) {
      if (initStores) {
        st.init(ctx.getStateStoreContext(), st);
      }
      ctx.addStateStore(st);
    }
    return ctx;
  }
}
