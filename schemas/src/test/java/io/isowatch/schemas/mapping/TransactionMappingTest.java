package io.isowatch.schemas.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.window.RejectedTransactionException;
import io.isowatch.checker.window.WindowTxn;
import io.isowatch.schemas.EventTimes;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Samples;
import io.isowatch.schemas.Transaction;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransactionMappingTest {
  private static final Transaction SAMPLE = Samples.transaction();

  @Test
  void aRecordBecomesTheWindowTransactionOfItsOperationsAndBack() {
    WindowTxn w = TransactionMapping.toWindow(SAMPLE);

    assertThat(w).isEqualTo(WindowTxn.builder("orders-db/s2/0", "s2", EventTimes.micros(SAMPLE.getEndTime()),
        TxnStatus.COMMITTED).read("x", History.NIL).write("x", 5).append("l", 12).readList("l", new long[] {11, 12})
        .build());
    assertThat(TransactionMapping.toAvro("orders-db", w)).isEqualTo(new Transaction("orders-db", "s2",
        "orders-db/s2/0", 0L, io.isowatch.schemas.TxnStatus.COMMITTED, SAMPLE.getOps(), SAMPLE.getEndTime(),
        SAMPLE.getEndTime(), null));
  }

  @Test
  void aRecordAddedToAHistoryIsAClosedTransactionOfItsSession() {
    History h = new History();

    int t = TransactionMapping.addToHistory(SAMPLE, 7, h);

    assertThat(h.label(t)).isEqualTo(7);
    assertThat(h.sessionName(h.sessionOf(t))).isEqualTo("s2");
    assertThat(h.status(t)).isEqualTo(TxnStatus.COMMITTED);
    int op = h.opStart(t);
    assertThat(new byte[] {h.opKind(op), h.opKind(op + 1), h.opKind(op + 2), h.opKind(op + 3)})
        .containsExactly(OpKind.READ, OpKind.WRITE, OpKind.APPEND, OpKind.READ_LIST);
    assertThat(new long[] {h.opValue(op), h.opValue(op + 1), h.opValue(op + 2)}).containsExactly(History.NIL, 5, 12);
    assertThat(new long[] {h.listElement(op + 3, 0), h.listElement(op + 3, 1)}).containsExactly(11, 12);
    assertThat(TransactionMapping.operations(h, t)).isEqualTo(SAMPLE.getOps());
  }

  @Test
  void readsWhoseResultIsUnknownAreLeftOut() {
    History h = new History();
    h.beginTxn(h.session("s"), 1);
    h.read(h.key("x"), History.UNKNOWN_VALUE);
    h.readListUnknown(h.key("l"));
    h.write(h.key("x"), 3);
    int t = h.end(TxnStatus.UNKNOWN);

    assertThat(TransactionMapping.operations(h, t))
        .containsExactly(new Operation(io.isowatch.schemas.OpKind.WRITE, "x", 3L));
  }

  @Test
  void valuesOfTheWrongShapeAreRejectedNamingTheOperation() {
    assertRejected(new Operation(io.isowatch.schemas.OpKind.WRITE, "x", null),
        "operation 1 of T9 writes null; a write needs a long value");
    assertRejected(new Operation(io.isowatch.schemas.OpKind.APPEND, "x", List.of(1L)),
        "operation 1 of T9 appends a list; an append needs a long element");
    assertRejected(new Operation(io.isowatch.schemas.OpKind.READ, "x", Arrays.asList(1L, null)),
        "operation 1 of T9 reads a list whose element 1 is null");
    assertRejected(new Operation(io.isowatch.schemas.OpKind.READ, "x", ByteBuffer.allocate(1)),
        "operation 1 of T9 reads a value of type HeapByteBuffer");
  }

  private static void assertRejected(Operation bad, String reason) {
    Transaction t = new Transaction("h", "s", "T9", 0L, io.isowatch.schemas.TxnStatus.ABORTED,
        List.of(new Operation(io.isowatch.schemas.OpKind.READ, "y", 1L), bad), SAMPLE.getEndTime(),
        SAMPLE.getEndTime(), null);
    for (Runnable mapping : List.<Runnable>of(() -> TransactionMapping.toWindow(t),
        () -> TransactionMapping.addToHistory(t, 1, new History()))) {
      assertThatThrownBy(mapping::run).isInstanceOf(RejectedTransactionException.class).hasMessage(reason)
          .extracting(e -> ((RejectedTransactionException) e).reasonClass())
          .isEqualTo(RejectedTransactionException.BAD_VALUE);
    }
  }
}
