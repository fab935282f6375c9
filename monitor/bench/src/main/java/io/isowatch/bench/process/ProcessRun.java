package io.isowatch.bench.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One whole-process run of a checker under {@code /usr/bin/time -v}: wall time (measured here,
 * from start to exit), peak resident set size (GNU time's "Maximum resident set size"), the tool's
 * own load and check times when it prints them, and the 1-minute load average read from {@code
 * /proc/loadavg} just before and just after.
 *
 * @param wallMs wall time of the process, milliseconds
 * @param peakRssKiB peak resident set size, KiB
 * @param loadMs the tool's own reading/parsing time, milliseconds, or -1 if it printed none
 * @param checkMs the tool's own checking time (summed over the levels it printed), milliseconds, or
 *     -1 if it printed none
 * @param exitCode the process's exit code
 * @param loadBefore 1-minute load average before the run
 * @param loadAfter 1-minute load average after the run
 * @param output the process's standard output and error, for a failed run's message
 */
public record ProcessRun(double wallMs, long peakRssKiB, long loadMs, long checkMs, int exitCode,
    double loadBefore, double loadAfter, String output) {

  private static final Pattern RSS = Pattern.compile("Maximum resident set size \\(kbytes\\): (\\d+)");
  /** AWDIT: "Done parsing: N ms" (source: shared/anchors/README.md). */
  private static final Pattern AWDIT_LOAD = Pattern.compile("Done parsing: (\\d+) ?ms");
  /** AWDIT: "Done checking: N ms". */
  private static final Pattern AWDIT_CHECK = Pattern.compile("Done checking: (\\d+) ?ms");
  /** isowatch's text report: "...; ms: load N, LEVEL M, LEVEL M" (TextReport). */
  private static final Pattern ISOWATCH_TIMES = Pattern.compile("; ms: load (\\d+)((?:, [^,\\n]+ \\d+)*)");
  private static final Pattern TRAILING_NUMBER = Pattern.compile(" (\\d+)$");

  /**
   * Runs a command to its end under {@code /usr/bin/time -v}.
   *
   * @param command the command and its arguments
   * @param timeoutSeconds wall-clock limit; a process still running is killed and the run reported
   *     with exit code -1
   * @return the run; {@link #loadMs} and {@link #checkMs} parsed from whichever of AWDIT's or
   *     isowatch's formats the output holds
   * @throws IOException if {@code /usr/bin/time} cannot be started or its report not read
   * @throws InterruptedException if interrupted while waiting (the process is killed)
   */
  public static ProcessRun run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
    Path report = Files.createTempFile("isowatch-bench-time", ".txt");
    Path out = Files.createTempFile("isowatch-bench-out", ".txt");
    try {
      List<String> cmd = new ArrayList<>(List.of("/usr/bin/time", "-v", "-o", report.toString()));
      cmd.addAll(command);
      double before = loadAverage();
      long start = System.nanoTime();
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      int exit;
      try {
        if (p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
          exit = p.exitValue();
        } else {
          p.descendants().forEach(ProcessHandle::destroyForcibly);
          p.destroyForcibly().waitFor();
          exit = -1;
        }
      } catch (InterruptedException e) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw e;
      }
      double wallMs = (System.nanoTime() - start) / 1e6;
      double after = loadAverage();
      String text = Files.readString(out, StandardCharsets.UTF_8);
      Matcher rss = RSS.matcher(Files.readString(report, StandardCharsets.UTF_8));
      long rssKiB = rss.find() ? Long.parseLong(rss.group(1)) : -1;
      long[] split = split(text);
      return new ProcessRun(wallMs, rssKiB, split[0], split[1], exit, before, after, text);
    } finally {
      Files.deleteIfExists(report);
      Files.deleteIfExists(out);
    }
  }

  /**
   * @param text a tool's output
   * @return {load ms, check ms}, each -1 when the output does not say
   */
  static long[] split(String text) {
    Matcher iso = ISOWATCH_TIMES.matcher(text);
    if (iso.find()) {
      long check = 0;
      for (String level : iso.group(2).split(", ")) {
        Matcher n = TRAILING_NUMBER.matcher(level);
        if (n.find()) {
          check += Long.parseLong(n.group(1));
        }
      }
      return new long[] {Long.parseLong(iso.group(1)), check};
    }
    Matcher load = AWDIT_LOAD.matcher(text);
    Matcher check = AWDIT_CHECK.matcher(text);
    return new long[] {load.find() ? Long.parseLong(load.group(1)) : -1,
        check.find() ? Long.parseLong(check.group(1)) : -1};
  }

  /** @return whether the process exited with code 0 */
  public boolean succeeded() {
    return exitCode == 0;
  }

  private static double loadAverage() throws IOException {
    return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
  }
}
