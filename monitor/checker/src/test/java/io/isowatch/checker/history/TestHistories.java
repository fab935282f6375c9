package io.isowatch.checker.history;

import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * A compact notation for writing histories by hand in tests, one transaction per line:
 *
 * <pre>
 * s1 T1: w x 1, w y 1
 * s2 T2: r x 1, r y _        (_ is the initial value)
 * s2 T3: a k 5, r k [4 5]    (list-append: append, list read)
 * s3 T4: w x 2 | aborted     (status after '|': committed (default), aborted, unknown)
 * </pre>
 *
 * <p>Sessions are named by the first word; the label after it ({@code T<n>}) is optional and
 * defaults to the line number starting at 1. Blank lines and lines starting with {@code #} are
 * skipped.
 */
public final class TestHistories {
  private TestHistories() {}

  /**
   * @param text transactions, one per line, in the notation above
   * @return the history
   * @throws IllegalArgumentException naming the line for malformed text
   */
  public static History parse(String text) {
    History h = new History();
    int lineNo = 0;
    for (String raw : text.split("\n")) {
      lineNo++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      try {
        parseLine(h, line, lineNo);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("line " + lineNo + ": " + line + ": " + e.getMessage(), e);
      }
    }
    return h;
  }

  private static void parseLine(History h, String line, int lineNo) {
    TxnStatus status = TxnStatus.COMMITTED;
    int bar = line.indexOf('|');
    if (bar >= 0) {
      status = TxnStatus.valueOf(line.substring(bar + 1).strip().toUpperCase());
      line = line.substring(0, bar);
    }
    int colon = line.indexOf(':');
    String[] head = line.substring(0, colon).strip().split("\\s+");
    long label = head.length > 1 ? Long.parseLong(head[1].substring(1)) : lineNo;
    h.beginTxn(h.session(head[0]), label);
    for (String opText : line.substring(colon + 1).split(",")) {
      String op = opText.strip();
      if (op.isEmpty()) {
        continue;
      }
      String[] w = op.split("\\s+", 3);
      int key = h.key(w[1]);
      switch (w[0]) {
        case "w":
          h.write(key, Long.parseLong(w[2]));
          break;
        case "a":
          h.append(key, Long.parseLong(w[2]));
          break;
        case "r":
          if (w[2].startsWith("[")) {
            LongArrayList elems = new LongArrayList();
            String inner = w[2].substring(1, w[2].length() - 1).strip();
            if (!inner.isEmpty()) {
              for (String e : inner.split("\\s+")) {
                elems.add(Long.parseLong(e));
              }
            }
            h.readList(key, elems.toLongArray(), 0, elems.size());
          } else if (w[2].equals("_")) {
            h.read(key, History.NIL);
          } else {
            h.read(key, Long.parseLong(w[2]));
          }
          break;
        default:
          throw new IllegalArgumentException("unknown operation '" + w[0] + "'");
      }
    }
    h.end(status);
  }
}
