package io.isowatch.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.junit.jupiter.api.Test;

/**
 * The evolution rule of {@code docs/events.md}: the next version of a record may add a field only
 * with a default, and a reader of that version reads today's single-object messages, finding each
 * of today's fields unchanged and the new field at its default (Avro 1.12 specification, "Schema
 * Resolution").
 */
class SchemaEvolutionTest {

  @Test
  void nextTxnEventReadsTodaysEvent() throws IOException {
    Schema next = withExtraField(TxnEvent.getClassSchema(),
        new Schema.Field("shard", Schema.create(Schema.Type.INT), "a later field", -1));

    GenericRecord read = readAs(next, TxnEvent.getClassSchema(), Samples.readListEvent().toByteBuffer());

    assertSameFields(read, TxnEvent.getClassSchema(), Samples.readListEvent().toByteBuffer());
    assertThat(read.get("shard")).isEqualTo(-1);
  }

  @Test
  void nextTransactionReadsTodaysTransaction() throws IOException {
    Schema next = withExtraField(Transaction.getClassSchema(), optionalString("tenant"));

    GenericRecord read = readAs(next, Transaction.getClassSchema(), Samples.transaction().toByteBuffer());

    assertSameFields(read, Transaction.getClassSchema(), Samples.transaction().toByteBuffer());
    assertThat(read.get("tenant")).isNull();
  }

  @Test
  void nextViolationReadsTodaysViolation() throws IOException {
    Schema next = withExtraField(Violation.getClassSchema(), optionalString("runbook"));

    GenericRecord read = readAs(next, Violation.getClassSchema(), Samples.violation().toByteBuffer());

    assertSameFields(read, Violation.getClassSchema(), Samples.violation().toByteBuffer());
    assertThat(read.get("runbook")).isNull();
  }

  @Test
  void nextDeadLetterReadsTodaysDeadLetter() throws IOException {
    Schema next = withExtraField(DeadLetter.getClassSchema(), optionalString("consumerGroup"));

    GenericRecord read = readAs(next, DeadLetter.getClassSchema(), Samples.deadLetter().toByteBuffer());

    assertSameFields(read, DeadLetter.getClassSchema(), Samples.deadLetter().toByteBuffer());
    assertThat(read.get("consumerGroup")).isNull();
  }

  @Test
  void theNextVersionHasAnotherFingerprint() {
    Schema next = withExtraField(TxnEvent.getClassSchema(), optionalString("tenant"));

    assertThat(SchemaNormalization.parsingFingerprint64(next))
        .isNotEqualTo(SchemaNormalization.parsingFingerprint64(TxnEvent.getClassSchema()));
  }

  /** Decodes a single-object message written with {@code writer} as a record of {@code reader}. */
  private static GenericRecord readAs(Schema reader, Schema writer, ByteBuffer message) throws IOException {
    BinaryMessageDecoder<GenericRecord> decoder = new BinaryMessageDecoder<>(GenericData.get(), reader);
    decoder.addSchema(writer);
    return decoder.decode(message.duplicate());
  }

  /** Each of today's fields reads the same under the next version as under today's schema. */
  private static void assertSameFields(GenericRecord next, Schema today, ByteBuffer message) throws IOException {
    GenericRecord asToday = readAs(today, today, message);
    assertThat(next.getSchema().getFields()).hasSize(today.getFields().size() + 1);
    for (Schema.Field f : today.getFields()) {
      assertThat(next.get(f.name())).as(f.name()).isEqualTo(asToday.get(f.name()));
    }
  }

  private static Schema.Field optionalString(String name) {
    Schema type = Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.STRING));
    return new Schema.Field(name, type, "a later optional field", Schema.Field.NULL_DEFAULT_VALUE);
  }

  /** Today's record schema with {@code extra} appended: the next version of the record. */
  private static Schema withExtraField(Schema today, Schema.Field extra) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : today.getFields()) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    fields.add(extra);
    return Schema.createRecord(today.getName(), today.getDoc(), today.getNamespace(), false, fields);
  }
}
