package io.isowatch.schemas.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.isowatch.registry.RegistryServer;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.RegistryFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Debezium's Avro envelope of the outbox table, written in the registry's wire format by Apicurio's
 * serializer to a real Apicurio Registry 2.6.13 ({@link RegistryServer}), read by {@link
 * AvroEnvelopes} to exactly what the JSON envelope of the same change reads to.
 */
class AvroEnvelopesTest {
  private static final String TOPIC = "isowatch.public.isowatch_outbox";
  private static final Schema VALUE = SchemaBuilder.record("Value").namespace("isowatch.public.isowatch_outbox").fields()
      .requiredLong("id").requiredString("txn_id").requiredBytes("record").endRecord();
  private static final Schema SOURCE = SchemaBuilder.record("Source").namespace("io.debezium.connector.postgresql")
      .fields().requiredString("version").requiredString("connector").requiredString("name").requiredString("db")
      .requiredString("schema").requiredString("table").optionalLong("txId").optionalLong("lsn").endRecord();
  private static final Schema ENVELOPE = SchemaBuilder.record("Envelope").namespace("isowatch.public.isowatch_outbox")
      .fields().name("before").type().optional().type(VALUE).name("after").type().optional().type(VALUE)
      .name("source").type(SOURCE).noDefault().requiredString("op").optionalLong("ts_ms").endRecord();
  private static final Transaction TXN = new Transaction("h", "s", "h/s/0", 0L, TxnStatus.COMMITTED,
      List.of(new Operation(OpKind.APPEND, "x", 1L)), Instant.ofEpochSecond(1), Instant.ofEpochSecond(2), null);

  private static RegistryServer server;
  private static AvroEnvelopes envelopes;
  private static AvroKafkaSerializer<GenericRecord> serializer;

  @BeforeAll
  static void startRegistry() throws IOException {
    server = RegistryServer.start();
    Map<String, String> settings = Map.of(RegistryFormat.URL, server.url());
    envelopes = new AvroEnvelopes(settings);
    serializer = new AvroKafkaSerializer<>();
    serializer.configure(RegistryFormat.serdeSettings(settings), false);
  }

  @AfterAll
  static void stopRegistry() {
    if (serializer != null) {
      serializer.close();
    }
    if (envelopes != null) {
      envelopes.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static byte[] change(String op, GenericRecord after) {
    GenericRecord source = new GenericData.Record(SOURCE);
    source.put("version", "3.6.1.Final");
    source.put("connector", "postgresql");
    source.put("name", "isowatch");
    source.put("db", "app");
    source.put("schema", "public");
    source.put("table", OutboxRows.TABLE);
    source.put("txId", 900L);
    source.put("lsn", 5000L);
    GenericRecord e = new GenericData.Record(ENVELOPE);
    e.put("before", null);
    e.put("after", after);
    e.put("source", source);
    e.put("op", op);
    e.put("ts_ms", 1_700_000_000_000L);
    return serializer.serialize(TOPIC, e);
  }

  private static GenericRecord row(byte[] record) {
    GenericRecord v = new GenericData.Record(VALUE);
    v.put("id", 1L);
    v.put("txn_id", "h/s/0");
    v.put("record", ByteBuffer.wrap(record));
    return v;
  }

  @Test
  void anAvroInsertReadsToItsTransactionAsTheJsonOneDoes() {
    byte[] insert = change("c", row(RecordCodec.encode(TXN)));

    Transaction expected = Transaction.newBuilder(TXN).setSource(new Source("900", 5000L, null)).build();
    assertThat(insert[0]).isEqualTo((byte) 0);
    assertThat(envelopes.outboxRow(TOPIC, insert)).isEqualTo(new OutboxRows.Published(expected));
  }

  @Test
  void pruningIsSkippedAndABadRecordOrUnknownSchemaIsBad() {
    assertThat(envelopes.outboxRow(TOPIC, change("d", null))).isEqualTo(new OutboxRows.Skipped("delete"));
    assertThat(envelopes.outboxRow(TOPIC, change("c", row(new byte[] {0, 1, 2})))).isEqualTo(
        new OutboxRows.Bad("truncated", "truncated header: 3 bytes, a single-object header needs 10"));
    assertThat(envelopes.outboxRow(TOPIC, new byte[] {0, 0, 0x0f, 0x42, 0x3f, 2})).isEqualTo(
        new OutboxRows.Bad("unknown-schema", "schema id 999999 at byte 1 is not in the schema registry"));
    assertThat(envelopes.outboxRow(TOPIC, new byte[] {0, 0})).isEqualTo(
        new OutboxRows.Bad("truncated", "truncated header: 2 bytes, the registry wire format needs 5"));
  }
}
