package io.isowatch.bench.process;

import io.isowatch.bench.CheckerBenchmark;
import io.isowatch.checker.level.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Issue 20's side-by-side benchmark: {@code isowatch check --level L FILE} (through the launcher,
 * as a user runs it) against {@code awdit check -i L -f plume FILE} on the same generated Plume
 * files ({@link Workload}), as whole processes, interleaved (isowatch, AWDIT, isowatch, AWDIT...),
 * the minimum wall time of {@code --runs} runs each, with peak RSS and load averages ({@link
 * ProcessRun}); prints a Markdown table ({@link SideBySideTable}).
 *
 * <p>Needs {@code /usr/bin/time} (GNU time) and an AWDIT binary (built by {@code
 * shared/anchors/build-awdit.sh OUT_DIR}). The isowatch launcher's own options apply, e.g. {@code
 * ISOWATCH_JAVA_OPTS} from the environment.
 */
@Command(name = "isowatch-whole-process", mixinStandardHelpOptions = true,
    description = "Runs isowatch check and AWDIT side by side, as whole processes, on the same files.")
public final class WholeProcessBenchmark implements Callable<Integer> {
  @Option(names = "--awdit", required = true, description = "The AWDIT binary.")
  Path awdit;

  @Option(names = "--isowatch", description = "The isowatch launcher (default: ${DEFAULT-VALUE}).")
  Path isowatch = Path.of("isowatch");

  @Option(names = "--sizes", split = ",", description = "Register workload sizes in transactions (default: 10000,100000).")
  List<Integer> sizes = List.of(10_000, 100_000);

  @Option(names = "--levels", split = ",", converter = CheckerBenchmark.LevelConverter.class,
      description = "Levels of the register rows: read-committed, read-atomic, causal (default: all three).")
  List<Level> levels = List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL);

  @Option(names = "--one-reader", split = ",",
      description = "Reads of the one-reader rows, checked at read committed (default: none; the issue's is 1000000).")
  List<Integer> oneReader = List.of();

  @Option(names = "--runs", description = "Runs of each tool per row; the minimum wall time is reported (default: ${DEFAULT-VALUE}).")
  int runs = 3;

  @Option(names = "--dir", description = "Where the generated files are kept and reused (default: ${DEFAULT-VALUE}).")
  Path dir = Path.of("target", "whole-process");

  @Option(names = "--timeout", description = "Seconds allowed per run (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds = 600;

  /**
   * Runs the comparison; exit code 0, 1 if a run failed, 2 on bad options.
   *
   * @param args see {@code --help}
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new WholeProcessBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    CommandLine cl = new CommandLine(this);
    if (runs < 1) {
      throw new CommandLine.ParameterException(cl, "--runs must be at least 1");
    }
    for (Level l : levels) {
      if (l != Level.READ_COMMITTED && l != Level.READ_ATOMIC && l != Level.CAUSAL) {
        throw new CommandLine.ParameterException(cl, "AWDIT checks read-committed, read-atomic and causal only, not " + l);
      }
    }
    if (!Files.isExecutable(awdit) || !Files.isExecutable(isowatch)) {
      throw new CommandLine.ParameterException(cl, "not executable: " + (Files.isExecutable(awdit) ? isowatch : awdit));
    }
    if (!Files.isExecutable(Path.of("/usr/bin/time"))) {
      throw new CommandLine.ParameterException(cl, "GNU time (/usr/bin/time) is needed for the peak RSS; e.g. apt-get install time");
    }
    Files.createDirectories(dir);
    List<Workload> files = new ArrayList<>();
    for (int n : sizes) {
      files.add(Workload.register(dir, n));
    }
    if (!files.isEmpty()) {
      // untimed: the launcher rebuilds a stale jar, and the jar and the file reach the page cache
      report("isowatch (untimed warm-up)", files.get(0), Level.READ_COMMITTED,
          ProcessRun.run(isowatchCommand(Level.READ_COMMITTED, files.get(0).file()), timeoutSeconds));
    }
    List<SideBySideTable.Row> rows = new ArrayList<>();
    boolean allOk = true;
    for (Workload w : files) {
      for (Level l : levels) {
        SideBySideTable.Row row = measure(w, l);
        allOk &= row.succeeded();
        rows.add(row);
      }
    }
    for (int reads : oneReader) {
      SideBySideTable.Row row = measure(Workload.oneReader(dir, reads), Level.READ_COMMITTED);
      allOk &= row.succeeded();
      rows.add(row);
    }
    System.out.println("isowatch: " + String.join(" ", isowatchCommand(Level.READ_COMMITTED, Path.of("FILE")))
        + "  (ISOWATCH_JAVA_OPTS=" + System.getenv().getOrDefault("ISOWATCH_JAVA_OPTS", "unset") + ")");
    System.out.println("AWDIT:    " + String.join(" ", awditCommand(Level.READ_COMMITTED, Path.of("FILE"))));
    System.out.println();
    System.out.println(SideBySideTable.render(rows));
    return allOk ? 0 : 1;
  }

  private SideBySideTable.Row measure(Workload w, Level level) throws Exception {
    List<ProcessRun> iso = new ArrayList<>();
    List<ProcessRun> aw = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      iso.add(report("isowatch", w, level, ProcessRun.run(isowatchCommand(level, w.file()), timeoutSeconds)));
      aw.add(report("AWDIT", w, level, ProcessRun.run(awditCommand(level, w.file()), timeoutSeconds)));
    }
    return new SideBySideTable.Row(w, level, iso, aw);
  }

  private static ProcessRun report(String tool, Workload w, Level level, ProcessRun run) {
    System.err.printf(Locale.ROOT, "%s %s %s: %.0f ms (load %d / check %d), %d MiB, exit %d, load avg %.2f -> %.2f%n",
        tool, w.label(), level.cliName(), run.wallMs(), run.loadMs(), run.checkMs(), run.peakRssKiB() / 1024,
        run.exitCode(), run.loadBefore(), run.loadAfter());
    if (!run.succeeded()) {
      System.err.println(run.output());
    }
    return run;
  }

  private List<String> isowatchCommand(Level level, Path file) {
    return List.of(isowatch.toString(), "check", "--quiet", "--level", level.cliName(), file.toString());
  }

  private List<String> awditCommand(Level level, Path file) {
    return List.of(awdit.toString(), "check", "-i", level.cliName(), "-f", "plume", file.toString());
  }
}
