package io.isowatch.checker.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A cursor over one line's bytes for the readers' byte paths ({@link JsonLinesCanonical}, {@link
 * EdnCanonical}): literals, quoted ASCII names without escapes, and decimal integers of the
 * canonical form ({@code -?[1-9][0-9]{0,17}} or {@code 0}), each checked and consumed in place, with
 * no object made. Each method returns whether (or where) it matched; on a mismatch the line is not
 * of the canonical shape and its reader takes the text path.
 */
abstract class ByteCursor {
  /** The line's bytes, the position of the next byte to read, and the end of the line. */
  byte[] b;
  int at;
  int end;
  /** The number last read by {@link #integer()}. */
  long number;
  /** The elements of the lists read by {@link #integers} since the owner last reset {@link #elemCount}. */
  long[] elems = new long[16];
  int elemCount;

  /** Starts on the line {@code bytes[from..to)}. */
  final void start(byte[] bytes, int from, int to) {
    b = bytes;
    at = from;
    end = to;
  }

  /** @return true after {@code sep}, false after {@code close} or anything else (then past the end) */
  final boolean separator(char sep, char close) {
    if (at < end && b[at] == sep) {
      at++;
      return true;
    }
    if (at < end && b[at] == close) {
      at++;
    } else {
      at = end + 1;
    }
    return false;
  }

  /** Reads a name up to its closing quote. @return the index of that quote, or -1 */
  final int name() {
    int i = at;
    while (i < end) {
      byte c = b[i];
      if (c == '"') {
        at = i + 1;
        return i;
      }
      if (c < 0x20 || c > 0x7e || c == '\\') {
        return -1;
      }
      i++;
    }
    return -1;
  }

  /**
   * Reads the rest of a list of integers separated by {@code sep} and closed by {@code ]} (the cursor
   * just past its {@code [}), appending them to {@link #elems}.
   *
   * @return how many it read, or -1 if the text is not such a list
   */
  final int integers(char sep) {
    int first = elemCount;
    if (at < end && b[at] == ']') {
      at++;
      return 0;
    }
    do {
      if (!integer()) {
        return -1;
      }
      if (elemCount == elems.length) {
        elems = Arrays.copyOf(elems, 2 * elemCount);
      }
      elems[elemCount++] = number;
    } while (separator(sep, ']'));
    return at <= end && b[at - 1] == ']' ? elemCount - first : -1;
  }

  /** Reads {@code -?[1-9][0-9]{0,17}} or {@code 0} into {@link #number}. */
  final boolean integer() {
    boolean negative = at < end && b[at] == '-';
    int from = negative ? at + 1 : at;
    int stop = LineReader.digitsEnd(b, from, end);
    int n = stop - from;
    if (n == 0 || n > LineReader.MAX_DIGITS || (b[from] == '0' && (n > 1 || negative))) {
      return false;
    }
    long v = LineReader.digitsValue(b, from, stop);
    number = negative ? -v : v;
    at = stop;
    return true;
  }

  /** Reads {@code prefix}, then one of {@code words} and {@code close} after it. @return its index or -1 */
  final int word(byte[][] words, byte[] prefix, char close) {
    if (!literal(prefix)) {
      return -1;
    }
    for (int w = 0; w < words.length; w++) {
      int n = words[w].length;
      if (at + n < end && b[at + n] == close && startsWith(words[w])) {
        at += n + 1;
        return w;
      }
    }
    return -1;
  }

  final boolean literal(byte[] s) {
    if (!startsWith(s)) {
      return false;
    }
    at += s.length;
    return true;
  }

  /** Whether the bytes at {@link #at} start with {@code s}: a loop, cheaper than {@code Arrays.equals} on a few bytes. */
  final boolean startsWith(byte[] s) {
    int n = s.length;
    if (at + n > end) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (b[at + i] != s[i]) {
        return false;
      }
    }
    return true;
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
