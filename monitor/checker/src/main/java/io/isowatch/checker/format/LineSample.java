package io.isowatch.checker.format;

import io.isowatch.checker.history.History;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells how many operations and writes a text history with one operation per line (Plume text,
 * AWDIT) holds, from a few samples of its bytes, so that its reader can {@link History#reserve} the
 * history's arrays at their final length instead of growing them by copies.
 *
 * <p>An operation line starts with {@code r} or {@code w}, a write with {@code w}. In JSON lines
 * ({@link #reserveJsonLines}) and EDN ({@link #reserveEdn}) a line is a transaction, an operation
 * starts with {@code {"f":"} or {@code [:}, a write or an append with those followed by {@code w}
 * or {@code a}, as {@link JsonLinesWriter} and {@link EdnWriter} write them.
 * The file is cut
 * into {@value #SAMPLES} equal parts and the whole lines of {@value #SAMPLE_BYTES} bytes at the
 * middle of each are counted (the midpoint rule: numbers that grow along the file, transaction ids
 * say, make the lines longer towards its end). The estimate is scaled to the file's size plus
 * {@value #MARGIN_PERCENT}%; it is a hint only: a file of another shape loads the same, its arrays
 * growing or left partly unused.
 */
final class LineSample {
  private static final int SAMPLES = 8;
  private static final int SAMPLE_BYTES = 16 << 10;
  private static final int MARGIN_PERCENT = 3;
  private static final byte[] JSON_OP = ByteCursor.ascii("{\"f\":\"");
  private static final byte[] EDN_OP = ByteCursor.ascii("[:");

  private LineSample() {}

  /**
   * Reserves room in {@code h} for the operations and writes {@code file} is estimated to hold; does
   * nothing for a file of fewer than {@code 4 * SAMPLES * SAMPLE_BYTES} bytes, which grows its
   * arrays at no real cost, nor for anything but a regular file (a pipe is read once, by the
   * reader).
   *
   * @throws IOException if the file cannot be read
   */
  static void reserve(History h, Path file) throws IOException {
    reserve(h, file, null);
  }

  /** {@link #reserve} for JSON lines as {@link JsonLinesWriter} writes them. */
  static void reserveJsonLines(History h, Path file) throws IOException {
    reserve(h, file, JSON_OP);
  }

  /** {@link #reserve} for EDN as {@link EdnWriter} writes it. */
  static void reserveEdn(History h, Path file) throws IOException {
    reserve(h, file, EDN_OP);
  }

  /**
   * @param opMark the bytes that start an operation within a transaction's line, followed by
   *     {@code w} or {@code a} for a write or an append; {@code null} for a file of operation lines
   */
  private static void reserve(History h, Path file, byte[] opMark) throws IOException {
    if (!Files.isRegularFile(file)) {
      return;
    }
    try (FileChannel channel = FileChannel.open(file)) {
      long size = channel.size();
      if (size < 4L * SAMPLES * SAMPLE_BYTES) {
        return;
      }
      ByteBuffer buf = ByteBuffer.allocate(SAMPLE_BYTES);
      long bytes = 0;
      long txns = 0;
      long ops = 0;
      long writes = 0;
      for (int s = 0; s < SAMPLES; s++) {
        long middle = size * (2L * s + 1) / (2L * SAMPLES);
        buf.clear();
        channel.read(buf, middle - SAMPLE_BYTES / 2);
        byte[] b = buf.array();
        int n = buf.position();
        int first = 0;
        while (first < n && b[first] != '\n') {
          first++;
        }
        int last = n - 1;
        while (last > first && b[last] != '\n') {
          last--;
        }
        bytes += last - first;
        for (int i = first; i < last; i++) {
          if (opMark == null) {
            if (b[i] == '\n') {
              ops += b[i + 1] == 'r' || b[i + 1] == 'w' ? 1 : 0;
              writes += b[i + 1] == 'w' ? 1 : 0;
            }
          } else if (b[i] == '\n') {
            txns++;
          } else if (b[i] == opMark[0] && starts(b, i, last, opMark)) {
            ops++;
            byte f = b[i + opMark.length];
            writes += f == 'w' || f == 'a' ? 1 : 0;
          }
        }
      }
      if (bytes > 0) {
        h.reserve(scaled(txns, bytes, size), scaled(ops, bytes, size), scaled(writes, bytes, size));
      }
    }
  }

  /** Whether {@code b[i..last)} starts with {@code mark} and holds a byte after it. */
  private static boolean starts(byte[] b, int i, int last, byte[] mark) {
    if (i + mark.length >= last) {
      return false;
    }
    for (int j = 1; j < mark.length; j++) {
      if (b[i + j] != mark[j]) {
        return false;
      }
    }
    return true;
  }

  private static int scaled(long count, long sampleBytes, long size) {
    double estimate = (double) count * size / sampleBytes * (100 + MARGIN_PERCENT) / 100;
    return (int) Math.min(estimate, Integer.MAX_VALUE - 16);
  }
}
