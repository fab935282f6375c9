package io.isowatch.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.registry.RegistryServer;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Samples;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.Violation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link RegistryFormat} against a real Apicurio Registry 2.6.13 ({@link RegistryServer}, a child
 * JVM on a free port, empty at each start): the framing, the ids the Confluent-compatible API knows,
 * schema resolution of an earlier writer schema, and the exact reasons for bad messages.
 */
class RegistryFormatTest {
  private static final String TOPIC = "isowatch.events";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  private static RegistryServer server;
  private static RegistryFormat format;

  @BeforeAll
  static void startRegistry() throws IOException {
    server = RegistryServer.start();
    format = new RegistryFormat(Map.of(RegistryFormat.URL, server.url()));
  }

  @AfterAll
  static void stopRegistry() {
    if (format != null) {
      format.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void eachRecordTypeRoundTripsInTheConfluentFramingWithIdsTheCompatibleApiKnows() throws Exception {
    format.ping(); // a working registry answers "not found" for content id 0
    List<SpecificRecord> records = List.of(Samples.readListEvent(), Samples.transaction(), Samples.violation(),
        Samples.deadLetter());
    for (SpecificRecord r : records) {
      byte[] bytes = format.encode(TOPIC, r);

      assertThat(bytes[0]).isEqualTo((byte) 0);
      assertThat(format.decode(TOPIC, bytes).record()).isEqualTo(r);
      int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
      JsonNode schema = get(server.ccompatUrl() + "/schemas/ids/" + id);
      assertThat(new Schema.Parser().parse(schema.get("schema").asText())).isEqualTo(r.getSchema());
      // the body after the 5-byte header is plain Avro binary of the record's schema
      Object body = new SpecificDatumReader<>(r.getSchema()).read(null,
          DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));
      assertThat(body).isEqualTo(r);
    }
    // one artifact per topic and record type (TopicRecordIdStrategy), in the schemas' namespace
    for (Class<?> type : List.of(TxnEvent.class, Transaction.class, Violation.class, DeadLetter.class)) {
      JsonNode meta = get(server.url() + "/groups/io.isowatch.schemas/artifacts/" + TOPIC + "-" + type.getSimpleName()
          + "/meta");
      assertThat(meta.get("type").asText()).isEqualTo("AVRO");
    }
    // a second record of a type reuses the registered schema: the same id
    assertThat(Arrays.copyOf(format.encode(TOPIC, Samples.beginEvent()), 5))
        .isEqualTo(Arrays.copyOf(format.encode(TOPIC, Samples.readListEvent()), 5));
  }

  @Test
  void readsAViolationWrittenWithTheEarlierSchemaAsTodaysWithoutTheSummary() throws Exception {
    Schema earlier = RecordCodec.earlierSchema("Violation-1.avsc");
    long id = register("isowatch.violations-Violation-1", earlier);
    Violation today = Samples.violation();
    // today's violation as the earlier writer had it: Avro resolution drops the field added since
    GenericRecord old = new GenericDatumReader<GenericRecord>(Violation.getClassSchema(), earlier).read(null,
        DecoderFactory.get().binaryDecoder(avro(today, Violation.getClassSchema()), null));

    RecordCodec.Decoded read = format.decode("isowatch.violations", framed(id, avro(old, earlier)));

    assertThat(read.error()).isNull();
    assertThat(read.record()).isEqualTo(Violation.newBuilder(today).setSummary(null).build());
  }

  @Test
  void namesTheProblemOfMessagesItCannotRead() throws Exception {
    RecordCodec.Decoded unknownId = format.decode(TOPIC, framed(90_000, new byte[] {2}));
    assertThat(unknownId.reasonClass()).isEqualTo("unknown-schema");
    assertThat(unknownId.error()).isEqualTo("schema id 90000 at byte 1 is not in the schema registry " + server.url()
        + " (ContentNotFoundException: No content with id/hash 'contentId-90000' was found.)");

    Schema other = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Other\",\"namespace\":\"com.example\","
        + "\"fields\":[{\"name\":\"n\",\"type\":\"int\"}]}");
    long otherId = register("com.example.Other", other);
    GenericRecord o = new GenericData.Record(other);
    o.put("n", 7);
    RecordCodec.Decoded notOurs = format.decode(TOPIC, framed(otherId, avro(o, other)));
    assertThat(notOurs.reasonClass()).isEqualTo("unknown-schema");
    assertThat(notOurs.error()).startsWith("schema id " + otherId + " at byte 1 is not a record isowatch reads (")
        .endsWith("expected one of [TxnEvent, Transaction, Violation, DeadLetter, SourceWatermark]");

    byte[] good = format.encode(TOPIC, Samples.transaction());
    RecordCodec.Decoded cut = format.decode(TOPIC, Arrays.copyOf(good, 9));
    assertThat(cut.reasonClass()).isEqualTo("bad-body");
    assertThat(cut.error()).startsWith("cannot read the body after byte 5 of 9 with schema id "
        + ByteBuffer.wrap(good, 1, 4).getInt() + ": ");
  }

