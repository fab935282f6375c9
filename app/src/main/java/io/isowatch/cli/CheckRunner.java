package io.isowatch.cli;

import io.isowatch.checker.CheckSchedule;
import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.LevelVerdicts;
import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.format.HistoryFormatException;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.history.History;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Does the work of {@code isowatch check}: loads the history file ({@link HistoryFiles#read}), runs
 * the checks {@link LevelPlan} picks for the requested levels and those of the weaker levels not
 * requested ({@link LevelVerdicts#supporting}: a level is consistent only when no weaker level is
 * violated), times each phase, and prints the {@link CheckReport} as text or JSON.
 *
 * <p>Bad input is reported on the error stream as one line naming the file, the line or byte
 * offset and the problem, with exit code {@link ExitCode#BAD_INPUT}; nothing is printed on the
 * output stream then. With {@code --report} and {@code --dot} it also writes the witnesses' HTML
 * page and DOT graph ({@link PictureFiles}); a file it cannot write is reported the same way, after
 * the report. An output that names the history file, or both outputs naming one file, is refused
 * before the history is read (exit code {@link ExitCode#BAD_INPUT}); any other existing file is
 * overwritten.
 */
public final class CheckRunner {
  private final PrintWriter out;
  private final PrintWriter err;

  /**
   * @param out where the report goes (standard output)
   * @param err where errors go (standard error)
   */
  public CheckRunner(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  /**
   * Runs one check and prints its report.
   *
   * @return the exit code: {@link ExitCode#CONSISTENT}, {@link ExitCode#VIOLATION}, {@link
   *     ExitCode#UNKNOWN}, {@link ExitCode#BAD_INPUT}, or {@link ExitCode#INTERNAL_ERROR} with one line
   *     on {@code err} when the heap is exhausted
   */
  public int run(CheckRequest request) {
    try {
      return runInMemory(request);
    } catch (OutOfMemoryError e) {
      // the arrays of the load or of a check are unreachable once the stack has unwound to here
      err.println("isowatch check: " + request.file() + ": " + outOfMemory(e));
      err.flush();
      return ExitCode.INTERNAL_ERROR;
    }
  }

  /** @return what ran out of memory, and what to do: a larger heap, or fewer levels */
  static String outOfMemory(OutOfMemoryError e) {
    String heap = " (the JVM's heap is at most " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB)";
    String more = ": give the JVM more, e.g. ISOWATCH_JAVA_OPTS=-Xmx16g";
    if (!(e instanceof CheckSchedule.CheckOutOfMemoryError c)) {
      return "out of memory while reading the history" + heap + more;
    }
    boolean causal = c.check().model() == LevelPlan.Model.AXIOMATIC && c.check().level() == Level.CAUSAL;
    return c.getMessage() + heap
        + (causal ? "; causal consistency needs memory for transactions x sessions (docs/PERFORMANCE.md)" : "")
        + more + ", or check weaker levels with --level";
  }

  private int runInMemory(CheckRequest request) {
    Path file = request.file();
    String clash = outputClash(request);
    if (clash != null) {
      return badInput(clash);
    }
    HistoryFormat format;
    History history;
    long start = System.nanoTime();
    try {
      format = request.formatOrNull() != null ? request.formatOrNull() : HistoryFiles.detect(file);
      history = load(file, format, request.progress());
    } catch (HistoryFormatException e) {
      return badInput(e.getMessage());
    } catch (IOException | UncheckedIOException e) {
      return badInput(file + ": cannot read: " + e.getMessage());
    }
    long loadMillis = millisSince(start);
    boolean listAppend = LevelPlan.hasListAppend(history);
    List<LevelPlan.Check> checks = LevelPlan.checks(request.levels(), listAppend);
    List<LevelPlan.Check> supporting = LevelVerdicts.supporting(request.levels(), listAppend);
    List<List<CheckReport.LevelOutcome>> outcomes = check(history, checks, supporting, request);
    CheckReport report = new CheckReport(file, format, history, loadMillis, outcomes.get(0),
        outcomes.get(1), request.ladder(), request.sessionOrder());
    int limit = request.all() ? Integer.MAX_VALUE : TextReport.DEFAULT_LIMIT;
    if (request.json()) {
      JsonReport.write(report, out);
    } else {
      new TextReport(report, limit).write(out);
    }
    out.flush();
    Path written = null;
    try {
      if (request.htmlReport() != null) {
        written = request.htmlReport();
        Files.writeString(written, PictureFiles.html(report, limit), StandardCharsets.UTF_8);
      }
      if (request.dot() != null) {
        written = request.dot();
        Files.writeString(written, PictureFiles.dot(report, limit), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      return badInput("cannot write " + written + ": " + why(written, e));
    }
    return report.exitCode();
  }

  /**
   * Refuses, before anything is read or checked, an output file that would overwrite the history
   * ({@code --report h.jsonl h.jsonl}) or the other output ({@code --report f --dot f}). Paths are
   * compared as {@link #realPath} gives them, so {@code ./x}, {@code x}, {@code dir/../x} and a
   * symbolic link to {@code x} are one file. Overwriting any other existing file is allowed.
   *
   * @return the message naming the options and the file, or {@code null} when the outputs are
   *     distinct from the history and from each other
   */
  private static String outputClash(CheckRequest request) {
    Path history = realPath(request.file());
    Path html = request.htmlReport() == null ? null : realPath(request.htmlReport());
    Path dot = request.dot() == null ? null : realPath(request.dot());
    if (history.equals(html)) {
      return "--report " + request.htmlReport() + " is the history file " + request.file()
          + "; refusing to overwrite it";
    }
    if (history.equals(dot)) {
      return "--dot " + request.dot() + " is the history file " + request.file()
          + "; refusing to overwrite it";
    }
    if (html != null && html.equals(dot)) {
      return "--report " + request.htmlReport() + " and --dot " + request.dot()
          + " are the same file; give each its own";
    }
    return null;
  }

  /**
   * @return the file's real path when it exists (symbolic links resolved), else its directory's real
   *     path with the file name, else (no such directory either) its absolute normalized path
   */
  private static Path realPath(Path file) {
    Path absolute = file.toAbsolutePath();
    try {
      if (Files.exists(absolute)) {
        return absolute.toRealPath();
      }
      Path dir = absolute.getParent();
      if (dir != null && Files.isDirectory(dir)) {
        return dir.toRealPath().resolve(absolute.getFileName());
      }
    } catch (IOException e) {
      // unreadable: compared by its name below, and the write reports why it fails
    }
    return absolute.normalize();
  }

  /** @return why writing {@code file} failed with {@code e}, in words (the JDK's message is often just the path) */
  private static String why(Path file, IOException e) {
    if (e instanceof NoSuchFileException) {
      Path dir = file.toAbsolutePath().getParent();
      return "directory " + dir + " does not exist";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }

  private static History load(Path file, HistoryFormat format, boolean progress)
      throws HistoryFormatException, IOException {
    long size = sizeOf(file);
    try (Progress bar = progress && size > Progress.LOAD_BAR_BYTES
        ? Progress.bar("loading", size, "MiB", 1L << 20)
        : Progress.none()) {
      return HistoryFiles.read(file, format, bar::stepTo);
    }
  }

  /**
   * Runs the checks of the levels asked and the supporting ones together ({@link CheckSchedule}:
   * implied axiomatic checks are not run, Adya's and the polygraph's run beside the axiomatic ones).
   *
   * @return the outcomes of {@code checks}, then those of {@code supporting}, each in its order
   */
  private static List<List<CheckReport.LevelOutcome>> check(History history, List<LevelPlan.Check> checks,
      List<LevelPlan.Check> supporting, CheckRequest request) {
    List<LevelPlan.Check> all = new ArrayList<>(checks);
    all.addAll(supporting);
    List<CheckSchedule.Outcome> done;
    try (Progress bar = request.progress() && history.opCount() > Progress.CHECK_BAR_OPERATIONS && !all.isEmpty()
        ? Progress.bar("checking", all.size(), "", 1)
        : Progress.none()) {
      AtomicInteger count = new AtomicInteger();
      done = CheckSchedule.run(history, all, c -> c.batch(request.sessionOrder(), request.solverBudget()),
          o -> {
            synchronized (bar) {
              bar.message(o.check().label());
              bar.stepTo(count.incrementAndGet());
            }
          });
    }
    List<CheckReport.LevelOutcome> outcomes = new ArrayList<>();
    for (CheckSchedule.Outcome o : done) {
      outcomes.add(new CheckReport.LevelOutcome(o.check(), o.result(), o.millis(), o.impliedBy()));
    }
    return List.of(outcomes.subList(0, checks.size()), outcomes.subList(checks.size(), outcomes.size()));
  }

  /** @return the size in bytes of a file, or of the regular files directly inside a directory */
  private static long sizeOf(Path path) throws IOException {
    if (!Files.isDirectory(path)) {
      return Files.exists(path) ? Files.size(path) : 0;
    }
    try (Stream<Path> files = Files.list(path)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).sum();
    }
  }

  private int badInput(String message) {
    err.println("isowatch check: " + message);
    err.flush();
    return ExitCode.BAD_INPUT;
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
