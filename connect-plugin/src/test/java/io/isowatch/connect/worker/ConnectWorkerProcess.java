package io.isowatch.connect.worker;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.connect.cli.ConnectStandalone;

/**
 * Test helper: a real Kafka Connect standalone worker in a child JVM, started as {@code
 * connect-standalone.sh} starts it ({@link ConnectStandalone} with a worker properties file), so that
 * a test can kill it the way a machine dies ({@link #kill}: SIGKILL, no shutdown hook, no offset
 * commit) or stop it as an operator does ({@link #stop}: SIGTERM).
 *
 * <p>The child's class path is the worker's own: this test's class path without isowatch's classes
 * and without the Debezium PostgreSQL connector. Plugins come from {@code plugin.path} only, as in a
 * deployment, and are found through their service manifests ({@code plugin.discovery=service_load},
 * which also spares the scan of every jar a reflective discovery makes): the isowatch transform from
 * the packaged zip, unzipped ({@link Plugins}), and the connector from the jars of group {@code
 * io.debezium} with its PostgreSQL driver and protobuf, copied from this class path. Source offsets
 * are in a file, committed when a task stops (also on a connector restart) and otherwise every 10
 * minutes, that is never within a test: what a task published after its last commit is published
 * again after a SIGKILL. The child logs to a file: warnings, and at INFO the REST server's start
 * (which says where it listens), where each plugin was loaded from, and Debezium's connector (the
 * LSN it resumes from).
 */
public final class ConnectWorkerProcess {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LISTENING = Pattern.compile("REST server listening at (http://[^/, ]+/)");

  private final Process process;
  private final Path log;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
  private URI url;

  private ConnectWorkerProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * Starts a worker and waits until its REST API answers {@code GET /connectors} with 200.
   *
   * @param dir a directory for this worker's files: {@code worker.properties}, {@code logback.xml}
   *     and its log, {@code <name>.log}
   * @param name the worker's name, which names its log
   * @param bootstrapServers the broker the worker's producers write to
   * @param offsets the standalone offsets file (created if absent; shared by successive workers so
   *     that a restarted one resumes where the last commit left off)
   * @param pluginPath the directory of plugin directories ({@link Plugins#prepare})
   * @param patience how long to wait for the REST API
   * @return the started worker
   * @throws IOException if the JVM cannot be started
   * @throws org.awaitility.core.ConditionTimeoutException if the REST API does not answer in time
   * @throws IllegalStateException if the child exits before its REST API answers (with its log)
   */
  public static ConnectWorkerProcess start(Path dir, String name, String bootstrapServers, Path offsets, Path pluginPath,
      Duration patience) throws IOException, InterruptedException {
    Properties worker = new Properties();
    worker.setProperty("bootstrap.servers", bootstrapServers);
    worker.setProperty("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.setProperty("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.setProperty("offset.storage.file.filename", offsets.toString());
    worker.setProperty("offset.flush.interval.ms", "600000");
    worker.setProperty("listeners", "http://127.0.0.1:0");
    worker.setProperty("plugin.path", pluginPath.toString());
    worker.setProperty("plugin.discovery", "service_load");
    Path properties = dir.resolve(name + ".properties");
    try (var out = Files.newBufferedWriter(properties)) {
      worker.store(out, "Kafka Connect standalone worker " + name);
    }
    Path logback = Files.writeString(dir.resolve("logback-worker.xml"), """
        <configuration>
          <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
            <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
          </appender>
          <logger name="org.apache.kafka.connect.runtime.rest.RestServer" level="INFO"/>
          <logger name="org.apache.kafka.connect.runtime.Connect" level="INFO"/>
          <logger name="io.debezium.connector.postgresql" level="INFO"/>
          <logger name="org.apache.kafka.connect.runtime.isolation" level="INFO"/>
          <root level="WARN"><appender-ref ref="OUT"/></root>
        </configuration>
        """);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-Dlogback.configurationFile=" + logback, "-cp", String.join(File.pathSeparator, Plugins.workerClassPath()),
        ConnectStandalone.class.getName(), properties.toString());
    Path out = dir.resolve(name + ".log");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    ConnectWorkerProcess started = new ConnectWorkerProcess(p, out);
    try {
      await().atMost(patience).pollInterval(Duration.ofMillis(500)).ignoreExceptionsInstanceOf(IOException.class)
          .until(started::restReady);
    } catch (RuntimeException | Error e) {
      started.kill();
      throw e;
    }
    return started;
  }

  /** @return whether the REST API answers; reads the URL from the log line saying where it listens */
  private boolean restReady() throws IOException, InterruptedException {
    if (!process.isAlive()) {
      throw new IllegalStateException("the Connect worker exited with " + process.exitValue() + " (" + log + "):\n"
          + output());
    }
    if (url == null) {
      Matcher m = LISTENING.matcher(output());
      if (!m.find()) {
        return false;
      }
      url = URI.create(m.group(1));
    }
    return send(HttpRequest.newBuilder(url.resolve("/connectors")).GET()).statusCode() == 200;
  }

  /**
   * Creates or replaces a connector: {@code PUT /connectors/NAME/config}, as a user submits one.
   *
   * @param name the connector's name
   * @param config its configuration
   * @throws IllegalStateException if the worker answers with an error (the message holds its body)
   */
  public void putConnector(String name, Map<String, String> config) throws IOException, InterruptedException {
    expectSuccess("PUT connector " + name, send(HttpRequest.newBuilder(url.resolve("/connectors/" + name + "/config"))
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(config)))));
  }