  @Test
  void requireWritableRegistersTheSchemaOrWithAutoRegistrationOffNamesTheMissingArtifact() {
    // formats of their own: a serializer caches a schema's lookup by its content, whatever the topic
    try (RegistryFormat strict = new RegistryFormat(Map.of(RegistryFormat.URL, server.url(),
        "apicurio.registry.auto-register", "false"));
        RegistryFormat registering = new RegistryFormat(Map.of(RegistryFormat.URL, server.url()))) {
      assertThatThrownBy(() -> strict.requireWritable("required.violations", Violation.class))
          .isInstanceOf(RegistryFormat.RegistryFailureException.class)
          .hasMessageStartingWith("the schema registry " + strict.url() + " has no Violation schema for topic"
              + " required.violations and apicurio.registry.auto-register is false: register it (artifact"
              + " required.violations-Violation of group io.isowatch.schemas, from schemas/src/main/avro/) or allow"
              + " auto-registration (");

      registering.requireWritable("required.violations", Violation.class); // auto-registration on: registers it

      strict.requireWritable("required.violations", Violation.class);
      byte[] bytes = strict.encode("required.violations", Samples.violation());
      assertThat(registering.decode("required.violations", bytes).record()).isEqualTo(Samples.violation());
    }
    assertThatThrownBy(() -> format.requireWritable("required.violations", Operation.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no registry encoding for io.isowatch.schemas.Operation");
  }

  @Test
  void aSerdeConfiguredWithTheRegistryUrlWritesTheRegistryFraming() {
    try (RecordSerde serde = new RecordSerde()) {
      serde.configure(Map.of(RegistryFormat.URL, server.url()), false);
      byte[] bytes = serde.serializer().serialize(TOPIC, Samples.transaction());
      assertThat(bytes[0]).isEqualTo((byte) 0);
      assertThat(serde.deserializer().deserialize(TOPIC, bytes)).isEqualTo(Samples.transaction());
    }
  }

  /** @return the content id of {@code schema}, registered as artifact {@code artifactId} of group default */
  private static long register(String artifactId, Schema schema) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(server.url() + "/groups/default/artifacts"))
        .header("Content-Type", "application/json")
        .header("X-Registry-ArtifactId", artifactId)
        .header("X-Registry-ArtifactType", "AVRO")
        .POST(HttpRequest.BodyPublishers.ofString(schema.toString())).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body()).get("contentId").asLong();
  }

  private static JsonNode get(String url) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  private static byte[] avro(Object record, Schema schema) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<Object>(schema).write(record, enc);
    enc.flush();
    return out.toByteArray();
  }

  private static byte[] framed(long id, byte[] body) {
    return ByteBuffer.allocate(5 + body.length).put((byte) 0).putInt((int) id).put(body).array();
  }
}
