package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.format.HistoryMutator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code isowatch check} in process on random and mutated histories of every format ({@link
 * HistoryMutator}), at every level: the exit code is 0, 1 or 4 with a report on standard output, or
 * 2 with nothing there and one line on standard error, {@code isowatch check: } then the file (and the line or byte where
 * there is one) and the problem. Exit code 3, an internal error, is a crash.
 *
 * <p>Sizes: {@code -Disowatch.fuzz.cli.files=N} files per format (default 40); {@code
 * -Disowatch.fuzz.seed=S} replays a run (default: a fresh seed, printed and named in any failure).
 */
class CheckFuzzTest {
  /** The prefix of every error line of the command. */
  private static final String PREFIX = "isowatch check: ";
  /** One line: the file, an optional {@code :LINE} or {@code : byte N}, then the problem. */
  private static final Pattern ERROR = Pattern.compile("[^\n]*?(?::\\d+|: byte \\d+)?: \\S[^\n]*\n");

  @TempDir
  Path dir;

  @Test
  void checkExitsTwoWithOneLineNamingTheFileOrGivesAVerdict() throws IOException {
    int files = Integer.getInteger("isowatch.fuzz.cli.files", 40);
    long seed = Long.getLong("isowatch.fuzz.seed", new SplittableRandom().nextLong());
    System.out.println("CheckFuzzTest: seed " + seed + ", " + files + " files per format");
    HistoryMutator mutator = new HistoryMutator(seed);
    Map<String, Integer> exits = new TreeMap<>();
    List<String> crashes = new ArrayList<>();
    int n = 0;
    for (HistoryFormat format : HistoryFormat.values()) {
      for (int i = 0; i < files; i++) {
        Path input = mutator.write(format, Files.createDirectory(dir.resolve("f" + n++)));
        List<String> args = new ArrayList<>(List.of("check", "-q", "--level", "all"));
        if (i % 4 != 0) {
          args.addAll(List.of("--format", format.cliName()));
        }
        args.add(input.toString());
        CliRun run = CliRun.of(args.toArray(String[]::new));
        exits.merge(format.cliName() + " exit " + run.exitCode(), 1, Integer::sum);
        String what = format + " file " + i + " " + args + ": ";
        switch (run.exitCode()) {
          case ExitCode.BAD_INPUT -> {
            String err = run.err().startsWith(PREFIX) ? run.err().substring(PREFIX.length()) : "";
            if (!run.out().isEmpty() || !ERROR.matcher(err).matches() || !err.startsWith(input.toString())) {
              crashes.add(what + "exit 2 but stdout " + run.out().length() + " chars, stderr: " + run.err());
            }
          }
          case ExitCode.CONSISTENT, ExitCode.VIOLATION, ExitCode.UNKNOWN -> {
            if (run.out().isEmpty()) {
              crashes.add(what + "exit " + run.exitCode() + " without a report; stderr: " + run.err());
            }
          }
          default -> crashes.add(what + "exit " + run.exitCode() + ": " + run.err().lines().limit(12).toList());
        }
      }
    }
    System.out.println("CheckFuzzTest: seed " + seed + ": " + exits);
    assertThat(crashes).as("with -Disowatch.fuzz.seed=" + seed).isEmpty();
  }
}
