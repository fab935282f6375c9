package io.isowatch.registry;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real Apicurio Registry server (the release this module's build unpacked, 2.6.13.Final), run as
 * a child JVM on a free port of 127.0.0.1 with in-memory storage (H2 {@code jdbc:h2:mem:}) and no
 * authentication, for tests of registry-backed serdes.
 *
 * <p>{@link #start()} launches {@code java -jar apicurio-registry-app-<version>-runner.jar} (the
 * Quarkus runner jar of Apicurio's own {@code -all.tar.gz} distribution from Maven Central, see
 * this module's {@code pom.xml}), sends its standard output and error to {@code
 * target/schema-registry-<port>.log} and returns once {@code GET /health/ready} answers 200 (start
 * to ready takes about 4 to 10 s on two shared cores). The server keeps nothing after {@link
 * #close()}: each instance starts with an empty registry whose first global id is 1.
 *
 * <pre>{@code
 * try (RegistryServer registry = RegistryServer.start()) {
 *   props.put("apicurio.registry.url", registry.url());
 *   ...
 * }
 * }</pre>
 *
 * <p>The child JVM runs with {@link #JVM_OPTIONS} (about 210 MB resident). A shutdown hook kills it
 * if the test JVM exits without closing it.
 */
public final class RegistryServer implements AutoCloseable {

  /** The command, run from the repository root, that unpacks the registry this class launches. */
  public static final String BUILD_COMMAND =
      "mvn -B -pl testing/schema-registry process-resources";

  /**
   * Options of the child JVM: a small heap, the serial collector and the C1 compiler only, so that
   * the registry starts sooner and leaves CPU to the tests (its load in tests is a few requests).
   */
  public static final List<String> JVM_OPTIONS =
      List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  /** How long {@link #start()} waits for readiness: 120 s, for a loaded machine. */
  public static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

  private static final String HOST = "127.0.0.1";
  private static final String BUILD_PROPERTIES = "registry-server.properties";
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
  private static final int LOG_TAIL_LINES = 40;

  private final Process process;
  private final int port;
  private final Path logFile;
  private final Thread killOnExit;

  private RegistryServer(Process process, int port, Path logFile) {
    this.process = process;
    this.port = port;
    this.logFile = logFile;
    this.killOnExit = new Thread(this::stop, "schema-registry-" + port + "-kill");
    Runtime.getRuntime().addShutdownHook(killOnExit);
  }

  /**
   * Starts the registry that this module's build unpacked ({@link #runnerJarOfBuild()}), logging
   * to {@code target/schema-registry-<port>.log} under the working directory (a module's base
   * directory under Surefire), and waits up to {@link #READY_TIMEOUT} for it to be ready.
   *
   * @return the running server; close it to stop the child process
   * @throws IllegalStateException if the runner jar is missing (the message gives {@link
   *     #BUILD_COMMAND}), or the server exits or is not ready in time (the message gives the log
   *     file and its last lines)
   * @throws IOException if the log file or the child process cannot be created
   */
  public static RegistryServer start() throws IOException {
    return start(runnerJarOfBuild(), Path.of("target"), READY_TIMEOUT);
  }

  /**
   * Starts the registry of {@code runnerJar} on a free port of 127.0.0.1 and waits for it to be
   * ready.
   *
   * @param runnerJar Apicurio Registry's Quarkus runner jar, with its {@code lib/} directory next
   *     to it
   * @param logDirectory where {@code schema-registry-<port>.log} is written (created if absent)
   * @param readyTimeout how long to wait for {@code /health/ready} to answer 200
   * @return the running server; close it to stop the child process
   * @throws IllegalStateException if {@code runnerJar} is missing (the message gives {@link
   *     #BUILD_COMMAND}), or the server exits or is not ready within {@code readyTimeout} (the
   *     message gives the log file and its last lines; the process is killed)
   * @throws IOException if the log file or the child process cannot be created
   */
  public static RegistryServer start(Path runnerJar, Path logDirectory, Duration readyTimeout)
      throws IOException {
    if (!Files.isRegularFile(runnerJar)) {
      throw new IllegalStateException(
          "Apicurio Registry runner jar not found: "
              + runnerJar
              + "; build it from the repository root with: "
              + BUILD_COMMAND);
    }
    int port = freePort();
    Files.createDirectories(logDirectory);
    Path logFile = logDirectory.resolve("schema-registry-" + port + ".log").toAbsolutePath();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_OPTIONS);
    command.add("-Dquarkus.http.host=" + HOST);
    command.add("-Dquarkus.http.port=" + port);
    // pinned against REGISTRY_DATASOURCE_URL or AUTH_ENABLED in the caller's environment
    command.add("-Dquarkus.datasource.jdbc.url=jdbc:h2:mem:registry_db");
    command.add("-Dregistry.auth.enabled=false");
    command.add("-jar");
    command.add(runnerJar.toAbsolutePath().toString());
    Process process =
        new ProcessBuilder(command)
            .directory(logDirectory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(logFile.toFile())
            .start();
    RegistryServer server = new RegistryServer(process, port, logFile);
    try {
      server.awaitReady(readyTimeout);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /**
   * The runner jar that this module's build unpacked, read from the build-filtered resource {@code
   * io/isowatch/registry/registry-server.properties} (key {@code runner.jar}: an absolute path
   * under this module's {@code target/apicurio-registry/}). The file itself may be missing if the
   * module's {@code target} was cleaned since; {@link #start()} reports that.
   *
   * @return the absolute path of the runner jar
   * @throws IllegalStateException if the resource is absent (this module's classes are not on the
   *     class path)
   */
  public static Path runnerJarOfBuild() {
    Properties properties = new Properties();
    try (InputStream in = RegistryServer.class.getResourceAsStream(BUILD_PROPERTIES)) {
      if (in == null) {
        throw new IllegalStateException(
            "resource io/isowatch/registry/"
                + BUILD_PROPERTIES
                + " not on the class path; build it from the repository root with: "
                + BUILD_COMMAND);
      }
      properties.load(new InputStreamReader(in, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Path.of(properties.getProperty("runner.jar"));
  }

  /**
   * The base URL of Apicurio's v2 REST API, the value of the Apicurio 2.x serdes' {@code
   * apicurio.registry.url}.
   *
   * @return {@code http://127.0.0.1:<port>/apis/registry/v2}
   */
  public String url() {
    return "http://" + HOST + ":" + port + "/apis/registry/v2";
  }

  /**
   * The base URL of the registry's Confluent-compatible API (Schema Registry REST API v7), the
   * value of a Confluent client's {@code schema.registry.url}.
   *
   * @return {@code http://127.0.0.1:<port>/apis/ccompat/v7}
   */
  public String ccompatUrl() {
    return "http://" + HOST + ":" + port + "/apis/ccompat/v7";
  }

  /**
   * The TCP port the server listens on, on 127.0.0.1.
   *
   * @return the port, 1 to 65535
   */
  public int port() {
    return port;
  }

  /**
   * The file receiving the server's standard output and error.
   *
   * @return an absolute path ending in {@code schema-registry-<port>.log}
   */
  public Path logFile() {
    return logFile;
  }

  /**
   * Stops the server: SIGTERM to the child JVM and its descendants, SIGKILL after 15 s, and waits
   * for it to exit. Calling it again does nothing.
   */
  @Override
  public void close() {
    stop();
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException alreadyShuttingDown) {
      // the hook is running or will run stop(), which is idempotent
    }
  }

  private void stop() {
    if (!process.isAlive()) {
      return;
    }
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private void awaitReady(Duration timeout) {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest ready =
        HttpRequest.newBuilder(URI.create("http://" + HOST + ":" + port + "/health/ready"))
            .timeout(Duration.ofSeconds(5))
            .build();
    try {
      Awaitility.await("Apicurio Registry on port " + port + " ready")
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(100))
          .until(() -> !process.isAlive() || answers200(client, ready));
    } catch (ConditionTimeoutException e) {
      throw new IllegalStateException(
          "Apicurio Registry on port " + port + " not ready within " + timeout + problemContext(),
          e);
    }
    if (!process.isAlive()) {
      throw new IllegalStateException(
          "Apicurio Registry on port "
              + port
              + " exited with code "
              + process.exitValue()
              + " before it was ready"
              + problemContext());
    }
  }

  private static boolean answers200(HttpClient client, HttpRequest request)
      throws InterruptedException {
    try {
      return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException notListeningYet) {
      return false;
    }
  }

  private String problemContext() {
    StringBuilder text = new StringBuilder("; log ").append(logFile);
    try {
      List<String> lines = Files.readAllLines(logFile);
      text.append(", last lines:");
      for (String line : lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())) {
        text.append('\n').append(line);
      }
    } catch (IOException e) {
      text.append(" (unreadable: ").append(e.getMessage()).append(')');
    }
    return text.toString();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      return socket.getLocalPort();
    }
  }
}
