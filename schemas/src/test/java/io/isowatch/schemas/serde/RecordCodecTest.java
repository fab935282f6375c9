package io.isowatch.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.schemas.EdgeType;
import io.isowatch.schemas.Samples;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.WitnessEdge;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** Decoding by fingerprint, and the exact reasons given for bad bytes. */
class RecordCodecTest {

  @Test
  void decodesEachTypeByItsFingerprint() {
    TxnEvent event = Samples.readListEvent();
    Transaction txn = Samples.transaction();

    assertThat(RecordCodec.decode(RecordCodec.encode(event)).record()).isEqualTo(event);
    assertThat(RecordCodec.decode(RecordCodec.encode(txn)).record()).isEqualTo(txn);
  }

  @Test
  void readsAViolationWrittenWithTheEarlierSchemaWithoutTheSummary() throws IOException {
    Violation today = Samples.violation();
    byte[] written = writtenWith("Violation-1.avsc", today);

    RecordCodec.Decoded read = RecordCodec.decode(written);

    assertThat(read.error()).isNull();
    Violation expected = Violation.newBuilder(today).setSummary(null).build();
    assertThat(read.record()).isEqualTo(expected);
  }

  @Test
  void readsAViolationWrittenWithTheEarlierSchemaWithoutTheSupport() throws IOException {
    Violation today = Samples.violation();
    today.getWitness().setSupport(List.of(
        new WitnessEdge("db/s1/0", "db/s2/0", EdgeType.SO, null, null, "T1 precedes T2 in session s1")));
    byte[] written = writtenWith("Violation-2.avsc", today);

    RecordCodec.Decoded read = RecordCodec.decode(written);

    assertThat(read.error()).isNull();
    Violation expected = Violation.newBuilder(today).build();
    expected.getWitness().setSupport(List.of());
    assertThat(read.record()).isEqualTo(expected);
  }

  /** @return today's record as the earlier writer had it: Avro resolution drops the fields added since */
  private static byte[] writtenWith(String resource, Violation today) throws IOException {
    Schema earlier = RecordCodec.earlierSchema(resource);
    BinaryMessageDecoder<GenericRecord> asEarlier = new BinaryMessageDecoder<>(GenericData.get(), earlier);
    asEarlier.addSchema(Violation.getClassSchema());
    GenericRecord old = asEarlier.decode(RecordCodec.encode(today));
    return new BinaryMessageEncoder<GenericRecord>(GenericData.get(), earlier).encode(old).array();
  }

  @Test
  void namesTheProblemOfBadBytes() {
    byte[] good = RecordCodec.encode(Samples.transaction());

    assertThat(RecordCodec.decode(new byte[0]).error()).isEqualTo("empty value");
    assertThat(RecordCodec.decode(Arrays.copyOf(good, 4)).error())
        .isEqualTo("truncated header: 4 bytes, a single-object header needs 10");
    byte[] marker = good.clone();
    marker[0] = 0x7b;
    assertThat(RecordCodec.decode(marker).error())
        .isEqualTo("not Avro single-object encoding: marker 7B 01 at byte 0, expected C3 01");
    byte[] registry = {0, 0, 0, 0, 42, 2, 4, 6, 8, 10, 12};
    assertThat(RecordCodec.decode(registry).error())
        .isEqualTo("registry wire format (magic byte 0, schema id 42 at byte 1), not Avro single-object"
            + " encoding: read it with a schema registry (--schema-registry-url)");
    byte[] fingerprint = good.clone();
    Arrays.fill(fingerprint, 2, 10, (byte) 0x11);
    assertThat(RecordCodec.decode(fingerprint).error())
        .startsWith("unknown schema fingerprint 0x1111111111111111 at byte 2");
    RecordCodec.Decoded body = RecordCodec.decode(Arrays.copyOf(good, 12));
    assertThat(body.reasonClass()).isEqualTo("bad-body");
    assertThat(body.error()).startsWith("cannot read the Transaction body after byte 10 of 12: ");
  }

  @Test
  void serdeThrowsTheReason() {
    RecordSerde serde = new RecordSerde();
    assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", Samples.transaction())))
        .isEqualTo(Samples.transaction());
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[] {1, 2}))
        .isInstanceOf(SerializationException.class)
        .hasMessage("topic t: truncated header: 2 bytes, a single-object header needs 10");
  }
}
