package io.isowatch.stream.app;

import io.isowatch.cli.IsowatchCli;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.topology.MonitorConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: {@code isowatch monitor} in a child JVM (this test's class path), so that a test can
 * kill it the way a machine dies: {@link Process#destroyForcibly()}, SIGKILL on Unix, no shutdown
 * hook, no clean close, no final commit. Its output goes to a log file for diagnosis.
 */
final class MonitorProcess {
  private final Process process;

  private MonitorProcess(Process process) {
    this.process = process;
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
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = List.of(java, "-Xmx512m", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), IsowatchCli.class.getName(),
        "monitor", "--bootstrap-servers", KafkaBroker.bootstrapServers(),
        "--application-id", applicationId,
        "--level", config.expectedLevel().cliName(),
        "--events-topic", config.eventsTopic(),
        "--violations-topic", config.violationsTopic(),
        "--dlq-topic", config.dlqTopic(),
        "--state-dir", stateDir.toString(),
        "--config", configFile.toString(),
        "--metrics-port", "-1",
        "--no-print-violations");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new MonitorProcess(p);
  }

  /** Kills the child with SIGKILL and waits until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the monitor process did not die within 30 s of SIGKILL");
    }
  }
}
