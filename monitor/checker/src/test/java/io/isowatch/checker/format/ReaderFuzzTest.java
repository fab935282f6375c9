package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history readers under random and mutated input ({@link HistoryMutator}), every format: each
 * file either reads, or fails with a {@link HistoryFormatException} whose one-line message has the
 * documented shape ({@code FILE:LINE: problem}, {@code FILE: byte N: problem} or {@code FILE:
 * problem}) with the line within the file and the offset within its bytes. Anything else thrown is a
 * crash: the test collects them all, with the seed and the file's bytes, and fails.
 *
 * <p>Sizes: {@code -Disowatch.fuzz.files=N} files per format (default 500); {@code
 * -Disowatch.fuzz.seed=S} replays a run (default: a fresh seed, printed and named in any failure).
 */
class ReaderFuzzTest {
  private static final Pattern SHAPE = Pattern.compile("(.*?)(?::(\\d+)|: byte (\\d+))?: (\\S.*)");

  @TempDir
  Path dir;

  @Test
  void everyMalformedFileIsAFormatExceptionNamingFileAndPlace() throws IOException {
    int files = Integer.getInteger("isowatch.fuzz.files", 500);
    long seed = Long.getLong("isowatch.fuzz.seed", new SplittableRandom().nextLong());
    System.out.println("ReaderFuzzTest: seed " + seed + ", " + files + " files per format");
    HistoryMutator mutator = new HistoryMutator(seed);
    Map<HistoryFormat, int[]> outcomes = new EnumMap<>(HistoryFormat.class);
    Map<String, Integer> problems = new TreeMap<>();
    List<String> crashes = new ArrayList<>();
    int n = 0;
    for (HistoryFormat format : HistoryFormat.values()) {
      int[] counts = outcomes.computeIfAbsent(format, f -> new int[2]);
      for (int i = 0; i < files; i++) {
        Path where = Files.createDirectory(dir.resolve("f" + n++));
        Path input = mutator.write(format, where);
        HistoryFormat asked = i % 4 == 0 ? null : format;
        try {
          History h = HistoryFiles.read(input, asked, null);
          assertThat(h.txnCount()).isPositive();
          counts[0]++;
        } catch (HistoryFormatException e) {
          counts[1]++;
          String shapeError = shapeError(e, input);
          if (shapeError != null) {
            crashes.add(format + " file " + i + ": " + shapeError + ": " + e.getMessage() + "\n" + dump(input));
          }
          problems.merge(format.cliName() + ": " + e.problem().replaceAll("[0-9'\"].*", "..."), 1, Integer::sum);
        } catch (Throwable t) {
          StringWriter trace = new StringWriter();
          t.printStackTrace(new PrintWriter(trace));
          crashes.add(format + " file " + i + " (--format " + (asked == null ? "detected" : asked.cliName()) + "): "
              + trace.toString().lines().limit(8).reduce((a, b) -> a + "\n" + b).orElse("") + "\n" + dump(input));
        }
        deleteTree(where);
      }
    }
    Map<String, String> summary = new TreeMap<>();
    outcomes.forEach((f, c) -> summary.put(f.cliName(), c[0] + " read, " + c[1] + " refused"));
    System.out.println("ReaderFuzzTest: seed " + seed + ": " + summary + "; " + problems.size()
        + " distinct problems; crashes " + crashes.size());
    assertThat(crashes).as("crashes with -Disowatch.fuzz.seed=" + seed + " -Disowatch.fuzz.files=" + files)
        .isEmpty();
  }

  /** @return what is wrong with the message's shape, or null */
  private static String shapeError(HistoryFormatException e, Path input) throws IOException {
    String m = e.getMessage();
    if (m.contains("\n") || m.contains("\r")) {
      return "message spans lines";
    }
    Matcher x = SHAPE.matcher(m);
    if (!x.matches() || !e.file().startsWith(input) || !x.group(1).equals(e.file().toString())) {
      return "message does not start with the file";
    }
    Path file = e.file();
    if (e.line() >= 0 && (e.line() < 1 || e.line() > lines(file) + 1)) {
      return "line " + e.line() + " is outside the file";
    }
    if (e.byteOffset() >= 0 && e.byteOffset() > Files.size(file)) {
      return "byte " + e.byteOffset() + " is past the end of the file";
    }
    return null;
  }

  private static long lines(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      return 0;
    }
    byte[] b = Files.readAllBytes(file);
    long n = 1;
    for (byte c : b) {
      if (c == '\n') {
        n++;
      }
    }
    return n;
  }

  /** @return the input's files as hex, for the failure message */
  private static String dump(Path input) throws IOException {
    StringBuilder s = new StringBuilder();
    try (Stream<Path> files = Files.walk(input)) {
      for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
        s.append("  ").append(p.getFileName()).append(": ")
            .append(java.util.HexFormat.of().formatHex(Files.readAllBytes(p))).append('\n');
      }
    }
    return s.toString();
  }

  private static void deleteTree(Path p) {
    try (Stream<Path> files = Files.walk(p)) {
      for (Path f : files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.delete(f);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
