package io.isowatch.schemas.debezium;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.apicurio.registry.rest.client.exception.NotFoundException;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.rest.client.error.ApicurioRestClientException;
import io.isowatch.schemas.serde.RegistryFormat;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * Debezium change events written with an Avro converter through Apicurio Registry (Apicurio's
 * {@code AvroConverter} with {@code apicurio.registry.headers.enabled=false} and {@code
 * apicurio.registry.as-confluent=true}, the framing of {@link RegistryFormat}: magic byte 0, 4-byte
 * content id, Avro body), read with Avro's generic reader and turned into the JSON tree {@link
 * JsonEnvelopes} reads, so that JSON and Avro envelopes are decoded by one code path: records become
 * objects, strings and enum symbols text, numbers and booleans themselves, {@code bytes} and {@code
 * fixed} base64 text (as Kafka Connect's JsonConverter writes them), unions their branch's value.
 * Thread-safe.
 */
public final class AvroEnvelopes implements AutoCloseable {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final AvroKafkaDeserializer<GenericRecord> deserializer = new AvroKafkaDeserializer<>();

  /**
   * @param settings {@value RegistryFormat#URL} and other {@code apicurio.*} settings, as for {@link
   *     RegistryFormat}
   * @throws IllegalArgumentException if {@value RegistryFormat#URL} is missing or not an http(s) URL
   */
  public AvroEnvelopes(Map<?, ?> settings) {
    deserializer.configure(RegistryFormat.serdeSettings(settings), false);
  }

  /**
   * @param topic the topic the event was read from
   * @param bytes the event's value in the registry's wire format (starts with byte 0)
   * @return what the outbox row is ({@link OutboxRows#of(java.util.Optional)})
   * @throws RegistryFormat.RegistryFailureException if the registry does not answer (the message may
   *     be good: not a dead letter)
   */
  public OutboxRows.Row outboxRow(String topic, byte[] bytes) {
    try {
      return OutboxRows.of(envelope(topic, bytes));
    } catch (EnvelopeException e) {
      return new OutboxRows.Bad(e.reasonClass(), e.getMessage());
    }
  }

  /**
   * @param topic the topic the event was read from
   * @param bytes the event's value in the registry's wire format (starts with byte 0)
   * @return the decoded event ({@link JsonEnvelopes#parseTree}); empty for a tombstone
   * @throws EnvelopeException if it cannot be read, with reason class {@code truncated} (shorter than
   *     the header), {@code unknown-schema} (the id is not in the registry), {@code bad-body} (the
   *     body does not match the schema) or {@code bad-envelope} (not a Debezium envelope)
   * @throws RegistryFormat.RegistryFailureException if the registry does not answer (the message may
   *     be good: not a dead letter)
   */
  public Optional<Envelope> envelope(String topic, byte[] bytes) throws EnvelopeException {
    if (bytes.length < RegistryFormat.HEADER_BYTES) {
      throw new EnvelopeException("truncated", "truncated header: " + bytes.length
          + " bytes, the registry wire format needs " + RegistryFormat.HEADER_BYTES);
    }
    int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
    Object read;
    try {
      read = deserializer.deserialize(topic, bytes);
    } catch (NotFoundException e) {
      throw new EnvelopeException("unknown-schema", "schema id " + id + " at byte 1 is not in the schema registry");
    } catch (ApicurioRestClientException e) {
      throw new RegistryFormat.RegistryFailureException("cannot look up schema id " + id
          + " of a change event of topic " + topic + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new EnvelopeException("bad-body", "cannot read the Avro body after byte " + RegistryFormat.HEADER_BYTES
          + " with schema id " + id + ": " + e.getMessage());
    }
    return JsonEnvelopes.parseTree(tree(read));
  }

  /** @return {@code value}, an Avro datum of the generic reader, as a JSON tree */
  static JsonNode tree(Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof GenericRecord r) {
      ObjectNode o = NODES.objectNode();
      for (Schema.Field f : r.getSchema().getFields()) {
        o.set(f.name(), tree(r.get(f.pos())));
      }
      return o;
    }
    if (value instanceof CharSequence || value instanceof org.apache.avro.generic.GenericEnumSymbol<?>) {
      return NODES.textNode(value.toString());
    }
    if (value instanceof Integer i) {
      return NODES.numberNode(i);
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l);
    }
    if (value instanceof Float f) {
      return NODES.numberNode(f);
    }
    if (value instanceof Double d) {
      return NODES.numberNode(d);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof ByteBuffer b) {
      ByteBuffer copy = b.duplicate();
      byte[] out = new byte[copy.remaining()];
      copy.get(out);
      return NODES.textNode(Base64.getEncoder().encodeToString(out));
    }
    if (value instanceof GenericFixed f) {
      return NODES.textNode(Base64.getEncoder().encodeToString(f.bytes()));
    }
    if (value instanceof Map<?, ?> m) {
      ObjectNode o = NODES.objectNode();
      m.forEach((k, v) -> o.set(k.toString(), tree(v)));
      return o;
    }
    if (value instanceof List<?> list) {
      ArrayNode a = NODES.arrayNode();
      list.forEach(e -> a.add(tree(e)));
      return a;
    }
    return NODES.textNode(value.toString());
  }

  @Override
  public void close() {
    deserializer.close();
  }
}
