package io.isowatch.stream.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A small history as exact event and transaction records. */
class HistoryRecordsTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  /**
   * s1 T1: w x 1, r y init | committed; s2 T2: r x 1, append l 5, r l [5] | aborted; s1 T3: r x ?
   * (unknown), w x 2 | outcome unknown.
   */
  private static History history() {
    History h = new History();
    int s1 = h.session("s1");
    int s2 = h.session("s2");
    int x = h.key("x");
    int y = h.key("y");
    int l = h.key("l");
    h.beginTxn(s1, 1);
    h.write(x, 1);
    h.read(y, History.NIL);
    h.end(TxnStatus.COMMITTED);
    h.beginTxn(s2, 2);
    h.read(x, 1);
    h.append(l, 5);
    h.readList(l, new long[] {5}, 0, 1);
    h.end(TxnStatus.ABORTED);
    h.beginTxn(s1, 3);
    h.read(x, History.UNKNOWN_VALUE);
    h.write(x, 2);
    h.end(TxnStatus.UNKNOWN);
    return h;
  }

  @Test
  void eventsAreBeginOperationsAndEndWithOpIndexAndTxnSeq() {
    HistoryRecords records = new HistoryRecords(history(), "h", START, Duration.ofMillis(1));
    List<HistoryRecords.Keyed> got = new ArrayList<>();
    records.forEachEvent(got::add);
    assertThat(got).containsExactly(
        keyed("h/s1", ev("s1", "h/T1", 0, 0, EventKind.BEGIN, null, null, 0)),
        keyed("h/s1", ev("s1", "h/T1", 0, 1, EventKind.WRITE, "x", 1L, 1)),
        keyed("h/s1", ev("s1", "h/T1", 0, 2, EventKind.READ, "y", null, 2)),
        keyed("h/s1", ev("s1", "h/T1", 0, 3, EventKind.COMMIT, null, null, 3)),
        keyed("h/s2", ev("s2", "h/T2", 0, 0, EventKind.BEGIN, null, null, 4)),
        keyed("h/s2", ev("s2", "h/T2", 0, 1, EventKind.READ, "x", 1L, 5)),
        keyed("h/s2", ev("s2", "h/T2", 0, 2, EventKind.APPEND, "l", 5L, 6)),
        keyed("h/s2", ev("s2", "h/T2", 0, 3, EventKind.READ, "l", List.of(5L), 7)),
        keyed("h/s2", ev("s2", "h/T2", 0, 4, EventKind.ABORT, null, null, 8)),
        keyed("h/s1", ev("s1", "h/T3", 1, 0, EventKind.BEGIN, null, null, 9)),
        keyed("h/s1", ev("s1", "h/T3", 1, 1, EventKind.WRITE, "x", 2L, 10)));
    assertThat(records.unknownReadsLeftOut()).isEqualTo(1);
    assertThat(records.events()).isEqualTo(12);
  }

  @Test
  void wholeTransactionsCarryStatusOperationsAndTimes() {
    HistoryRecords records = new HistoryRecords(history(), "h", START, Duration.ofMillis(1));
    List<HistoryRecords.Keyed> got = new ArrayList<>();
    records.forEachTransaction(got::add);
    assertThat(got).containsExactly(
        keyed("h/s1", txn("s1", "h/T1", 0, io.isowatch.schemas.TxnStatus.COMMITTED, 0, 3,
            op(OpKind.WRITE, "x", 1L), op(OpKind.READ, "y", null))),
        keyed("h/s2", txn("s2", "h/T2", 0, io.isowatch.schemas.TxnStatus.ABORTED, 4, 8,
            op(OpKind.READ, "x", 1L), op(OpKind.APPEND, "l", 5L), op(OpKind.READ, "l", List.of(5L)))),
        keyed("h/s1", txn("s1", "h/T3", 1, io.isowatch.schemas.TxnStatus.UNKNOWN, 9, 11,
            op(OpKind.WRITE, "x", 2L))));
    assertThat(records.unknownReadsLeftOut()).isEqualTo(1);
  }

  @Test
  void repeatedLabelsGiveIndexIds() {
    History h = new History();
    int s = h.session("s");
    int x = h.key("x");
    for (int i = 0; i < 2; i++) {
      h.beginTxn(s, 7);
      h.write(x, i + 1);
      h.end(TxnStatus.COMMITTED);
    }
    HistoryRecords records = new HistoryRecords(h, "h", START, Duration.ofMillis(1));
    assertThat(List.of(records.txnId(0), records.txnId(1))).containsExactly("h/T#0", "h/T#1");
  }

  private static HistoryRecords.Keyed keyed(String key, org.apache.avro.specific.SpecificRecord r) {
    return new HistoryRecords.Keyed(key, r);
  }

  private static TxnEvent ev(String session, String txn, long seq, int opIndex, EventKind kind, String key,
      Object value, long millis) {
    return TxnEvent.newBuilder().setHistoryId("h").setSessionId(session).setTxnId(txn).setTxnSeq(seq)
        .setOpIndex(opIndex).setKind(kind).setKey(key).setValue(value)
        .setTime(START.plusMillis(millis)).build();
  }

  private static Operation op(OpKind kind, String key, Object value) {
    return Operation.newBuilder().setKind(kind).setKey(key).setValue(value).build();
  }

  private static Transaction txn(String session, String txn, long seq, io.isowatch.schemas.TxnStatus status,
      long begin, long end, Operation... ops) {
    return Transaction.newBuilder().setHistoryId("h").setSessionId(session).setTxnId(txn).setTxnSeq(seq)
        .setStatus(status).setOps(List.of(ops)).setBeginTime(START.plusMillis(begin))
        .setEndTime(START.plusMillis(end)).build();
  }
}
