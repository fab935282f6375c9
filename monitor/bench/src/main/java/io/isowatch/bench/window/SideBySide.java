package io.isowatch.bench.window;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Runs {@link WindowBenchmark} over two builds of the checker in one JVM, alternating, so that a
 * before/after comparison on a shared machine sees the same load: one class loader over {@code
 * --baseline} (a class path holding another build of the checker and of this harness, for example
 * an earlier {@code isowatch-bench.jar}) and one over this JVM's own class path, each with the
 * platform class loader as parent, so that the two builds share no class. Round {@code r} runs the
 * baseline first when {@code r} is even and second when it is odd, so that neither build always
 * runs first after the other. Each run prints its own table, tagged {@code baseline} or {@code
 * this build}; compare the rounds pairwise.
 */
@Command(name = "isowatch-window-side-by-side", mixinStandardHelpOptions = true,
    description = "Alternates WindowBenchmark over a baseline class path and this build, in one JVM.")
public final class SideBySide implements Callable<Integer> {
  @Option(names = "--baseline", required = true,
      description = "Class path of the baseline build (jars or directories, separated as in -cp).")
  String baseline;

  @Option(names = "--rounds", description = "Rounds, each one run of either build (default: ${DEFAULT-VALUE}).")
  int rounds = 6;

  @Parameters(description = "Options passed to WindowBenchmark in every run (after --), e.g. -- --repetitions 1.")
  List<String> benchmarkArgs = new ArrayList<>();

  /**
   * Runs the comparison; exit code 0, 1 if a run failed, 2 on bad options.
   *
   * @param args see {@code --help}
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new SideBySide()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (rounds < 1) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--rounds must be at least 1");
    }
    ClassLoader before = loader(baseline);
    ClassLoader after = loader(System.getProperty("java.class.path"));
    String[] args = benchmarkArgs.toArray(new String[0]);
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < 2; i++) {
        boolean base = (r % 2 == 0) == (i == 0);
        System.out.println("== round " + (r + 1) + ": " + (base ? "baseline" : "this build"));
        if (run(base ? before : after, args) != 0) {
          return 1;
        }
      }
    }
    return 0;
  }

  private static int run(ClassLoader loader, String[] args) throws ReflectiveOperationException {
    Thread.currentThread().setContextClassLoader(loader);
    Object bench = loader.loadClass(WindowBenchmark.class.getName()).getConstructor().newInstance();
    Class<?> cli = loader.loadClass(CommandLine.class.getName());
    Object cmd = cli.getConstructor(Object.class).newInstance(bench);
    return (Integer) cli.getMethod("execute", String[].class).invoke(cmd, (Object) args);
  }

  private static ClassLoader loader(String classPath) throws MalformedURLException {
    List<URL> urls = new ArrayList<>();
    for (String p : classPath.split(File.pathSeparator)) {
      if (!p.isEmpty()) {
        urls.add(Path.of(p).toUri().toURL());
      }
    }
    return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
  }
}
