package io.isowatch.schemas.serde;

import io.apicurio.registry.rest.client.exception.NotFoundException;
import io.apicurio.registry.rest.client.exception.RestClientException;
import io.apicurio.registry.serde.Legacy4ByteIdHandler;
import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.apicurio.registry.serde.avro.strategy.TopicRecordIdStrategy;
import io.apicurio.registry.serde.data.KafkaSerdeMetadata;
import io.apicurio.registry.serde.data.KafkaSerdeRecord;
import io.apicurio.rest.client.error.ApicurioRestClientException;
import io.isowatch.schemas.TrustedClasses;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Locale;
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
 * <p>Settings: {@value #URL} (required) and any other {@code apicurio.registry.*} or {@code
 * apicurio.auth.*} setting of Apicurio's serdes (TLS, retries, credentials). The URL gets Apicurio's
 * v2 API path {@value #API_PATH} unless it ends with it ({@link #apiUrl}). The framing settings
 * ({@code headers.enabled=false}, the 4-byte id handler, {@code use-id=contentId}) and the
 * specific-record reader are always set. Thread-safe.
 */
public final class RegistryFormat implements WireFormat {
  /** The setting that names the registry: Apicurio's {@code apicurio.registry.url}. */
  public static final String URL = SerdeConfig.REGISTRY_URL;
  /** Path of Apicurio Registry's v2 REST API, added to a URL that has none. */
  public static final String API_PATH = "/apis/registry/v2";
  /**
   * Prefix of the settings passed to Apicurio's serdes: {@code apicurio.registry.*} and {@code
   * apicurio.auth.*} (credentials).
   */
  public static final String SETTINGS_PREFIX = "apicurio.";
  /** Bytes before the Avro body: the magic byte and the 4-byte schema id. */
  public static final int HEADER_BYTES = 5;

  private final String url;
  private final AvroKafkaSerializer<SpecificRecord> serializer = new AvroKafkaSerializer<>();
  private final AvroKafkaDeserializer<SpecificRecord> deserializer = new AvroKafkaDeserializer<>();

  /**
   * Thrown when the registry cannot be used: it does not answer (connection refused, timeout), it
   * answers with an error (a 5xx, 401), or, when writing with {@code
   * apicurio.registry.auto-register=false}, it lacks the record's schema. The message may be good,
   * so it is not a dead letter; the caller fails (the monitor's stream thread is replaced and
   * retries) or exits.
   */
  public static final class RegistryFailureException extends IllegalStateException {
    /**
     * @param message what could not be done, naming the registry
     * @param cause the client's error
     */
    public RegistryFailureException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * @param settings {@value #URL} and other {@code apicurio.*} settings; others are ignored
   * @throws IllegalArgumentException if {@value #URL} is missing or not an http(s) URL
   */
  public RegistryFormat(Map<?, ?> settings) {
    Map<String, Object> config = serdeSettings(settings);
    this.url = (String) config.get(URL);
    config.put(AvroKafkaSerdeConfig.USE_SPECIFIC_AVRO_READER, "true");
    serializer.configure(config, false);
    deserializer.configure(config, false);
  }

  /**
   * The settings of Apicurio's serdes for isowatch's framing (the class comment), without the
   * reader: this class adds the specific-record reader; a reader of other producers' records (such
   * as Debezium's envelopes, {@link io.isowatch.schemas.debezium.AvroEnvelopes}) leaves Avro's
   * generic one.
   *
   * @param settings {@value #URL} and other {@code apicurio.*} settings; others are ignored
   * @return a new mutable map of the serdes' settings, {@value #URL} set to {@link #apiUrl}
   * @throws IllegalArgumentException if {@value #URL} is missing or not an http(s) URL
   */
  public static Map<String, Object> serdeSettings(Map<?, ?> settings) {
    Object given = settings.get(URL);
    if (given == null || given.toString().isBlank()) {
      throw new IllegalArgumentException(URL + " is not set");
    }
    TrustedClasses.install();
    Map<String, Object> config = new HashMap<>();
    config.put(SerdeConfig.AUTO_REGISTER_ARTIFACT, "true");
    config.put(SerdeConfig.ARTIFACT_RESOLVER_STRATEGY, TopicRecordIdStrategy.class.getName());
    settings.forEach((k, v) -> {
      if (k.toString().startsWith(SETTINGS_PREFIX)) {
        config.put(k.toString(), v);
      }
    });
    config.put(URL, apiUrl(given.toString().strip()));
    config.put(SerdeConfig.ENABLE_HEADERS, "false");
    // Apicurio's "as-confluent" shortcut warns when its default id handler was also configured
    config.remove(SerdeConfig.ENABLE_CONFLUENT_ID_HANDLER);
    config.put(SerdeConfig.ID_HANDLER, Legacy4ByteIdHandler.class.getName());
    config.put(SerdeConfig.USE_ID, "contentId");
    return config;
  }

  /**
   * @param given a URL as a user wrote it
   * @return it with a lower-case scheme, without a trailing slash, ending with {@value #API_PATH}
   *     (added unless the path ends with it, as Apicurio's client would add it)
   * @throws IllegalArgumentException if it is not an absolute http or https URL, holds credentials
   *     (they belong in {@code apicurio.auth.*} settings, which are never printed), a query or a
   *     fragment, or names Apicurio's Confluent-compatible API instead of its v2 API
   */
  public static String apiUrl(String given) {
    URI uri;
    try {
      uri = new URI(given);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("schema registry URL '" + given + "' is not a URL: " + e.getMessage(), e);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw new IllegalArgumentException("schema registry URL '" + given + "' must be http://HOST[:PORT][/PATH] or https://...");
    }
    if (uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException("the schema registry URL must not hold credentials; give them as"
          + " apicurio.auth.username and apicurio.auth.password in --config");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new IllegalArgumentException("schema registry URL '" + given + "' must not have a query or a fragment");
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
    if (path.contains("/apis/ccompat")) {
      throw new IllegalArgumentException("schema registry URL '" + given + "' is Apicurio's Confluent-compatible API;"
          + " isowatch uses its v2 API: give http://HOST[:PORT] (" + API_PATH + " is added)");
    }
    String base = scheme + "://" + uri.getRawAuthority() + path;
    return path.endsWith(API_PATH) ? base : base + API_PATH;
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
   * @throws RegistryFailureException if it does not answer, or answers with an error other
   *     than "not found" (e.g. 401 for missing credentials)
   */
  public void ping() {
    try {
      deserializer.deserialize("isowatch.ping", new byte[HEADER_BYTES + 1]);
    } catch (NotFoundException expected) {
      return;
    } catch (RuntimeException e) {
      throw new RegistryFailureException("the schema registry " + url + " does not answer: " + describe(e), e);
    }
    throw new IllegalStateException("the schema registry " + url + " has content id 0, which Apicurio never assigns");
  }

  /**
   * Resolves the schema that writing a {@code type} record to {@code topic} uses, as {@link #encode}
   * does before its first write of that type to that topic (and caches): it registers the schema
   * unless {@code apicurio.registry.auto-register=false}, when it looks it up instead. A writer
   * that calls this at start fails there, naming the artifact, rather than at its first record.
   *
   * @param type one of {@link RecordCodec#TYPES}
   * @throws IllegalArgumentException if {@code type} is not one of {@link RecordCodec#TYPES}
   * @throws RegistryFailureException if the registry cannot be used, or with auto-registration off
   *     lacks the schema (the message names the artifact and group to register)
   */
  public void requireWritable(String topic, Class<? extends SpecificRecord> type) {
    if (!RecordCodec.TYPES.contains(type)) {
      throw new IllegalArgumentException("no registry encoding for " + type.getName());
    }
    SpecificRecord empty;
    try {
      empty = type.getDeclaredConstructor().newInstance(); // only its schema is read
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make an empty " + type.getName(), e);
    }
    try {
      serializer.getSchemaResolver().resolveSchema(new KafkaSerdeRecord<>(new KafkaSerdeMetadata(topic, false, null), empty));
    } catch (RuntimeException e) {
      throw writeFailure(topic, empty, e);
    }
  }

  @Override
  public byte[] encode(String topic, SpecificRecord record) {
    if (!RecordCodec.TYPES.contains(record.getClass())) {
      throw new IllegalArgumentException("no registry encoding for " + record.getClass().getName());
    }
    try {
      return serializer.serialize(topic, record);
    } catch (RuntimeException e) {
      throw writeFailure(topic, record, e);
    }
  }

  /** @return what a failure {@code e} to write {@code record} to {@code topic} is reported as */
  private RuntimeException writeFailure(String topic, SpecificRecord record, RuntimeException e) {
    String name = record.getSchema().getName();
    if (e instanceof NotFoundException) {
      return new RegistryFailureException("the schema registry " + url + " has no " + name
          + " schema for topic " + topic + " and apicurio.registry.auto-register is false: register it (artifact "
          + topic + "-" + name + " of group " + record.getSchema().getNamespace()
          + ", from schemas/src/main/avro/) or allow auto-registration (" + describe(e) + ")", e);
    }
    if (e instanceof ApicurioRestClientException) {
      return new RegistryFailureException("cannot register or look up the " + name
          + " schema of topic " + topic + " at the schema registry " + url + ": " + describe(e), e);
    }
    return new IllegalStateException("cannot encode " + name + ": " + describe(e), e);
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
      throw new RegistryFailureException("cannot look up schema id " + id + " of a record of topic " + topic
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
