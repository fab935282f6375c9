package io.isowatch.cli.endtoend;

import io.isowatch.cli.IsowatchCli;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: {@code isowatch capture} in a child JVM (this test's class path), so that a test can
 * kill it the way a machine dies ({@link #kill}: SIGKILL, no shutdown hook, no flush) or stop it the
 * way an operator does ({@link #stop}: SIGTERM). Its standard output and error go to a log file.
 */
final class CaptureProcess {
  private final Process process;
  private final Path log;

  private CaptureProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * @param log where the child's standard output and error go
   * @param args the arguments after {@code capture}
   * @return the started child
   * @throws IOException if the JVM cannot be started
   */
  static CaptureProcess start(Path log, List<String> args) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), IsowatchCli.class.getName(), "capture"));
    command.addAll(args);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new CaptureProcess(p, log);
  }

  /** @return the file holding the child's output */
  Path log() {
    return log;
  }

  /** @return the child's output so far */
  String output() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /** @return whether the child still runs */
  boolean alive() {
    return process.isAlive();
  }

  /** Kills the child with SIGKILL and waits until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the capture process did not die within 30 s of SIGKILL");
    }
  }

  /**
   * Sends SIGTERM and waits for the child to exit.
   *
   * @return its exit code
   */
  int stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("the capture process did not stop within 60 s of SIGTERM");
    }
    return process.exitValue();
  }
}
