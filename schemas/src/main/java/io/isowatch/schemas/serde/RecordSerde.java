package io.isowatch.schemas.serde;

import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka {@link Serde} for isowatch's top-level Avro records, one serde for every record type: in
 * Avro single-object encoding ({@link RecordCodec}, the type read from each message's schema
 * fingerprint) unless {@link #configure} is given a schema registry ({@value RegistryFormat#URL}),
 * then in the registry's wire format ({@link RegistryFormat}). Kafka Streams configures the serde
 * it instantiates as {@code default.value.serde} with the application's properties, so setting
 * {@value RegistryFormat#URL} there selects the registry.
 *
 * <p>The deserializer throws {@link SerializationException} with the format's reason on bad bytes;
 * the monitor's topology does not use it on the input topic (it reads raw bytes so that bad records
 * go to the dead-letter topic with their offset), only on topics it writes itself.
 */
public final class RecordSerde implements Serde<SpecificRecord> {
  private volatile WireFormat format;

  /** A serde in single-object encoding until {@link #configure} says otherwise. */
  public RecordSerde() {
    this(WireFormat.singleObject());
  }

  /** @param format the framing of messages */
  public RecordSerde(WireFormat format) {
    this.format = format;
  }

  /**
   * @param configs Kafka-style settings; {@value RegistryFormat#URL} and other {@code
   *     apicurio.*} settings select a registry ({@link WireFormat#of})
   * @param isKey ignored: isowatch's keys are Strings
   */
  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    format = WireFormat.of(configs);
  }

  @Override
  public Serializer<SpecificRecord> serializer() {
    return (topic, record) -> record == null ? null : format.encode(topic, record);
  }

  @Override
  public Deserializer<SpecificRecord> deserializer() {
    return (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      RecordCodec.Decoded d = format.decode(topic, bytes);
      if (d.record() == null) {
        throw new SerializationException("topic " + topic + ": " + d.error());
      }
      return d.record();
    };
  }

  @Override
  public void close() {
    format.close();
  }
}
