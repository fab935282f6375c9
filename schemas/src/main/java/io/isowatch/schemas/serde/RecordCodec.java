package io.isowatch.schemas.serde;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.SourceWatermark;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TrustedClasses;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.Violation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.specific.SpecificRecord;

/**
 * Avro single-object encoding (Avro 1.12 specification, "Single object encoding") of isowatch's
 * top-level records: {@link TxnEvent}, {@link Transaction}, {@link Violation}, {@link DeadLetter} and the
 * monitor's internal {@link SourceWatermark}. A message is the marker {@code C3 01}, the schema's 8-byte CRC-64-AVRO fingerprint
 * (little-endian) and the Avro binary body, so a reader needs no registry: the fingerprint names the
 * record type, and one topic may carry several types (the events topic carries both
 * {@code TxnEvent}s and {@code Transaction}s).
 *
 * <p>{@link #decode} never throws on bad bytes: it returns a {@link Decoded} whose {@code error}
 * names the problem and the byte offset, for the dead-letter topic. Thread-safe.
 */
public final class RecordCodec {
  /** Length of the header: 2 marker bytes and 8 fingerprint bytes. */
  public static final int HEADER_BYTES = 10;

  /** The top-level record classes this codec reads and writes. */
  public static final List<Class<? extends SpecificRecord>> TYPES =
      List.of(TxnEvent.class, Transaction.class, Violation.class, DeadLetter.class, SourceWatermark.class);

  /**
   * Class-path folder of the records' earlier schemas, still read (docs/events.md, "Evolution
   * rules", rule 5): each file the record's {@code .avsc} as it was released before a change, named
   * {@code <Record>-<version>.avsc}.
   */
  public static final String WRITERS = "/io/isowatch/schemas/writers/";

  private static final Map<Long, BinaryMessageDecoder<? extends SpecificRecord>> DECODERS = new HashMap<>();
  private static final Map<Long, String> NAMES = new HashMap<>();

  static {
    TrustedClasses.install();
    register(TxnEvent.getClassSchema(), TxnEvent.getDecoder());
    register(Transaction.getClassSchema(), Transaction.getDecoder());
    register(Violation.getClassSchema(), Violation.getDecoder());
    register(DeadLetter.getClassSchema(), DeadLetter.getDecoder());
    register(SourceWatermark.getClassSchema(), SourceWatermark.getDecoder());
    registerEarlier(Violation.getDecoder(), "Violation-1.avsc");
    registerEarlier(Violation.getDecoder(), "Violation-2.avsc");
  }

  private RecordCodec() {}

  private static void register(Schema schema, BinaryMessageDecoder<? extends SpecificRecord> decoder) {
    long fp = SchemaNormalization.parsingFingerprint64(schema);
    DECODERS.put(fp, decoder);
    NAMES.put(fp, schema.getName());
  }

  /**
   * Makes a record's decoder read messages written with an earlier schema of the record (Avro
   * schema resolution: fields added since read as their defaults), and names that fingerprint after
   * the resource, e.g. {@code Violation-1}.
   *
   * @param decoder the current record class's decoder
   * @param resource a file name under {@link #WRITERS}
   */
  private static void registerEarlier(BinaryMessageDecoder<? extends SpecificRecord> decoder, String resource) {
    Schema writer = earlierSchema(resource);
    decoder.addSchema(writer);
    long fp = SchemaNormalization.parsingFingerprint64(writer);
    DECODERS.put(fp, decoder);
    NAMES.put(fp, resource.substring(0, resource.length() - ".avsc".length()));
  }

