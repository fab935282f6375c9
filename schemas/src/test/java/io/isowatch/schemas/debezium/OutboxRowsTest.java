package io.isowatch.schemas.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.RecordCodec;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each kind of change event of the outbox's topic, read to exactly one {@link OutboxRows.Row}. */
class OutboxRowsTest {
  private static final Transaction TXN = new Transaction("h", "s", "h/s/0", 0L, TxnStatus.COMMITTED,
      List.of(new Operation(OpKind.APPEND, "x", 1L)), Instant.ofEpochSecond(1), Instant.ofEpochSecond(2), null);
  private static final String RECORD = "\"" + Base64.getEncoder().encodeToString(RecordCodec.encode(TXN)) + "\"";

  private static String payload(String table, String op, String record) {
    return "{\"before\":null,\"after\":{\"id\":1,\"txn_id\":\"h/s/0\",\"record\":" + record + "},"
        + "\"source\":{\"connector\":\"postgresql\",\"schema\":\"public\",\"table\":\"" + table + "\","
        + "\"txId\":900,\"lsn\":5000},\"op\":\"" + op + "\"}";
  }

  @Test
  void anInsertWithOrWithoutSchemaIsItsTransactionWithTheDatabasesXidAndLsn() {
    Transaction expected = new Transaction("h", "s", "h/s/0", 0L, TxnStatus.COMMITTED,
        List.of(new Operation(OpKind.APPEND, "x", 1L)), Instant.ofEpochSecond(1), Instant.ofEpochSecond(2),
        new Source("900", 5000L, null));
    assertThat(OutboxRows.read(payload(OutboxRows.TABLE, "c", RECORD))).isEqualTo(new OutboxRows.Published(expected));
    assertThat(OutboxRows.read("{\"schema\":{\"type\":\"struct\"},\"payload\":" + payload(OutboxRows.TABLE, "c", RECORD) + "}"))
        .isEqualTo(new OutboxRows.Published(expected));
  }

  @Test
  void whatCarriesNoRecordIsSkippedWithItsReason() {
    assertThat(OutboxRows.read(null)).isEqualTo(new OutboxRows.Skipped("tombstone"));
    assertThat(OutboxRows.read(payload(OutboxRows.TABLE, "d", RECORD))).isEqualTo(new OutboxRows.Skipped("delete"));
    assertThat(OutboxRows.read(payload(OutboxRows.TABLE, "u", RECORD))).isEqualTo(new OutboxRows.Skipped("update"));
    assertThat(OutboxRows.read(payload(OutboxRows.TABLE, "r", RECORD))).isEqualTo(new OutboxRows.Skipped("snapshot"));
    assertThat(OutboxRows.read(payload("accounts", "c", RECORD))).isEqualTo(new OutboxRows.Skipped("other-table"));
    assertThat(OutboxRows.read("{\"status\":\"END\",\"id\":\"900:5000\",\"event_count\":1}"))
        .isEqualTo(new OutboxRows.Skipped("transaction-metadata"));
  }

  @Test
  void whatShouldCarryARecordAndDoesNotIsBadWithItsReason() {
    assertThat(OutboxRows.read(payload(OutboxRows.TABLE, "c", "\"AAEC\""))).isEqualTo(
        new OutboxRows.Bad("truncated", "truncated header: 3 bytes, a single-object header needs 10"));
    assertThat(OutboxRows.read(payload(OutboxRows.TABLE, "c", "\"%%%\""))).isEqualTo(
        new OutboxRows.Bad("bad-row", "record is not base64: Illegal base64 character 25"));
    assertThat(OutboxRows.read(payload(OutboxRows.TABLE, "c", "null"))).isEqualTo(
        new OutboxRows.Bad("bad-row", "outbox insert without a record column"));
    assertThat(OutboxRows.read(payload(OutboxRows.TABLE, "x", RECORD))).isEqualTo(
        new OutboxRows.Bad("bad-envelope", "op is 'x', not c, u, d, r or t"));
    assertThat(OutboxRows.read("{\"op\":")).isEqualTo(
        new OutboxRows.Bad("bad-envelope", "not JSON: Unexpected end-of-input within/between Object entries"));
  }
}
