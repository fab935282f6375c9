package io.isowatch.schemas.serde;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka {@link Serde} for isowatch's top-level Avro records in single-object encoding
 * ({@link RecordCodec}): one serde for every record type, the type read from each message's schema
 * fingerprint. Needs no schema registry.
 *
 * <p>The deserializer throws {@link SerializationException} with {@link RecordCodec}'s reason on bad
 * bytes; the monitor's topology does not use it on the input topic (it reads raw bytes so that bad
 * records go to the dead-letter topic with their offset), only on topics it writes itself.
 */
public final class RecordSerde implements Serde<SpecificRecord> {
  @Override
  public Serializer<SpecificRecord> serializer() {
    return (topic, record) -> record == null ? null : RecordCodec.encode(record);
  }

  @Override
  public Deserializer<SpecificRecord> deserializer() {
    return (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      RecordCodec.Decoded d = RecordCodec.decode(bytes);
      if (d.record() == null) {
        throw new SerializationException("topic " + topic + ": " + d.error());
      }
      return d.record();
    };
  }
}
