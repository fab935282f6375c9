package io.isowatch.checker.format;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * Reads AWDIT's test histories (Møldrup &amp; Pavlogiannis, PLDI 2025; the {@code res/tests} files
 * of the AWDIT repository): sessions separated by lines of {@code =}, transactions within a session
 * by lines of {@code -}, one operation {@code r K V} or {@code w K V} per line.
 *
 * <p>Conventions (source: AWDIT's {@code parse_test_history} and its test files):
 *
 * <ul>
 *   <li>Keys and values are non-negative integers. There is no implicit initial value: value 0 is
 *       an ordinary value, and test histories write each key's first value in an initial
 *       transaction (e.g. {@code w 0 0}); a read of a value nobody wrote is a thin-air read.
 *   <li>Every transaction is committed; sessions are named {@code 1, 2, ...} in file order, empty
 *       sessions and transactions (repeated separators) are skipped; a transaction is labelled with
 *       the line number of its first operation. Blank lines are ignored.
 * </ul>
 */
final class AwditReader {
  static final String EXPECTED = "'r K V' or 'w K V' with integers K, V >= 0, "
      + "or a separator line of '=' (session) or '-' (transaction)";

  /** What a line is, as {@link #kind} tells it from its bytes. */
  private static final int OTHER = 0;
  private static final int READ = 1;
  private static final int WRITE = 2;
  private static final int SESSION_SEPARATOR = 3;
  private static final int TXN_SEPARATOR = 4;

  private final Path file;
  private final History h = new History();
  private long line;
  /** The number last read by {@link #digits}. */
  private long digitsValue;
  /** The key and value of the operation {@link #kind} last told. */
  private long opKey;
  private long opValue;

  private AwditReader(Path file) {
    this.file = file;
  }

  /**
   * @param file the file
   * @param progress receives the bytes consumed so far, every few thousand lines
   * @return the history
   * @throws HistoryFormatException naming the line of the first malformed line
   */
  static History read(Path file, LongConsumer progress)
      throws HistoryFormatException, IOException {
    try (InputStream in = Files.newInputStream(file)) {
      AwditReader reader = new AwditReader(file);
      LineSample.reserve(reader.h, file);
      return reader.readAll(new LineReader(in, file), progress);
    }
  }

  private History readAll(LineReader lines, LongConsumer progress)
      throws HistoryFormatException, IOException {
    int session = -1;
    boolean newSession = true;
    boolean open = false;
    while (lines.advance()) {
      line = lines.lineNumber();
      byte[] b = lines.bytes();
      int kind = kind(b, lines.start(), lines.end());
      if (kind == OTHER) {
        String s = lines.text().strip();
        if (s.isEmpty()) {
          continue;
        }
        kind = repeats(s, '=') ? SESSION_SEPARATOR : repeats(s, '-') ? TXN_SEPARATOR : OTHER;
      }
      if (kind == SESSION_SEPARATOR || kind == TXN_SEPARATOR) {
        if (open) {
          h.end(TxnStatus.COMMITTED);
          open = false;
        }
        newSession |= kind == SESSION_SEPARATOR;
      } else {
        if (!open) {
          if (newSession) {
            session = h.session(Integer.toString(h.sessionCount() + 1));
            newSession = false;
          }
          h.beginTxn(session, line);
          open = true;
        }
        if (kind == OTHER) {
          addOp(lines.text().strip());
        } else {
          add(kind == WRITE, opKey, opValue);
        }
      }
      if (line % LineReader.PROGRESS_EVERY_LINES == 0) {
        progress.accept(lines.bytesConsumed());
      }
    }
    if (open) {
      h.end(TxnStatus.COMMITTED);
    }
    progress.accept(lines.bytesConsumed());
    return h;
  }

  /**
   * The hot path: tells a line in a canonical form from its bytes. A separator is a non-empty run
   * of {@code =} or of {@code -} alone; an operation is {@code r} or {@code w}, blanks (space or
   * tab), a key, blanks, a value, optional trailing blanks, numbers of 1 to 18 decimal digits (left
   * in {@link #opKey} and {@link #opValue}). Every such line means the same to the text path
   * ({@link #repeats}, {@link #addOp}); any other line is left to it, so its errors are the only
   * ones.
   *
   * @return {@link #READ}, {@link #WRITE}, a separator, or {@link #OTHER} to parse the line as text
   */
  private int kind(byte[] b, int from, int to) {
    if (to == from) {
      return OTHER;
    }
    byte c = b[from];
    if (c == '=' || c == '-') {
      for (int i = from + 1; i < to; i++) {
        if (b[i] != c) {
          return OTHER;
        }
      }
      return c == '=' ? SESSION_SEPARATOR : TXN_SEPARATOR;
    }
    if (c != 'r' && c != 'w') {
      return OTHER;
    }
    int i = digits(b, blanks(b, from + 1, to), to);
    opKey = digitsValue;
    i = i < 0 ? -1 : digits(b, blanks(b, i, to), to);
    opValue = digitsValue;
    if (i < 0 || blanks(b, i, to) != to) {
      return OTHER;
    }
    return c == 'w' ? WRITE : READ;
  }

  /** @return the index of the first byte from {@code i} that is not a space or tab (or {@code to}) */
  private static int blanks(byte[] b, int i, int to) {
    while (i < to && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
    return i;
  }

  /**
   * Reads 1 to 18 decimal digits from {@code b[i]}, after at least one blank, into {@link
   * #digitsValue}, ending at a blank or {@code to}.
   *
   * @return the index after the digits, or -1 if the bytes are not of that form
   */
  private int digits(byte[] b, int i, int to) {
    int stop = LineReader.digitsEnd(b, i, to);
    if (i == 0 || (b[i - 1] != ' ' && b[i - 1] != '\t') || stop == i
        || stop - i > LineReader.MAX_DIGITS || (stop < to && b[stop] != ' ' && b[stop] != '\t')) {
      return -1;
    }
    digitsValue = LineReader.digitsValue(b, i, stop);
    return stop;
  }


  private static boolean repeats(String s, char c) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) != c) {
        return false;
      }
    }
    return true;
  }

  private void addOp(String s) throws HistoryFormatException {
    String[] w = s.split("\\s+");
    if (w.length != 3 || !(w[0].equals("r") || w[0].equals("w"))) {
      throw HistoryFormatException.atLine(file, line, "malformed line '" + HistoryFormatException.excerpt(s) + "'", EXPECTED);
    }
    add(w[0].equals("w"), number(w[1], "key"), number(w[2], "value"));
  }

  private void add(boolean write, long key, long value) throws HistoryFormatException {
    int k = h.key(key);
    try {
      if (write) {
        h.write(k, value);
      } else {
        h.read(k, value);
      }
    } catch (IllegalArgumentException e) {
      throw HistoryFormatException.atLine(file, line, e.getMessage(), null);
    }
  }

  private long number(String s, String field) throws HistoryFormatException {
    try {
      long v = Long.parseLong(s);
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw HistoryFormatException.atLine(
        file, line, field + " '" + HistoryFormatException.excerpt(s) + "' is not a non-negative integer", EXPECTED);
  }
}