  /**
   * @param resource a file name under {@link #WRITERS}, e.g. {@code Violation-1.avsc}
   * @return that earlier schema, parsed with today's {@code Operation} and {@code TxnStatus} (which
   *     it names but does not define)
   * @throws IllegalStateException if the resource is missing
   * @throws UncheckedIOException if it cannot be read
   */
  static Schema earlierSchema(String resource) {
    try (InputStream in = RecordCodec.class.getResourceAsStream(WRITERS + resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + WRITERS + resource);
      }
      return new Schema.Parser()
          .addTypes(List.of(Operation.getClassSchema(), TxnStatus.getClassSchema()))
          .parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + WRITERS + resource, e);
    }
  }

  /**
   * The outcome of {@link #decode}: exactly one of {@code record} and {@code error} is non-null.
   *
   * @param record the decoded record
   * @param error what is wrong with the bytes, naming the byte offset where it can
   * @param reasonClass a short bounded class of the error for metric tags: {@code empty},
   *     {@code truncated}, {@code bad-marker}, {@code unknown-fingerprint}, {@code bad-body}
   */
  public record Decoded(SpecificRecord record, String error, String reasonClass) {
    static Decoded failed(String reasonClass, String error) {
      return new Decoded(null, error, reasonClass);
    }
  }

  /**
   * Encodes one record.
   *
   * @param record a {@link TxnEvent}, {@link Transaction}, {@link Violation}, {@link DeadLetter} or
   *     {@link SourceWatermark}
   * @return the single-object encoding
   * @throws IllegalArgumentException for another record type
   * @throws IllegalStateException if Avro cannot write it (a required field is null)
   */
  public static byte[] encode(SpecificRecord record) {
    ByteBuffer buffer;
    try {
      if (record instanceof TxnEvent e) {
        buffer = e.toByteBuffer();
      } else if (record instanceof Transaction t) {
        buffer = t.toByteBuffer();
      } else if (record instanceof Violation v) {
        buffer = v.toByteBuffer();
      } else if (record instanceof DeadLetter d) {
        buffer = d.toByteBuffer();
      } else if (record instanceof SourceWatermark w) {
        buffer = w.toByteBuffer();
      } else {
        throw new IllegalArgumentException("no single-object encoding for " + record.getClass().getName());
      }
    } catch (IOException | AvroRuntimeException e) {
      throw new IllegalStateException("cannot encode " + record.getSchema().getName() + ": " + e.getMessage(), e);
    }
    byte[] out = new byte[buffer.remaining()];
    buffer.get(out);
    return out;
  }

  /**
   * Decodes one message.
   *
   * @param bytes a message, or null (a tombstone)
   * @return the record, or the reason it cannot be read
   */
  public static Decoded decode(byte[] bytes) {
    if (bytes == null || bytes.length == 0) {
      return Decoded.failed("empty", bytes == null ? "null value (tombstone)" : "empty value");
    }
    if (bytes.length < HEADER_BYTES) {
      return Decoded.failed("truncated", "truncated header: " + bytes.length + " bytes, a single-object header needs " + HEADER_BYTES);
    }
    if (bytes[0] == 0 && bytes.length >= 5) {
      return Decoded.failed("bad-marker", String.format("registry wire format (magic byte 0, schema id %d at byte 1),"
          + " not Avro single-object encoding: read it with a schema registry (--schema-registry-url)",
          ByteBuffer.wrap(bytes, 1, 4).getInt()));
    }
    if ((bytes[0] & 0xff) != 0xC3 || bytes[1] != 0x01) {
      return Decoded.failed("bad-marker", String.format("not Avro single-object encoding: marker %02X %02X at byte 0, expected C3 01", bytes[0] & 0xff, bytes[1] & 0xff));
    }
    long fp = ByteBuffer.wrap(bytes, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    BinaryMessageDecoder<? extends SpecificRecord> decoder = DECODERS.get(fp);
    if (decoder == null) {
      return Decoded.failed("unknown-fingerprint", String.format("unknown schema fingerprint 0x%016x at byte 2 (expected one of %s)", fp, NAMES.values()));
    }
    try {
      return new Decoded(decoder.decode(bytes), null, null);
    } catch (IOException | RuntimeException e) {
      return Decoded.failed("bad-body", "cannot read the " + NAMES.get(fp) + " body after byte " + HEADER_BYTES + " of " + bytes.length + ": " + describe(e));
    }
  }

  private static String describe(Throwable e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : " " + (m.length() > 200 ? m.substring(0, 200) + "..." : m));
  }
}
