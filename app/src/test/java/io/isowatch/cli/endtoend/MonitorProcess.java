package io.isowatch.cli.endtoend;

import io.isowatch.cli.IsowatchCli;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test helper: {@code isowatch monitor} in a child JVM (this test's class path), so that a test can
 * kill it the way a machine dies: {@link Process#destroyForcibly()}, SIGKILL on Unix, no shutdown
 * hook, no clean close, no final commit. Its output goes to a log file for diagnosis; its metrics
 * endpoint listens on a free port, read back from the startup line, so that a test can read its
 * counters ({@link #counter}).
 */
final class MonitorProcess {
  private static final Pattern METRICS_URL = Pattern.compile("metrics at (http://\\S+/metrics)");

  private final Process process;
  private final Path log;

  private MonitorProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * @param log where the child's standard output and error go
   * @param applicationId its {@code --application-id}
   * @param config topics and expected level
   * @param stateDir its {@code --state-dir}
   * @param configFile its {@code --config}
   * @return the started child
   * @throws IOException if the JVM cannot be started
   */
  static MonitorProcess start(Path log, String applicationId, MonitorConfig config, Path stateDir, Path configFile)
      throws IOException {
    return start(log, KafkaBroker.bootstrapServers(), applicationId, config, stateDir, configFile);
  }

  /**
   * As {@link #start(Path, String, MonitorConfig, Path, Path)} against another cluster.
   *
   * @param bootstrapServers its {@code --bootstrap-servers}
   */
  static MonitorProcess start(Path log, String bootstrapServers, String applicationId, MonitorConfig config,
      Path stateDir, Path configFile) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = List.of(java, "-Xmx512m", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), IsowatchCli.class.getName(),
        "monitor", "--bootstrap-servers", bootstrapServers,
        "--application-id", applicationId,
        "--level", config.expectedLevel().cliName(),
        "--events-topic", config.eventsTopic(),
        "--violations-topic", config.violationsTopic(),
        "--dlq-topic", config.dlqTopic(),
        "--window-transactions", Integer.toString(config.windowTransactions()),
        "--state-dir", stateDir.toString(),
        "--config", configFile.toString(),
        "--metrics-port", "0",
        config.splitLevels() ? "--split-levels" : "--no-split-levels",
        "--no-print-violations");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new MonitorProcess(p, log);
  }

  /**
   * Reads a counter from the child's metrics endpoint, summed over its labels.
   *
   * @param prometheusName e.g. {@code isowatch_state_restored_records_total}
   * @return its value now; 0 while the endpoint is not up yet or the counter not yet registered
   * @throws IOException if the endpoint is up but does not answer
   * @throws InterruptedException if interrupted while waiting for the answer
   */
  double counter(String prometheusName) throws IOException, InterruptedException {
    Matcher m = METRICS_URL.matcher(Files.readString(log, StandardCharsets.UTF_8));
    if (!m.find()) {
      return 0;
    }
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(m.group(1))).build(), HttpResponse.BodyHandlers.ofString());
    return r.body().lines()
        .filter(l -> l.startsWith(prometheusName + "{") || l.startsWith(prometheusName + " "))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  /**
   * @return whether the child has started its Kafka Streams application (its startup line, with the
   *     metrics address, is in the log)
   * @throws IOException if the log cannot be read
   */
  boolean started() throws IOException {
    return METRICS_URL.matcher(Files.readString(log, StandardCharsets.UTF_8)).find();
  }

  /** @return whether the child still runs (it exits on its own only when Kafka Streams fails) */
  boolean alive() {
    return process.isAlive();
  }

  /** Kills the child with SIGKILL and waits until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the monitor process did not die within 30 s of SIGKILL");
    }
  }
}
