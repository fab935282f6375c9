package io.isowatch.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegistryServerTest {

  private static final String SCHEMA =
      "{\"type\":\"record\",\"name\":\"Probe\",\"namespace\":\"io.isowatch.test\","
          + "\"fields\":[{\"name\":\"txnId\",\"type\":\"long\"},"
          + "{\"name\":\"key\",\"type\":\"string\"}]}";

  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void registersAnAvroSchemaReadsItBackByGlobalIdAndStops() throws Exception {
    String url;
    try (RegistryServer registry = RegistryServer.start()) {
      url = registry.url();
      assertThat(url).isEqualTo("http://127.0.0.1:" + registry.port() + "/apis/registry/v2");
      assertThat(registry.ccompatUrl())
          .isEqualTo("http://127.0.0.1:" + registry.port() + "/apis/ccompat/v7");

      ObjectNode info = (ObjectNode) json.readTree(get(url + "/system/info").body());
      assertThat(info.get("name").asText()).isEqualTo("apicurio-registry");
      assertThat(info.get("version").asText()).isEqualTo("2.6.13.Final");

      HttpResponse<String> created =
          http.send(
              HttpRequest.newBuilder(URI.create(url + "/groups/default/artifacts"))
                  .header("Content-Type", "application/json")
                  .header("X-Registry-ArtifactId", "probe-value")
                  .header("X-Registry-ArtifactType", "AVRO")
                  .POST(HttpRequest.BodyPublishers.ofString(SCHEMA))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(created.statusCode()).isEqualTo(200);
      ObjectNode metadata = (ObjectNode) json.readTree(created.body());
      assertThat(metadata.remove("createdOn").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*");
      assertThat(metadata.remove("modifiedOn").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*");
      assertThat(metadata)
          .isEqualTo(
              json.readTree(
                  "{\"contentId\":1,\"createdBy\":\"\",\"globalId\":1,\"id\":\"probe-value\","
                      + "\"modifiedBy\":\"\",\"name\":\"Probe\",\"references\":[],"
                      + "\"state\":\"ENABLED\",\"type\":\"AVRO\",\"version\":\"1\"}"));

      HttpResponse<String> byGlobalId = get(url + "/ids/globalIds/1");
      assertThat(byGlobalId.statusCode()).isEqualTo(200);
      assertThat(byGlobalId.body()).isEqualTo(SCHEMA);

      HttpResponse<String> byCcompatId = get(registry.ccompatUrl() + "/schemas/ids/1");
      ObjectNode expected = json.createObjectNode().put("schema", SCHEMA);
      expected.putArray("references");
      assertThat(json.readTree(byCcompatId.body())).isEqualTo(expected);
    }
    assertThatThrownBy(() -> get(url + "/system/info")).isInstanceOf(ConnectException.class);
  }

  @Test
  void runnerJarOfBuildIsTheOneThisModuleUnpacked() {
    assertThat(RegistryServer.runnerJarOfBuild())
        .isEqualTo(
            Path.of("target/apicurio-registry/apicurio-registry-app-2.6.13.Final-runner.jar")
                .toAbsolutePath());
  }

  @Test
  void aMissingRunnerJarIsReportedWithTheCommandThatBuildsIt(@TempDir Path dir) {
    Path absent = dir.resolve("apicurio-registry-app-runner.jar");
    assertThatThrownBy(() -> RegistryServer.start(absent, dir, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Apicurio Registry runner jar not found: "
                + absent
                + "; build it from the repository root with:"
                + " mvn -B -pl testing/schema-registry process-resources");
  }

  private HttpResponse<String> get(String uri) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(uri)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
