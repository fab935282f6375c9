package io.isowatch.cli;

import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.level.Level;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code isowatch demo} until the streaming demo exists: checks each sample history bundled in the
 * jar ({@code src/main/resources/samples/}, isowatch JSON lines) at read committed, read atomic
 * and causal consistency, prints the reports, and tells whether each sample got the verdicts it is
 * known to deserve.
 */
public final class Demo {
  /**
   * A bundled sample.
   *
   * @param resource file name under {@code /samples/} on the class path
   * @param story what the history shows, one line
   * @param exitCode the exit code {@code isowatch check} must give it at all three levels
   */
  record Sample(String resource, String story, int exitCode) {}

  /** The bundled samples, in the order shown. */
  static final List<Sample> SAMPLES = List.of(
      new Sample("consistent.jsonl",
          "three sessions that only read committed, causally consistent data", ExitCode.CONSISTENT),
      new Sample("read-committed-violation.jsonl",
          "a reader sees x = 2 from T2, then the older x = 1 from T1 (T1 precedes T2):"
              + " breaks read committed, hence every stronger level", ExitCode.VIOLATION),
      new Sample("causal-violation.jsonl",
          "carol sees bob's reply to alice's post, but not the post: read atomic holds,"
              + " causal consistency does not", ExitCode.VIOLATION));

  private final PrintWriter out;
  private final PrintWriter err;

  /**
   * @param out where the reports go
   * @param err where errors go
   */
  public Demo(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  /**
   * Checks every sample.
   *
   * @param progress whether progress bars may be drawn (the samples are far too small for one)
   * @return {@link ExitCode#CONSISTENT} when every sample got its expected verdicts, {@link
   *     ExitCode#VIOLATION} otherwise
   */
  public int run(boolean progress) {
    Path dir;
    try {
      dir = Files.createTempDirectory("isowatch-samples");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    boolean allAsExpected = true;
    try {
      for (Sample s : SAMPLES) {
        Path file = copy(s.resource(), dir);
        out.println("== sample " + s.resource() + ": " + s.story());
        out.println("== isowatch check --level read-committed,read-atomic,causal " + s.resource());
        out.flush();
        StringWriter errors = new StringWriter();
        int code = new CheckRunner(out, new PrintWriter(errors, true)).run(new CheckRequest(
            file, HistoryFormat.JSONL,
            List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL), false, false, progress,
            true, false));
        err.print(errors);
        boolean asExpected = code == s.exitCode();
        allAsExpected &= asExpected;
        out.println("== exit code " + code + (asExpected ? ", as expected" : ", expected " + s.exitCode()));
        out.println();
      }
    } finally {
      deleteAll(dir);
    }
    out.println(allAsExpected
        ? "All " + SAMPLES.size() + " samples got their expected verdicts."
        : "Some samples did not get their expected verdicts (see above).");
    out.flush();
    return allAsExpected ? ExitCode.CONSISTENT : ExitCode.VIOLATION;
  }

  private static Path copy(String resource, Path dir) {
    Path file = dir.resolve(resource);
    try (InputStream in = Demo.class.getResourceAsStream("/samples/" + resource)) {
      if (in == null) {
        throw new IllegalStateException("sample /samples/" + resource + " is not in the jar");
      }
      Files.copy(in, file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  private static void deleteAll(Path dir) {
    try {
      for (Sample s : SAMPLES) {
        Files.deleteIfExists(dir.resolve(s.resource()));
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
