package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The Plume reader with its lines tokenized on a second thread ({@link PlumeTokens}) against the
 * same reader line by line: the same history, or the same exception with the same message, on
 * valid and mutated files ({@link HistoryMutator}), in blocks of 1 to 7 lines so that every file
 * spans many blocks, block boundaries fall everywhere and the queue fills.
 */
class PlumeTokensTest {
  @Property(tries = 300)
  void tokenizedOnASecondThreadReadsAsLineByLine(@ForAll long seed, @ForAll @IntRange(min = 1, max = 7) int blockLines)
      throws IOException {
    Path dir = Files.createTempDirectory("plume-tokens");
    try {
      Path file = new HistoryMutator(seed).write(HistoryFormat.PLUME, dir);
      assertThat(outcome(file, Long.MAX_VALUE, blockLines)).isEqualTo(outcome(file, 0, blockLines));
    } finally {
      try (var files = Files.walk(dir)) {
        for (Path p : files.sorted((a, b) -> b.compareTo(a)).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  @Test
  void aLargeFileReadsTheSameInFullBlocksAndAnErrorInItsLastBlockIsNamedAtItsLine() throws IOException {
    Path dir = Files.createTempDirectory("plume-tokens");
    Path file = dir.resolve("large.plume");
    SplittableRandom random = new SplittableRandom(7);
    List<String> lines = new ArrayList<>();
    long[] last = new long[100];
    for (int t = 0; t < 20_000; t++) {
      int k = random.nextInt(100);
      lines.add("r(" + k + "," + last[k] + "," + (t % 10) + "," + t + ")");
      lines.add("w(" + k + "," + (t + 1) + "," + (t % 10) + "," + t + ")");
      last[k] = t + 1;
    }
    Files.write(file, lines);
    assertThat(outcome(file, 0, PlumeTokens.BLOCK_LINES)).isEqualTo(outcome(file, Long.MAX_VALUE, 1));

    lines.add("r(1,2,3)");
    Files.write(file, lines);
    assertThat(outcome(file, 0, PlumeTokens.BLOCK_LINES)).isEqualTo(
        "refused: " + file + ":40001: malformed operation 'r(1,2,3)': not four fields; expected "
            + PlumeReader.EXPECTED);
    Files.delete(file);
    Files.delete(dir);
  }

  /** @return the history in JSON lines, or the exception's class and message */
  private static String outcome(Path file, long tokensFromBytes, int blockLines) throws IOException {
    try {
      History h = PlumeReader.read(file, bytes -> { }, tokensFromBytes, blockLines);
      Path out = Files.createTempFile("plume-tokens", ".jsonl");
      try {
        HistoryFiles.write(h, HistoryFormat.JSONL, out);
        return "read: " + Files.readString(out);
      } finally {
        Files.delete(out);
      }
    } catch (HistoryFormatException e) {
      return "refused: " + e.getMessage();
    }
  }
}
