package io.isowatch.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Round trips of every record through Avro single-object encoding (Avro 1.12 specification,
 * "Single object encoding"), comparing whole records.
 */
class SingleObjectEncodingTest {

  @BeforeAll
  static void trustGeneratedClasses() {
    TrustedClasses.install();
  }

  @Test
  void txnEventListReadRoundTrips() throws IOException {
    TxnEvent event = Samples.readListEvent();
    ByteBuffer bytes = event.toByteBuffer();
    assertHeader(bytes, TxnEvent.getClassSchema());

    TxnEvent back = TxnEvent.fromByteBuffer(bytes);

    assertThat(back).isEqualTo(event);
    assertThat(back.getValue()).isEqualTo(List.of(4L, 7L, 9L));
    assertThat(back.getTime()).isEqualTo(Instant.parse("2026-01-01T00:00:00.000001Z"));
    assertThat(back.getSource()).isEqualTo(new Source("8841", 24_197_256L, null));
  }

  @Test
  void txnEventBoundaryRoundTripsWithNulls() throws IOException {
    TxnEvent begin = Samples.beginEvent();

    TxnEvent back = TxnEvent.fromByteBuffer(begin.toByteBuffer());

    assertThat(back).isEqualTo(begin);
    assertThat(back.getKey()).isNull();
    assertThat(back.getValue()).isNull();
    assertThat(back.getSource()).isNull();
  }

  @Test
  void transactionRoundTrips() throws IOException {
    Transaction txn = Samples.transaction();
    ByteBuffer bytes = txn.toByteBuffer();
    assertHeader(bytes, Transaction.getClassSchema());

    Transaction back = Transaction.fromByteBuffer(bytes);

    assertThat(back).isEqualTo(txn);
    assertThat(back.getOps()).containsExactly(
        new Operation(OpKind.READ, "x", null),
        new Operation(OpKind.WRITE, "x", 5L),
        new Operation(OpKind.APPEND, "l", 12L),
        new Operation(OpKind.READ, "l", List.of(11L, 12L)));
    assertThat(back.getEndTime()).isEqualTo(Instant.parse("2026-01-01T00:00:00.000251Z"));
  }

  @Test
  void violationRoundTrips() throws IOException {
    Violation violation = Samples.violation();
    ByteBuffer bytes = violation.toByteBuffer();
    assertHeader(bytes, Violation.getClassSchema());

    Violation back = Violation.fromByteBuffer(bytes);

    assertThat(back).isEqualTo(violation);
    assertThat(back.getWitness().getEdges().get(1))
        .isEqualTo(new WitnessEdge("db/s2/0", "db/s1/0", EdgeType.RW, "y", null,
            "T2 read the initial y, which T1 overwrites."));
    assertThat(back.getWindow()).isEqualTo(new Window(Samples.T0, Samples.T0.plusSeconds(1), 2L));
  }

  @Test
  void deadLetterRoundTrips() throws IOException {
    DeadLetter letter = Samples.deadLetter();
    ByteBuffer bytes = letter.toByteBuffer();
    assertHeader(bytes, DeadLetter.getClassSchema());

    DeadLetter back = DeadLetter.fromByteBuffer(bytes);

    assertThat(back).isEqualTo(letter);
    ByteBuffer raw = back.getRaw();
    byte[] rawBytes = new byte[raw.remaining()];
    raw.get(rawBytes);
    assertThat(rawBytes).containsExactly((byte) 0xC3, (byte) 0x01, (byte) 0x7f);
  }

  @Test
  void microsecondsAreKeptAndNanosecondsTruncated() throws IOException {
    TxnEvent event = Samples.beginEvent();
    event.setTime(Instant.ofEpochSecond(1_767_225_600L, 123_456_789L));

    TxnEvent back = TxnEvent.fromByteBuffer(event.toByteBuffer());

    assertThat(back.getTime()).isEqualTo(Instant.ofEpochSecond(1_767_225_600L, 123_456_000L));
  }

  /** Marker C3 01, then the CRC-64-AVRO fingerprint of the parsing canonical form, little-endian. */
  private static void assertHeader(ByteBuffer message, Schema schema) {
    ByteBuffer b = message.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    assertThat(b.get()).isEqualTo((byte) 0xC3);
    assertThat(b.get()).isEqualTo((byte) 0x01);
    assertThat(b.getLong()).isEqualTo(SchemaNormalization.parsingFingerprint64(schema));
  }
}
