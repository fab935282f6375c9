package io.isowatch.checker.format;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Reads the fixed-width fields of a binary history (dbcop's little-endian bincode, Cobra's
 * big-endian logs) from a stream, counting the offset so that every problem names its byte.
 *
 * <p>A file that ends inside a field is malformed and reported with the offset of that field.
 */
final class ByteInput implements Closeable {
  private final InputStream in;
  private final Path file;
  private final boolean littleEndian;
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private int limit;
  private long offset;

  ByteInput(InputStream in, Path file, boolean littleEndian) {
    this.in = in;
    this.file = file;
    this.littleEndian = littleEndian;
  }

  /** @return the offset of the next byte to read */
  long offset() {
    return offset;
  }

  /** @return whether the input is exhausted */
  boolean atEnd() throws IOException {
    return !fill();
  }

  private boolean fill() throws IOException {
    if (pos < limit) {
      return true;
    }
    int n = in.read(buf, 0, buf.length);
    if (n <= 0) {
      return false;
    }
    pos = 0;
    limit = n;
    return true;
  }

  /**
   * @param what the field, for the error message, e.g. {@code "transaction count"}
   * @return the next byte, 0..255
   * @throws HistoryFormatException if the file ends here
   */
  int u8(String what) throws HistoryFormatException, IOException {
    if (!fill()) {
      throw truncated(what, offset);
    }
    offset++;
    return buf[pos++] & 0xff;
  }

  /**
   * @param what the field, for the error message
   * @return the next 8 bytes as a 64-bit integer in this input's byte order
   * @throws HistoryFormatException if the file ends inside the field
   */
  long u64(String what) throws HistoryFormatException, IOException {
    long start = offset;
    long v = 0;
    for (int i = 0; i < 8; i++) {
      if (!fill()) {
        throw truncated(what, start);
      }
      long b = buf[pos++] & 0xffL;
      offset++;
      v = littleEndian ? v | (b << (8 * i)) : (v << 8) | b;
    }
    return v;
  }

  /**
   * @param what the field, for the error message
   * @return a bincode bool: one byte, 0 or 1
   * @throws HistoryFormatException for any other byte or the end of the file
   */
  boolean bool(String what) throws HistoryFormatException, IOException {
    long at = offset;
    int b = u8(what);
    if (b > 1) {
      throw HistoryFormatException.atByte(file, at, what + " is byte " + b, "a bool (0 or 1)");
    }
    return b == 1;
  }

  /**
   * @param n the number of bytes, at most {@code Integer.MAX_VALUE - 8}
   * @param what the field, for the error message
   * @return the next {@code n} bytes decoded as UTF-8
   * @throws HistoryFormatException if the file ends first
   */
  String utf8(int n, String what) throws HistoryFormatException, IOException {
    long start = offset;
    byte[] bytes = new byte[n];
    for (int i = 0; i < n; i++) {
      if (!fill()) {
        throw truncated(what, start);
      }
      bytes[i] = buf[pos++];
      offset++;
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private HistoryFormatException truncated(String what, long at) {
    return HistoryFormatException.atByte(file, at, "file ends inside the " + what, "more bytes");
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
