package io.isowatch.stream.topology;

import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.debezium.OutboxRows;
import io.isowatch.schemas.serde.RecordCodec;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

/**
 * Change events of the recorder's outbox table written by hand as Debezium's PostgreSQL connector
 * and Kafka Connect's {@code JsonConverter} write them, for the tests of {@code monitor --input
 * debezium-outbox}.
 */
public final class OutboxEvents {
  private OutboxEvents() {}

  /**
   * @return a change event without schema: {@code op} on row {@code id = lsn} of {@code table} in
   *     database transaction {@code xid}, whose {@code record} column is {@code recordJson}
   */
  public static String change(String op, String table, long xid, long lsn, String recordJson) {
    return "{\"before\":null,\"after\":{\"id\":" + lsn + ",\"txn_id\":\"t\",\"record\":" + recordJson + "},"
        + "\"source\":{\"version\":\"3.6.1.Final\",\"connector\":\"postgresql\",\"name\":\"isowatch\",\"db\":\"app\","
        + "\"schema\":\"public\",\"table\":\"" + table + "\",\"txId\":" + xid + ",\"lsn\":" + lsn + "},"
        + "\"op\":\"" + op + "\",\"ts_ms\":1700000000000}";
  }

  /** @return {@code payload} in the JsonConverter's schema envelope ({@code schemas.enable=true}); the schema is not read */
  public static String withSchema(String payload) {
    return "{\"schema\":{\"type\":\"struct\",\"optional\":false,\"name\":\"isowatch.public.isowatch_outbox.Envelope\"},"
        + "\"payload\":" + payload + "}";
  }

  /** @return the outbox insert of {@code t}'s record in database transaction {@code xid} */
  public static String insert(Transaction t, long xid, long lsn) {
    return change("c", OutboxRows.TABLE, xid, lsn, "\"" + Base64.getEncoder().encodeToString(RecordCodec.encode(t)) + "\"");
  }

  /** @return a committed transaction of history {@code db}, id {@code db/session/seq}, ending at {@code endMs} */
  public static Transaction txn(String session, long seq, long endMs, Operation... ops) {
    return new Transaction("db", session, "db/" + session + "/" + seq, seq, TxnStatus.COMMITTED, List.of(ops),
        Instant.ofEpochMilli(endMs - 1), Instant.ofEpochMilli(endMs), null);
  }

  /**
   * The list write skew: T0 ({@code db/s1/0}) and T1 ({@code db/s2/0}) each read x and y empty and
   * append to one of them; T2 ({@code db/s3/0}) reads both appends. G2-item; allowed by snapshot
   * isolation.
   *
   * @return the three transactions in commit order
   */
  public static List<Transaction> listWriteSkew() {
    Operation emptyX = new Operation(OpKind.READ, "x", List.of());
    Operation emptyY = new Operation(OpKind.READ, "y", List.of());
    return List.of(
        txn("s1", 0, 10, emptyX, emptyY, new Operation(OpKind.APPEND, "x", 1L)),
        txn("s2", 0, 11, emptyX, emptyY, new Operation(OpKind.APPEND, "y", 2L)),
        txn("s3", 0, 12, new Operation(OpKind.READ, "x", List.of(1L)), new Operation(OpKind.READ, "y", List.of(2L))));
  }
}
