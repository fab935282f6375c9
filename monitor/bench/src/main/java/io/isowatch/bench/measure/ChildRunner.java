package io.isowatch.bench.measure;

import io.isowatch.bench.family.Family;
import io.isowatch.checker.level.Level;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs each {@link Probe} in a fresh child JVM (the same {@code java}, the same class path, the
 * given maximum heap), so that one point's garbage, JIT state and heap sizing do not leak into the
 * next, and an {@link OutOfMemoryError} ends only that point. The child prints one {@link
 * Measurement} line on standard output; its standard error is passed through.
 */
public final class ChildRunner {
  private final String mainClass;
  private final String maxHeap;
  private final long timeoutSeconds;

  /**
   * @param mainClass the class whose {@code main} runs a probe when given {@link #probeArgs}
   * @param maxHeap the child's {@code -Xmx} value, e.g. {@code 4g}
   * @param timeoutSeconds wall-clock limit per child; a child still running is killed
   */
  public ChildRunner(String mainClass, String maxHeap, long timeoutSeconds) {
    this.mainClass = mainClass;
    this.maxHeap = maxHeap;
    this.timeoutSeconds = timeoutSeconds;
  }

  /**
   * @return the arguments that make the main class run one probe: {@code --probe FAMILY:SIZE:LEVEL
   *     --repetitions R --seed S}
   */
  public static List<String> probeArgs(Family family, long size, Level level, int repetitions, long seed) {
    return List.of("--probe", family.cliName() + ":" + size + ":" + level.cliName(),
        "--repetitions", Integer.toString(repetitions), "--seed", Long.toString(seed));
  }

  /**
   * Runs one probe in a child JVM.
   *
   * @return the child's point, or a failed point naming the exit code, the timeout or the missing
   *     line
   * @throws IOException if the child cannot be started
   * @throws InterruptedException if interrupted while waiting (the child is killed)
   */
  public Measurement run(Family family, long size, Level level, int repetitions, long seed)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + maxHeap);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass);
    cmd.addAll(probeArgs(family, size, level, repetitions, seed));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Measurement[] found = new Measurement[1];
    Thread reader = new Thread(() -> found[0] = readPoint(p));
    reader.start();
    try {
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor();
        reader.join();
        return Measurement.failed(family, size, level, "timeout after " + timeoutSeconds + " s");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      throw e;
    }
    reader.join();
    if (found[0] != null) {
      return found[0];
    }
    return Measurement.failed(family, size, level, "child exited with code " + p.exitValue() + " and no result");
  }

  private static Measurement readPoint(Process p) {
    Measurement m = null;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        if (line.startsWith(Measurement.LINE_PREFIX + "\t")) {
          m = Measurement.parse(line);
        }
      }
    } catch (IOException e) {
      return null;
    }
    return m;
  }
}
