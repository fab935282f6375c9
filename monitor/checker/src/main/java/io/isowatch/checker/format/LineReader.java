package io.isowatch.checker.format;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a text history line by line straight from bytes, counting lines and bytes consumed, so the
 * text readers can name the line of a problem and report progress in bytes without holding the
 * file in memory.
 *
 * <p>Lines end at {@code \n}; a trailing {@code \r} is dropped; text is decoded as UTF-8, or
 * left as bytes ({@link #advance()}) for the readers' hot path. Not thread-safe.
 */
final class LineReader implements Closeable {
  /** How often, in lines, the readers report progress. */
  static final int PROGRESS_EVERY_LINES = 4096;

  /** Longest line accepted, in bytes: a longer one is not a history line (binary input, say). */
  static final int MAX_LINE_BYTES = 64 << 20;

  /** Most decimal digits the readers' byte paths take in one number: 18 always fit a {@code long}. */
  static final int MAX_DIGITS = 18;

  private final InputStream in;
  private final Path file;
  private final byte[] buf = new byte[1 << 18];
  private int pos;
  private int limit;
  private byte[] scratch = new byte[256];
  private long line;
  private long consumed;
  private byte[] lineBytes;
  private int lineStart;
  private int lineEnd;

  LineReader(InputStream in, Path file) {
    this.in = in;
    this.file = file;
  }

  /**
   * @return the next line without its terminator, or {@code null} at the end of the input
   * @throws HistoryFormatException if the line is longer than {@link #MAX_LINE_BYTES}
   * @throws IOException if reading fails
   */
  String next() throws HistoryFormatException, IOException {
    return advance() ? text() : null;
  }

  /**
   * Moves to the next line without decoding it: its bytes are then {@link #bytes()} from {@link
   * #start()} to {@link #end()}, valid until the next call. This is the readers' hot path: a line
   * costs no object.
   *
   * @return whether there was a next line ({@code false} at the end of the input)
   * @throws HistoryFormatException if the line is longer than {@link #MAX_LINE_BYTES}
   * @throws IOException if reading fails
   */
  boolean advance() throws HistoryFormatException, IOException {
    int len = 0;
    while (true) {
      if (pos == limit) {
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
          if (len == 0) {
            return false;
          }
          return finish(scratch, 0, len, len);
        }
        pos = 0;
        limit = n;
      }
      int start = pos;
      int nl = indexOfNewline(start);
      if (nl >= 0) {
        pos = nl + 1;
        if (len == 0) {
          return finish(buf, start, nl - start, nl - start + 1);
        }
        len = copy(start, nl - start, len);
        return finish(scratch, 0, len, len + 1);
      }
      len = copy(start, limit - start, len);
      pos = limit;
    }
  }

  private int indexOfNewline(int from) {
    for (int i = from; i < limit; i++) {
      if (buf[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private int copy(int from, int n, int len) throws HistoryFormatException {
    if (len + n > MAX_LINE_BYTES) {
      throw HistoryFormatException.atLine(file, line + 1,
          "line longer than " + (MAX_LINE_BYTES >> 20) + " MiB", "one operation per line");
    }
    if (len + n > scratch.length) {
      scratch = Arrays.copyOf(scratch, Math.max(2 * scratch.length, len + n));
    }
    System.arraycopy(buf, from, scratch, len, n);
    return len + n;
  }

  private boolean finish(byte[] bytes, int from, int n, int bytesWithTerminator) {
    line++;
    consumed += bytesWithTerminator;
    int end = from + n;
    if (end > from && bytes[end - 1] == '\r') {
      end--;
    }
    lineBytes = bytes;
    lineStart = from;
    lineEnd = end;
    return true;
  }

  /** @return the array holding the current line's bytes (see {@link #advance()}) */
  byte[] bytes() {
    return lineBytes;
  }

  /** @return the index in {@link #bytes()} of the current line's first byte */
  int start() {
    return lineStart;
  }

  /** @return the index in {@link #bytes()} one past the current line's last byte, {@code \r} dropped */
  int end() {
    return lineEnd;
  }

  /** @return the current line decoded as UTF-8, without its terminator */
  String text() {
    return new String(lineBytes, lineStart, lineEnd - lineStart, StandardCharsets.UTF_8);
  }

  /** @return the index of the first byte of {@code b} from {@code i} that is not a decimal digit, or {@code to} */
  static int digitsEnd(byte[] b, int i, int to) {
    while (i < to && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    return i;
  }

  /** @return the value of the decimal digits {@code b[from..to)}, at most {@link #MAX_DIGITS} of them */
  static long digitsValue(byte[] b, int from, int to) {
    long v = 0;
    for (int i = from; i < to; i++) {
      v = 10 * v + (b[i] - '0');
    }
    return v;
  }

  /** @return the 1-based number of the line last returned by {@link #next()}, 0 before the first */
  long lineNumber() {
    return line;
  }

  /** @return the number of bytes consumed so far, terminators included */
  long bytesConsumed() {
    return consumed;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
