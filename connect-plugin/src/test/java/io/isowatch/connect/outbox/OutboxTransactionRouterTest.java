package io.isowatch.connect.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.RecordCodec;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OutboxTransactionRouter} on change events shaped as the Debezium PostgreSQL connector's
 * (envelope {@code before}, {@code after}, {@code source}, {@code op}; the outbox row's {@code
 * record} column as bytes or, with {@code binary.handling.mode=base64}, as a base64 string).
 */
class OutboxTransactionRouterTest {
  private static final String TOPIC = "pg.public.isowatch_outbox";
  private static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.postgresql.Source")
      .field("table", Schema.STRING_SCHEMA).field("txId", Schema.OPTIONAL_INT64_SCHEMA)
      .field("lsn", Schema.OPTIONAL_INT64_SCHEMA).build();

  private final OutboxTransactionRouter<SourceRecord> router = new OutboxTransactionRouter<>();

  @BeforeEach
  void configure() {
    router.configure(Map.of(OutboxTransactionRouter.EVENTS_TOPIC, "app.events"));
  }

  @AfterEach
  void close() {
    router.close();
  }

  @Test
  void anInsertBecomesTheTransactionOnTheEventsTopicKeyedBySessionWithItsSource() {
    Transaction txn = transaction();
    SourceRecord out = router.apply(change("c", "isowatch_outbox", Schema.OPTIONAL_BYTES_SCHEMA,
        RecordCodec.encode(txn), 1_700_000_000_123L));

    assertThat(out.topic()).isEqualTo("app.events");
    assertThat(out.kafkaPartition()).isNull();
    assertThat(out.key()).isEqualTo("shop/s7");
    assertThat(out.keySchema()).isEqualTo(Schema.STRING_SCHEMA);
    assertThat(out.valueSchema()).isEqualTo(Schema.BYTES_SCHEMA);
    assertThat(out.timestamp()).isEqualTo(1_700_000_000_123L);
    Transaction read = (Transaction) RecordCodec.decode((byte[]) out.value()).record();
    txn.setSource(new Source("771", 23_456_789L, null));
    assertThat(read).isEqualTo(txn);
  }

  @Test
  void readsTheRecordColumnAsAByteBufferOrBase64() {
    Transaction txn = transaction();
    byte[] bytes = RecordCodec.encode(txn);
    SourceRecord fromBuffer = router.apply(change("c", "isowatch_outbox", Schema.OPTIONAL_BYTES_SCHEMA,
        ByteBuffer.wrap(bytes), 1L));
    SourceRecord fromBase64 = router.apply(change("c", "isowatch_outbox", Schema.OPTIONAL_STRING_SCHEMA,
        Base64.getEncoder().encodeToString(bytes), 1L));

    assertThat(((Transaction) RecordCodec.decode((byte[]) fromBuffer.value()).record()).getTxnId())
        .isEqualTo("shop/s7/3");
    assertThat((byte[]) fromBase64.value()).isEqualTo((byte[]) fromBuffer.value());
  }

  @Test
  void updatesDeletesSnapshotReadsAndTombstonesOfTheOutboxAreDropped() {
    byte[] bytes = RecordCodec.encode(transaction());
    for (String op : List.of("u", "d", "r", "t")) {
      assertThat(router.apply(change(op, "isowatch_outbox", Schema.OPTIONAL_BYTES_SCHEMA, bytes, 1L))).as(op).isNull();
    }
    SourceRecord tombstone = new SourceRecord(Map.of(), Map.of(), TOPIC, null, null, null, null);
    assertThat(router.apply(tombstone)).isNull();
  }

  @Test
  void otherTablesAndRecordsThatAreNotChangeEventsPassUnchanged() {
    SourceRecord otherTable = change("c", "orders", Schema.OPTIONAL_BYTES_SCHEMA, new byte[] {1, 2}, 1L);
    SourceRecord heartbeat = new SourceRecord(Map.of(), Map.of(), "__debezium-heartbeat.pg", Schema.STRING_SCHEMA,
        "pg", Schema.STRING_SCHEMA, "beat");
    SourceRecord otherTombstone = new SourceRecord(Map.of(), Map.of(), "pg.public.orders", null, null, null, null);

    assertThat(router.apply(otherTable)).isSameAs(otherTable);
    assertThat(router.apply(heartbeat)).isSameAs(heartbeat);
    assertThat(router.apply(otherTombstone)).isSameAs(otherTombstone);
  }

  @Test
  void anUnreadableInsertThrowsADataExceptionNamingTheReason() {
    byte[] good = RecordCodec.encode(transaction());
    byte[] truncated = Arrays.copyOf(good, 12);
    byte[] deadLetter = RecordCodec.encode(new DeadLetter(null, "t", 0, 5L, "why"));

    assertThatThrownBy(() -> router.apply(change("c", "isowatch_outbox", Schema.OPTIONAL_BYTES_SCHEMA, null, 1L)))
        .isInstanceOf(DataException.class).hasMessage("bad-row: outbox insert without a record column");
    assertThatThrownBy(() -> router.apply(change("c", "isowatch_outbox", Schema.OPTIONAL_STRING_SCHEMA, "%%", 1L)))
        .isInstanceOf(DataException.class).hasMessageStartingWith("bad-row: record is not base64");
    assertThatThrownBy(() -> router.apply(change("c", "isowatch_outbox", Schema.OPTIONAL_BYTES_SCHEMA, truncated, 1L)))
        .isInstanceOf(DataException.class).hasMessage(RecordCodec.decode(truncated).reasonClass() + ": "
            + RecordCodec.decode(truncated).error());
    assertThatThrownBy(() -> router.apply(change("c", "isowatch_outbox", Schema.OPTIONAL_BYTES_SCHEMA, deadLetter, 1L)))
        .isInstanceOf(DataException.class).hasMessage("bad-row: record is a DeadLetter, not a Transaction");
  }

  private static Transaction transaction() {
    return new Transaction("shop", "s7", "shop/s7/3", 3L, TxnStatus.COMMITTED,
        List.of(new Operation(OpKind.READ, "x", 1L), new Operation(OpKind.WRITE, "y", 2L)),
        Instant.parse("2026-12-02T10:00:00Z"), Instant.parse("2026-12-02T10:00:01Z"), null);
  }

  /** A Debezium change event of {@code table} whose row has {@code record} in the given schema. */
  private static SourceRecord change(String op, String table, Schema recordSchema, Object record, long timestamp) {
    Schema row = SchemaBuilder.struct().name("pg.public." + table + ".Value").optional()
        .field("id", Schema.INT64_SCHEMA).field("txn_id", Schema.STRING_SCHEMA).field("record", recordSchema).build();
    Schema envelope = SchemaBuilder.struct().name("pg.public." + table + ".Envelope")
        .field("before", row).field("after", row).field("source", SOURCE).field("op", Schema.STRING_SCHEMA).build();
    Struct value = new Struct(row).put("id", 1L).put("txn_id", "shop/s7/3").put("record", record);
    Struct event = new Struct(envelope).put(op.equals("d") ? "before" : "after", value)
        .put("source", new Struct(SOURCE).put("table", table).put("txId", 771L).put("lsn", 23_456_789L))
        .put("op", op);
    return new SourceRecord(Map.of("server", "pg"), Map.of("lsn", 23_456_789L), "pg.public." + table,
        null, Schema.STRING_SCHEMA, "{\"id\":1}", envelope, event, timestamp);
  }
}
