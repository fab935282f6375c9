package io.isowatch.checker.format;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.nio.file.Path;

/**
 * The operations of one transaction held back until the transaction is complete, on primitive
 * lists, each with the line it came from.
 *
 * <p>{@link History} accepts one open transaction at a time, so a reader whose format interleaves
 * transactions (Plume text, where sessions interleave line by line) or names a transaction's
 * session after its operations (JSON lines with fields in any order) collects the operations here
 * and appends them whole with {@link #appendTo}. A buffer is reused after {@link #clear()}.
 */
final class TxnBuffer {
  private static final long UNKNOWN_LIST = -1;

  private final ByteArrayList kinds = new ByteArrayList();
  private final IntArrayList keys = new IntArrayList();
  /** Register value, or for a list read the index of its length in {@link #elems}. */
  private final LongArrayList values = new LongArrayList();
  private final LongArrayList lines = new LongArrayList();
  /** List reads: the length n, then n elements. */
  private final LongArrayList elems = new LongArrayList();

  /** Adds {@code read(key) -> value}; {@code value} may be {@link History#NIL} or unknown. */
  void read(int key, long value, long line) {
    add(OpKind.READ, key, value, line);
  }

  /** Adds {@code write(key, value)}. */
  void write(int key, long value, long line) {
    add(OpKind.WRITE, key, value, line);
  }

  /** Adds {@code append(key, element)}. */
  void append(int key, long element, long line) {
    add(OpKind.APPEND, key, element, line);
  }

  /** Adds {@code read(key) -> [elements[0] .. elements[n-1]]}. */
  void readList(int key, long[] elements, int n, long line) {
    add(OpKind.READ_LIST, key, elems.size(), line);
    elems.add(n);
    elems.addElements(elems.size(), elements, 0, n);
  }

  /** Adds a list read whose result is unknown. */
  void readListUnknown(int key, long line) {
    add(OpKind.READ_LIST, key, UNKNOWN_LIST, line);
  }

  private void add(byte kind, int key, long value, long line) {
    kinds.add(kind);
    keys.add(key);
    values.add(value);
    lines.add(line);
  }

  /** @return the number of operations held */
  int size() {
    return kinds.size();
  }

  /** @return the line of the first operation held; the buffer must not be empty */
  long firstLine() {
    return lines.getLong(0);
  }

  /** Empties the buffer for the next transaction. */
  void clear() {
    kinds.clear();
    keys.clear();
    values.clear();
    lines.clear();
    elems.clear();
  }

  /**
   * Appends the held operations to {@code h} as one transaction, then clears the buffer.
   *
   * @param file the file read, for error messages
   * @return the new transaction's id
   * @throws HistoryFormatException naming the operation's line if the history rejects it (a value
   *     written twice to one key, a reserved value)
   */
  int appendTo(History h, int session, long label, TxnStatus status, Path file)
      throws HistoryFormatException {
    int t = h.beginTxn(session, label);
    long[] elemArray = elems.elements();
    for (int i = 0; i < kinds.size(); i++) {
      int key = keys.getInt(i);
      long v = values.getLong(i);
      try {
        switch (kinds.getByte(i)) {
          case OpKind.READ:
            h.read(key, v);
            break;
          case OpKind.WRITE:
            h.write(key, v);
            break;
          case OpKind.APPEND:
            h.append(key, v);
            break;
          default:
            if (v == UNKNOWN_LIST) {
              h.readListUnknown(key);
            } else {
              int from = (int) v + 1;
              h.readList(key, elemArray, from, from + (int) elemArray[(int) v]);
            }
        }
      } catch (IllegalArgumentException e) {
        throw HistoryFormatException.atLine(file, lines.getLong(i), e.getMessage(), null);
      }
    }
    h.end(status);
    clear();
    return t;
  }
}
