package io.isowatch.connect.outbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.connect.cli.ConnectStandalone;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.runtime.standalone.StandaloneHerder;

/**
 * A real Kafka Connect worker in this JVM: the standalone herder with its REST server, started as
 * {@code connect-standalone.sh} starts it ({@link ConnectStandalone#startConnect}), on a given broker,
 * with its source offsets in a file (so that a restarted worker resumes where the stopped one
 * committed), committed when the worker stops (and every 10 minutes, never within a test). Plugins (the Debezium connector, the transform) come from the test class path; no
 * {@code plugin.path}. Connector configurations go through the REST API, as a user submits them.
 */
final class ConnectWorker implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Connect<StandaloneHerder> connect;
  private final HttpClient http = HttpClient.newHttpClient();

  private ConnectWorker(Connect<StandaloneHerder> connect) {
    this.connect = connect;
  }

  /**
   * @param bootstrapServers the broker the worker's producers write to
   * @param offsets the standalone offsets file (created if absent)
   * @return a started worker, its REST server on a free port of 127.0.0.1
   */
  static ConnectWorker start(String bootstrapServers, Path offsets) {
    Map<String, String> worker = Map.of(
        "bootstrap.servers", bootstrapServers,
        "key.converter", "org.apache.kafka.connect.json.JsonConverter",
        "value.converter", "org.apache.kafka.connect.json.JsonConverter",
        "offset.storage.file.filename", offsets.toString(),
        "offset.flush.interval.ms", "600000",
        "listeners", "http://127.0.0.1:0",
        "plugin.discovery", "service_load");
    return new ConnectWorker(new ConnectStandalone().startConnect(worker));
  }

  /**
   * Creates or replaces a connector: {@code PUT /connectors/NAME/config}.
   *
   * @param name the connector's name
   * @param config its configuration
   * @throws IllegalStateException if the worker answers with an error (the message holds its body)
   */
  void putConnector(String name, Map<String, String> config) throws IOException, InterruptedException {
    HttpRequest put = HttpRequest.newBuilder(url("/connectors/" + name + "/config"))
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(config))).build();
    HttpResponse<String> answer = http.send(put, HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() >= 300) {
      throw new IllegalStateException("PUT connector " + name + ": " + answer.statusCode() + " " + answer.body());
    }
  }

  /**
   * @param name a connector's name
   * @return the state of its first task ({@code RUNNING}, {@code FAILED} ...) with the trace of a
   *     failure, or {@code absent} while it has none
   */
  String taskState(String name) throws IOException, InterruptedException {
    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(url("/connectors/" + name + "/status")).build(),
        HttpResponse.BodyHandlers.ofString());
    var tasks = JSON.readTree(answer.body()).path("tasks");
    if (tasks.isEmpty()) {
      return "absent";
    }
    return tasks.get(0).path("state").asText() + tasks.get(0).path("trace").asText("");
  }

  private URI url(String path) {
    return connect.rest().serverUrl().resolve(path);
  }

  /** Stops the worker as on SIGTERM: tasks stop and commit their offsets, then the herder and REST. */
  @Override
  public void close() {
    connect.stop();
    connect.awaitStop();
  }
}
