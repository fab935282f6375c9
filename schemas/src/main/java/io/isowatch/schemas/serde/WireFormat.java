package io.isowatch.schemas.serde;

import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * How isowatch's top-level records are framed on the Kafka topics it reads and writes (the events,
 * violations and dead-letter topics; never the monitor's internal topics and stores, which always
 * use {@link RecordCodec}):
 *
 * <ul>
 *   <li>{@link #singleObject()}: Avro single-object encoding ({@link RecordCodec}), the default,
 *       needing no registry;
 *   <li>{@link RegistryFormat}: a schema registry's wire format (magic byte 0, 4-byte schema id,
 *       Avro binary), through Apicurio Registry's Kafka serdes.
 * </ul>
 *
 * <p>{@link #of} picks one from Kafka-style settings: a registry when {@value RegistryFormat#URL}
 * is set. Implementations are thread-safe, like Kafka's serializers.
 */
public interface WireFormat extends AutoCloseable {
  /**
   * @param topic the topic the record goes to (a registry names the schema's artifact after it)
   * @param record a {@code TxnEvent}, {@code Transaction}, {@code Violation} or {@code DeadLetter}
   * @return the message's bytes
   * @throws IllegalArgumentException for another record type
   * @throws IllegalStateException if the record cannot be encoded, or the registry cannot be reached
   */
  byte[] encode(String topic, SpecificRecord record);

  /**
   * Decodes one message; never throws for bad bytes.
   *
   * @param topic the topic it was read from
   * @param bytes the message's value, or null (a tombstone)
   * @return the record, or the reason it cannot be read (a reason class of {@link
   *     RecordCodec.Decoded}, or {@code unknown-schema} for a registry schema isowatch does not read)
   * @throws RegistryFormat.RegistryFailureException if a registry is needed to read it and does
   *     not answer (the bytes may be good: they are not dead letters)
   */
  RecordCodec.Decoded decode(String topic, byte[] bytes);

  /** Releases the registry client, if any. */
  @Override
  void close();

  /** @return Avro single-object encoding ({@link RecordCodec}), which needs no registry */
  static WireFormat singleObject() {
    return SingleObject.INSTANCE;
  }

  /**
   * @param settings Kafka-style settings (a Streams or client configuration): {@value
   *     RegistryFormat#URL} and the other {@code apicurio.*} settings select and configure a
   *     registry
   * @return a {@link RegistryFormat} if {@value RegistryFormat#URL} is set and not blank, else
   *     {@link #singleObject()}
   */
  static WireFormat of(Map<?, ?> settings) {
    Object url = settings.get(RegistryFormat.URL);
    return url == null || url.toString().isBlank() ? singleObject() : new RegistryFormat(settings);
  }

  /** {@link RecordCodec} as a {@link WireFormat}. */
  enum SingleObject implements WireFormat {
    INSTANCE;

    @Override
    public byte[] encode(String topic, SpecificRecord record) {
      return RecordCodec.encode(record);
    }

    @Override
    public RecordCodec.Decoded decode(String topic, byte[] bytes) {
      return RecordCodec.decode(bytes);
    }

    @Override
    public void close() {}
  }
}