  /**
   * Restarts a connector and its tasks ({@code POST /connectors/NAME/restart?includeTasks=true}):
   * each task stops, which commits its offsets to the file, and starts again.
   *
   * @param name the connector's name
   * @throws IllegalStateException if the worker answers with an error
   */
  public void restartConnector(String name) throws IOException, InterruptedException {
    expectSuccess("restart connector " + name, send(HttpRequest.newBuilder(
        url.resolve("/connectors/" + name + "/restart?includeTasks=true")).POST(HttpRequest.BodyPublishers.noBody())));
  }

  /**
   * @param name a connector's name
   * @return the state of its first task ({@code RUNNING}, {@code FAILED} ...) followed by the trace
   *     of a failure, or {@code absent} while it has none
   */
  public String taskState(String name) throws IOException, InterruptedException {
    HttpResponse<String> answer = send(HttpRequest.newBuilder(url.resolve("/connectors/" + name + "/status")).GET());
    JsonNode tasks = JSON.readTree(answer.body()).path("tasks");
    if (tasks.isEmpty()) {
      return "absent";
    }
    return tasks.get(0).path("state").asText() + tasks.get(0).path("trace").asText("");
  }

  /** @return the child's output so far */
  public String output() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /** @return the file holding the child's output */
  public Path log() {
    return log;
  }

  /** @return whether the child still runs */
  public boolean alive() {
    return process.isAlive();
  }

  /** Kills the child with SIGKILL (nothing runs in it after) and waits until it is gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the Connect worker did not die within 60 s of SIGKILL");
    }
  }

  /**
   * Sends SIGTERM, on which the worker stops its tasks (committing their offsets), and waits for
   * the child to exit.
   *
   * @param patience how long to wait
   * @return its exit code
   * @throws IllegalStateException if it has not exited in time (it is then killed)
   */
  public int stop(Duration patience) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS)) {
      kill();
      throw new IllegalStateException("the Connect worker did not stop within " + patience + " of SIGTERM");
    }
    return process.exitValue();
  }

  /**
   * Sends a request with 2 minutes of patience: a {@code PUT} of a connector validates its
   * configuration, Debezium's by connecting to the database, which a machine loaded far beyond its
   * cores can take tens of seconds to do.
   */
  private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return http.send(request.timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void expectSuccess(String what, HttpResponse<String> answer) {
    if (answer.statusCode() >= 300) {
      throw new IllegalStateException(what + ": " + answer.statusCode() + " " + answer.body());
    }
  }
}
