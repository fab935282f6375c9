package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Plume and AWDIT readers parse lines of the canonical form straight from their bytes and leave
 * every other line to the text path: the same operations written both ways (the second padded with
 * blanks, signs or leading zeros, which only the text path takes) must give the same history,
 * operation by operation. The files are large enough (over 512 KiB) for the readers to reserve the
 * history's arrays from samples of the file, which must not change what is read.
 */
class CanonicalLinesTest {
  private static final int TXNS = 10_000;

  @TempDir Path dir;

  @Test
  void plumeCanonicalAndPaddedLinesReadAlike() throws Exception {
    StringBuilder canonical = new StringBuilder();
    StringBuilder padded = new StringBuilder();
    SplittableRandom rnd = new SplittableRandom(7);
    long[] next = new long[50];
    for (int t = 1; t <= TXNS; t++) {
      int session = rnd.nextInt(5);
      long txn = rnd.nextInt(10) == 0 ? -1 : t;
      for (int i = 0; i < 8; i++) {
        int key = rnd.nextInt(50);
        boolean write = rnd.nextBoolean();
        long value = write ? ++next[key] : next[key];
        char kind = write ? 'w' : 'r';
        canonical.append(kind).append('(').append(key).append(',').append(value).append(',')
            .append(session).append(',').append(txn).append(")\n");
        padded.append("  ").append(kind).append("(0").append(key).append(',').append(value)
            .append(',').append(session).append(',').append(txn).append(")\t\r\n");
      }
    }
    assertSameHistory(canonical, padded, "plume", HistoryFormat.PLUME);
  }

  @Test
  void awditCanonicalAndPaddedLinesReadAlike() throws Exception {
    StringBuilder canonical = new StringBuilder("w 0 0\nw 1 0\n");
    StringBuilder padded = new StringBuilder(" w +0 0\nw 1 00\n");
    SplittableRandom rnd = new SplittableRandom(7);
    long[] next = new long[2];
    for (int t = 1; t <= TXNS; t++) {
      canonical.append(t % 100 == 0 ? "===\n" : "---\n");
      padded.append(t % 100 == 0 ? " === \n" : "---\t\n");
      for (int i = 0; i < 8; i++) {
        int key = rnd.nextInt(2);
        boolean write = rnd.nextBoolean();
        long value = write ? ++next[key] : next[key];
        char kind = write ? 'w' : 'r';
        canonical.append(kind).append(' ').append(key).append('\t').append(value).append(" \n");
        padded.append(kind).append("  +").append(key).append(" 0").append(value).append('\n');
      }
    }
    assertSameHistory(canonical, padded, "awdit", HistoryFormat.AWDIT);
  }

  private void assertSameHistory(CharSequence canonical, CharSequence padded, String name,
      HistoryFormat format) throws Exception {
    Path a = Files.writeString(dir.resolve(name + "-canonical"), canonical);
    Path b = Files.writeString(dir.resolve(name + "-padded"), padded);
    assertThat(Files.size(a)).isGreaterThan(512 << 10);
    History fromCanonical = HistoryFiles.read(a, format, null);
    History fromPadded = HistoryFiles.read(b, format, null);
    assertThat(fromCanonical.opCount()).isEqualTo(8 * TXNS + (format == HistoryFormat.AWDIT ? 2 : 0));
    assertThat(HistoryText.render(fromCanonical)).isEqualTo(HistoryText.render(fromPadded));
  }
}
