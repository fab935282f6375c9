package io.isowatch.connectors.debezium.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.RecordCodec;
import java.io.Flushable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The relay on hand-written outbox change events: a good row becomes its transaction with the
 * database's xid and LSN; what is not an outbox insert is skipped; a row that cannot be read is
 * rejected with its reason and counted, never delivered.
 */
class OutboxRelayTest {
  private static String event(String table, String op, String record) {
    return "{\"before\":null,\"after\":{\"id\":1,\"txn_id\":\"h/s/0\",\"record\":" + record + "},"
        + "\"source\":{\"connector\":\"postgresql\",\"schema\":\"public\",\"table\":\"" + table + "\","
        + "\"txId\":900,\"lsn\":5000},\"op\":\"" + op + "\"}";
  }

  @Test
  void deliversGoodRowsSkipsOthersAndRejectsUnreadableOnes() {
    Transaction txn = new Transaction("h", "s", "h/s/0", 0L, TxnStatus.COMMITTED,
        List.of(new Operation(OpKind.WRITE, "x", 1L)), Instant.ofEpochSecond(1), Instant.ofEpochSecond(2), null);
    String good = "\"" + Base64.getEncoder().encodeToString(RecordCodec.encode(txn)) + "\"";
    List<Transaction> out = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    OutboxRelay relay = new OutboxRelay(out::add, (reason, value) -> reasons.add(reason));

    relay.handle("t", null, event(OutboxSink.TABLE, "c", good));
    relay.handle("t", null, event(OutboxSink.TABLE, "d", good));
    relay.handle("t", null, event("other_table", "c", good));
    relay.handle("t", null, "{\"status\":\"END\",\"id\":\"900:5000\",\"event_count\":1}");
    relay.handle("t", null, null);
    relay.handle("t", null, event(OutboxSink.TABLE, "c", "\"AAEC\""));
    relay.handle("t", null, event(OutboxSink.TABLE, "c", "\"%%%\""));
    relay.handle("t", null, event(OutboxSink.TABLE, "c", "null"));
    relay.handle("t", null, "{\"op\":");

    Transaction expected = new Transaction("h", "s", "h/s/0", 0L, TxnStatus.COMMITTED,
        List.of(new Operation(OpKind.WRITE, "x", 1L)), Instant.ofEpochSecond(1), Instant.ofEpochSecond(2),
        new Source("900", 5000L, null));
    assertThat(out).containsExactly(expected);
    assertThat(reasons).containsExactly(
        "truncated: truncated header: 3 bytes, a single-object header needs 10",
        "bad-row: record is not base64: Illegal base64 character 25",
        "bad-row: outbox insert without a record column",
        "bad-envelope: not JSON: Unexpected end-of-input within/between Object entries");
    assertThat(relay.rejected()).isEqualTo(4);
  }

  /** A sink that keeps what it takes and counts its flushes. */
  private static final class FlushCountingSink implements TransactionSink, Flushable {
    final List<Transaction> taken = new ArrayList<>();
    int flushes;

    @Override
    public void accept(Transaction txn) {
      taken.add(txn);
    }

    @Override
    public void flush() {
      flushes++;
    }
  }

  @Test
  void flushesAFlushableSinkAtTheEndOfEachBatch() throws Exception {
    FlushCountingSink sink = new FlushCountingSink();
    OutboxRelay relay = new OutboxRelay(sink, (reason, value) -> { });
    relay.endBatch();
    relay.endBatch();
    assertThat(sink.flushes).isEqualTo(2);
  }
}
