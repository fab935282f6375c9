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

  private AwditReader() {}

  /**
   * @param file the file
   * @param progress receives the bytes consumed so far, every few thousand lines
   * @return the history
   * @throws HistoryFormatException naming the line of the first malformed line
   */
  static History read(Path file, LongConsumer progress)
      throws HistoryFormatException, IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(file, new LineReader(in, file), progress);
    }
  }

  private static History read(Path file, LineReader lines, LongConsumer progress)
      throws HistoryFormatException, IOException {
    History h = new History();
    int session = -1;
    boolean newSession = true;
    boolean open = false;
    String text;
    while ((text = lines.next()) != null) {
      long line = lines.lineNumber();
      String s = text.strip();
      if (s.isEmpty()) {
        continue;
      }
      if (repeats(s, '=') || repeats(s, '-')) {
        if (open) {
          h.end(TxnStatus.COMMITTED);
          open = false;
        }
        newSession |= s.charAt(0) == '=';
      } else {
        if (!open) {
          if (newSession) {
            session = h.session(Integer.toString(h.sessionCount() + 1));
            newSession = false;
          }
          h.beginTxn(session, line);
          open = true;
        }
        addOp(h, s, file, line);
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

  private static boolean repeats(String s, char c) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) != c) {
        return false;
      }
    }
    return true;
  }

  private static void addOp(History h, String s, Path file, long line)
      throws HistoryFormatException {
    String[] w = s.split("\\s+");
    if (w.length != 3 || !(w[0].equals("r") || w[0].equals("w"))) {
      throw HistoryFormatException.atLine(file, line, "malformed line '" + HistoryFormatException.excerpt(s) + "'", EXPECTED);
    }
    long key = number(w[1], "key", file, line);
    long value = number(w[2], "value", file, line);
    int k = h.key(Long.toString(key));
    try {
      if (w[0].equals("r")) {
        h.read(k, value);
      } else {
        h.write(k, value);
      }
    } catch (IllegalArgumentException e) {
      throw HistoryFormatException.atLine(file, line, e.getMessage(), null);
    }
  }

  private static long number(String s, String field, Path file, long line)
      throws HistoryFormatException {
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
