package io.isowatch.schemas.serde;

import io.apicurio.registry.rest.client.exception.NotFoundException;
import io.apicurio.registry.rest.client.exception.RestClientException;
import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.apicurio.registry.serde.avro.strategy.TopicRecordIdStrategy;
import io.apicurio.rest.client.error.ApicurioRestClientException;
import io.isowatch.schemas.TrustedClasses;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * The schema registry wire format of isowatch's records, through Apicurio Registry's Kafka serdes
 * (Apicurio Registry 2.6 documentation, "Configuring Kafka serializers/deserializers"): a message is
 * the magic byte {@code 0}, the writer schema's id in 4 bytes big-endian, and the Avro binary body
 * (the framing of Confluent's serdes, so that their consumers can read isowatch's topics through a
 * registry's Confluent-compatible API). The id is the registry's content id, which is what
 * Apicurio's Confluent-compatible API ({@code /apis/ccompat/v7}) calls a schema id.
 *
 * <p>Writing registers each record type's schema once per topic (Apicurio's {@code
 * TopicRecordIdStrategy}: group = the schema's namespace, artifact = {@code <topic>-<record name>},
 * so one topic may carry several record types, as the events topic does) unless {@code
 * apicurio.registry.auto-register=false}. Reading resolves the writer schema by its id (cached after
 * the first lookup) and reads it into the generated class of the same full name, by Avro schema
 * resolution, so records written with an earlier schema of a type read as its defaults say
 * (docs/events.md, "Evolution rules"). Single-object messages ({@link RecordCodec}) are still read,
 * so producers can move to the registry one at a time.
 *
 * <p>Settings: {@value #URL} (required) and any other {@code apicurio.registry.*} setting of
 * Apicurio's serdes (authentication, TLS, retries). A URL with no path, e.g. {@code
 * http://registry:8080}, gets Apicurio's v2 API path {@value #API_PATH}. The framing settings
 * ({@code headers.enabled=false}, {@code as-confluent=true}, {@code use-id=contentId}) and the
 * specific-record reader are always set. Thread-safe.
 */
public final class RegistryFormat implements WireFormat {
  /** The setting that names the registry: Apicurio's {@code apicurio.registry.url}. */
  public static final String URL = SerdeConfig.REGISTRY_URL;
  /** Path of Apicurio Registry's v2 REST API, added to a URL that has none. */
  public static final String API_PATH = "/apis/registry/v2";
  /** Bytes before the Avro body: the magic byte and the 4-byte schema id. */
  public static final int HEADER_BYTES = 5;

  private final String url;
  private final AvroKafkaSerializer<SpecificRecord> serializer = new AvroKafkaSerializer<>();
  private final AvroKafkaDeserializer<SpecificRecord> deserializer = new AvroKafkaDeserializer<>();

  /**
   * Thrown when the registry does not answer (connection refused, timeout, a 5xx): the message may
   * be good, so it is not a dead letter; the caller fails and retries later.
   */
  public static final class RegistryUnavailableException extends IllegalStateException {
    RegistryUnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * @param settings {@value #URL} and other {@code apicurio.registry.*} settings; others are ignored
   * @throws IllegalArgumentException if {@value #URL} is missing or not an http(s) URL
   */
  public RegistryFormat(Map<?, ?> settings) {
    Object given = settings.get(URL);
    if (given == null || given.toString().isBlank()) {
      throw new IllegalArgumentException(URL + " is not set");
    }
    this.url = apiUrl(given.toString().strip());
    TrustedClasses.install();
    Map<String, Object> config = new HashMap<>();
    config.put(SerdeConfig.AUTO_REGISTER_ARTIFACT, "true");
    config.put(SerdeConfig.ARTIFACT_RESOLVER_STRATEGY, TopicRecordIdStrategy.class.getName());
    settings.forEach((k, v) -> {
      if (k.toString().startsWith("apicurio.registry.")) {
        config.put(k.toString(), v);
      }
    });
    config.put(URL, url);
    config.put(SerdeConfig.ENABLE_HEADERS, "false");
    config.put(SerdeConfig.ENABLE_CONFLUENT_ID_HANDLER, "true");
    config.put(SerdeConfig.USE_ID, "contentId");
    config.put(AvroKafkaSerdeConfig.USE_SPECIFIC_AVRO_READER, "true");
    serializer.configure(config, false);
    deserializer.configure(config, false);
  }

  /**
   * @param given a URL as a user wrote it
   * @return it without a trailing slash, with {@value #API_PATH} if it had no path
   * @throws IllegalArgumentException if it is not an absolute http or https URL
   */
  public static String apiUrl(String given) {
    URI uri;
    try {
      uri = URI.create(given);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("schema registry URL '" + given + "' is not a URL: " + e.getMessage(), e);
    }
    if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
      throw new IllegalArgumentException("schema registry URL '" + given + "' must be http://HOST[:PORT][/PATH] or https://...");
    }
    String s = given.endsWith("/") ? given.substring(0, given.length() - 1) : given;
    String path = uri.getPath();
    return path == null || path.isEmpty() || path.equals("/") ? s + API_PATH : s;
  }

  /** @return the registry's API URL the serdes use, e.g. {@code http://registry:8080/apis/registry/v2} */
  public String url() {
    return url;
  }

  /**
   * Checks that the registry answers, with the serdes' own client, settings and credentials: it
   * asks for content id 0, which Apicurio Registry never assigns (ids start at 1), so "not found"
   * is the answer of a working registry.
   *
   * @throws RegistryUnavailableException if it does not answer, or answers with an error other
   *     than "not found" (e.g. 401 for missing credentials)
   */
  public void ping() {
    try {
      deserializer.deserialize("isowatch.ping", new byte[HEADER_BYTES + 1]);
    } catch (NotFoundException expected) {
      return;
    } catch (RuntimeException e) {
      throw new RegistryUnavailableException("the schema registry " + url + " does not answer: " + describe(e), e);
    }
    throw new IllegalStateException("the schema registry " + url + " has content id 0, which Apicurio never assigns");
  }

  @Override
  public byte[] encode(String topic, SpecificRecord record) {
    if (!RecordCodec.TYPES.contains(record.getClass())) {
      throw new IllegalArgumentException("no registry encoding for " + record.getClass().getName());
    }
    try {
      return serializer.serialize(topic, record);
    } catch (ApicurioRestClientException e) {
      throw new RegistryUnavailableException("cannot register or look up the " + record.getSchema().getName()
          + " schema of topic " + topic + " at the schema registry " + url + ": " + describe(e), e);
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot encode " + record.getSchema().getName() + ": " + describe(e), e);
    }
  }

  @Override
  public RecordCodec.Decoded decode(String topic, byte[] bytes) {
    if (bytes == null || bytes.length == 0 || bytes[0] != 0) {
      return RecordCodec.decode(bytes);
    }
    if (bytes.length < HEADER_BYTES) {
      return RecordCodec.Decoded.failed("truncated", "truncated header: " + bytes.length
          + " bytes, the registry wire format needs " + HEADER_BYTES);
    }
    int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
    Object read;
    try {
      read = deserializer.deserialize(topic, bytes);
    } catch (NotFoundException e) {
      return RecordCodec.Decoded.failed("unknown-schema", "schema id " + id + " at byte 1 is not in the schema registry "
          + url + " (" + describe(e) + ")");
    } catch (ApicurioRestClientException e) {
      throw new RegistryUnavailableException("cannot look up schema id " + id + " of a record of topic " + topic
          + " at the schema registry " + url + ": " + describe(e), e);
    } catch (RuntimeException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("Could not find class")) {
        return RecordCodec.Decoded.failed("unknown-schema", "schema id " + id + " at byte 1 is not a record isowatch reads ("
            + describe(e) + "); expected one of " + names());
      }
      return RecordCodec.Decoded.failed("bad-body", "cannot read the body after byte " + HEADER_BYTES + " of " + bytes.length
          + " with schema id " + id + ": " + describe(e));
    }
    if (!(read instanceof SpecificRecord r) || !RecordCodec.TYPES.contains(r.getClass())) {
      return RecordCodec.Decoded.failed("unknown-schema", "schema id " + id + " at byte 1 is a "
          + (read == null ? "null" : read.getClass().getName()) + ", not one of " + names());
    }
    return new RecordCodec.Decoded(r, null, null);
  }

  private static String names() {
    return RecordCodec.TYPES.stream().map(Class::getSimpleName).toList().toString();
  }

  /** @return the exception's class and message, or for a registry client error its name and message */
  private static String describe(Throwable e) {
    String name = e.getClass().getSimpleName();
    String m = e.getMessage();
    if (e instanceof RestClientException a && a.getError() != null) {
      name = a.getError().getName();
      m = a.getError().getMessage();
    }
    return name + (m == null ? "" : ": " + (m.length() > 200 ? m.substring(0, 200) + "..." : m));
  }

  @Override
  public void close() {
    serializer.close();
    deserializer.close();
  }
}
