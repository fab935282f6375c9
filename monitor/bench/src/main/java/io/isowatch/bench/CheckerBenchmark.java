package io.isowatch.bench;

import io.isowatch.bench.family.Family;
import io.isowatch.bench.measure.ChildRunner;
import io.isowatch.bench.measure.Measurement;
import io.isowatch.bench.measure.Probe;
import io.isowatch.bench.measure.Report;
import io.isowatch.checker.level.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The checker benchmark of issue 2: for each (family, size, level) runs the checker of {@code
 * Checkers.forLevel(level)} in a fresh child JVM and prints a Markdown table (time and peak heap)
 * and the scaling exponents, as in {@code docs/PERFORMANCE.md}. This class only parses options and
 * wires {@link ChildRunner}, {@link Probe} and {@link Report}.
 */
@Command(name = "isowatch-bench", mixinStandardHelpOptions = true,
    description = "Times the read committed, read atomic, causal and serializable checkers on generated histories.")
public final class CheckerBenchmark implements Callable<Integer> {
  @Option(names = "--families", split = ",", converter = FamilyConverter.class,
      description = "Families: register, wide-reader, reader-grid, list-append (default: all).")
  List<Family> families = List.of(Family.REGISTER, Family.WIDE_READER, Family.READER_GRID, Family.LIST_APPEND);

  @Option(names = "--sizes", split = ",", description = "Register family sizes in transactions (default: 10000,100000,1000000).")
  List<Long> sizes = List.of(10_000L, 100_000L, 1_000_000L);

  @Option(names = "--wide-sizes", split = ",",
      description = "Wide-reader sizes in operations (default: 25000,100000,400000,1600000,6400000).")
  List<Long> wideSizes = List.of(25_000L, 100_000L, 400_000L, 1_600_000L, 6_400_000L);

  @Option(names = "--grid-sizes", split = ",",
      description = "Reader-grid sizes in operations (default: 10000,40000,160000,320000,640000).")
  List<Long> gridSizes = List.of(10_000L, 40_000L, 160_000L, 320_000L, 640_000L);

  @Option(names = "--list-sizes", split = ",",
      description = "List-append sizes in transactions (default: 100000,1000000).")
  List<Long> listSizes = List.of(100_000L, 1_000_000L);

  @Option(names = "--levels", split = ",", converter = LevelConverter.class,
      description = "Levels; each family runs those it supports: read-committed, read-atomic, causal"
          + " for register, wide-reader, reader-grid; snapshot-isolation, serializable for list-append"
          + " (default: read-committed,read-atomic,causal,serializable).")
  List<Level> levels = List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL, Level.SERIALIZABLE);

  @Option(names = "--repetitions", description = "Timed checks per point; the median is reported (default: ${DEFAULT-VALUE}).")
  int repetitions = 3;

  @Option(names = "--seed", description = "Generation seed (default: ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(names = "--heap", description = "Maximum heap of each child JVM (default: ${DEFAULT-VALUE}).")
  String heap = "4g";

  @Option(names = "--timeout", description = "Seconds allowed per point (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds = 900;

  @Option(names = "--quick", description = "A small run: register and list-append 1000,10000; wide-reader and reader-grid 5000,20000,80000; one repetition.")
  boolean quick;

  @Option(names = "--probe", hidden = true, description = "FAMILY:SIZE:LEVEL: measure one point in this JVM.")
  String probe;

  /**
   * Runs the benchmark; exit code 0, or 2 on bad options.
   *
   * @param args see {@code --help}
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new CheckerBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (probe != null) {
      String[] p = probe.split(":");
      if (p.length != 3) {
        throw new CommandLine.ParameterException(new CommandLine(this), "--probe expects FAMILY:SIZE:LEVEL, got " + probe);
      }
      Measurement m = Probe.run(Family.parse(p[0]), Long.parseLong(p[1]), Level.parse(p[2]), repetitions, seed);
      System.out.println(m.toLine());
      return 0;
    }
    if (quick) {
      sizes = List.of(1_000L, 10_000L);
      wideSizes = List.of(5_000L, 20_000L, 80_000L);
      gridSizes = wideSizes;
      listSizes = sizes;
      repetitions = 1;
    }
    ChildRunner runner = new ChildRunner(CheckerBenchmark.class.getName(), heap, timeoutSeconds);
    List<Measurement> points = new ArrayList<>();
    for (Family f : families) {
      List<Level> run = levels.stream().filter(f.levels()::contains).toList();
      if (run.isEmpty()) {
        System.err.println("skipping family " + f + ": none of the levels " + levels
            + " applies to it (it is checked at " + f.levels() + ")");
      }
      for (long size : sizesOf(f)) {
        for (Level level : run) {
          Measurement m = runner.run(f, size, level, repetitions, seed);
          System.err.println(Report.progress(m));
          points.add(m);
        }
      }
    }
    System.out.println(Report.table(points));
    System.out.println(Report.exponents(points));
    return 0;
  }

  private List<Long> sizesOf(Family f) {
    switch (f) {
      case REGISTER:
        return sizes;
      case WIDE_READER:
        return wideSizes;
      case LIST_APPEND:
        return listSizes;
      default:
        return gridSizes;
    }
  }

  /** Parses {@code --families} values. */
  static final class FamilyConverter implements CommandLine.ITypeConverter<Family> {
    @Override
    public Family convert(String value) {
      return Family.parse(value);
    }
  }

  /** Parses a level by its command-line name ({@link Level#parse}): the benchmarks' level options. */
  public static final class LevelConverter implements CommandLine.ITypeConverter<Level> {
    @Override
    public Level convert(String value) {
      return Level.parse(value);
    }
  }
}
