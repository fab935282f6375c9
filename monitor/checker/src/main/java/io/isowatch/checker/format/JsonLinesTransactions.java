package io.isowatch.checker.format;

import com.fasterxml.jackson.core.JsonToken;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.nio.file.Path;

/**
 * The history a {@link JsonLinesReader} builds, and what both of its paths share: the meaning of an
 * operation ({@link #add}) and of a transaction ({@link #commit}), with their errors, so that the
 * token path and the line path cannot disagree on them. Each transaction's operations are held in
 * a {@link TxnBuffer} (a transaction's fields may come in any order) and appended whole.
 */
final class JsonLinesTransactions {
  private static final String[] F_NAMES = {"w", "append", "r"};
  /** The token the token path sees for each {@link JsonLinesCanonical} value shape. */
  private static final JsonToken[] VALUE_TOKENS =
      {null, JsonToken.VALUE_NULL, JsonToken.VALUE_NUMBER_INT, JsonToken.START_ARRAY, null};

  private final Path file;
  private final History h = new History();
  private final TxnBuffer ops = new TxnBuffer();
  private final LongArrayList elems = new LongArrayList();
  /** Each transaction label read so far to the line where it appeared. */
  private final Long2LongOpenHashMap labelLines = new Long2LongOpenHashMap();
  private final ByteNames keyNames = new ByteNames(h::key);
  private final ByteNames sessionNames = new ByteNames(h::session);

  /** @param file the file read, for error messages */
  JsonLinesTransactions(Path file) {
    this.file = file;
    labelLines.defaultReturnValue(-1);
  }

  /** @return the history built so far */
  History history() {
    return h;
  }

  /** @return where the elements of an array {@code "value"} go before {@link #add} */
  LongArrayList elems() {
    return elems;
  }

  /**
   * Adds the transaction {@code c} has just parsed from {@code b} at {@code line}, as {@link #add}
   * and {@link #commit} would from the token path, with its key and session names interned from
   * their bytes.
   *
   * @throws HistoryFormatException as {@link #add} and {@link #commit}
   */
  void addCanonical(JsonLinesCanonical c, byte[] b, long line) throws HistoryFormatException {
    for (int i = 0; i < c.opCount; i++) {
      int key = keyNames.id(b, c.keyFrom[i], c.keyTo[i]);
      byte shape = c.valueShape[i];
      if (shape == JsonLinesCanonical.LIST) {
        elems.clear();
        elems.addElements(0, c.elems, (int) c.value[i], c.listLength[i]);
      }
      add(c.opKind[i], F_NAMES[c.opKind[i]], key, VALUE_TOKENS[shape],
          shape == JsonLinesCanonical.INTEGER ? c.value[i] : 0,
          shape == JsonLinesCanonical.LIST_UNKNOWN, line);
    }
    commit(sessionNames.id(b, c.sessionFrom, c.sessionTo), c.label, c.status, line);
  }

  /**
   * Adds an operation to the transaction being read, as the token path reads it: {@code f} the
   * operation's {@code "f"}, {@code value} the token of its {@code "value"} ({@code null} if absent;
   * for an array, its elements in {@link #elems()}), {@code v} the integer value, {@code list} its
   * {@code "list"}.
   *
   * @throws HistoryFormatException naming {@code line} for a reserved value, a write without an
   *     integer value, a list flag with a register value, or an unknown operation
   */
  void add(String f, int key, JsonToken value, long v, boolean list, long line)
      throws HistoryFormatException {
    int kind = f.equals("w") ? JsonLinesCanonical.WRITE : f.equals("append") ? JsonLinesCanonical.APPEND
        : f.equals("r") ? JsonLinesCanonical.READ : -1;
    add(kind, f, key, value, v, list, line);
  }

  /** {@link #add(String, int, JsonToken, long, boolean, long)} with {@code f}'s {@link JsonLinesCanonical} kind, -1 if unknown. */
  private void add(int kind, String f, int key, JsonToken value, long v, boolean list, long line)
      throws HistoryFormatException {
    boolean number = value == JsonToken.VALUE_NUMBER_INT;
    if (number && (v == History.NIL || v == History.UNKNOWN_VALUE)) {
      throw HistoryFormatException.atLine(file, line, "value " + v + " is reserved",
          "an integer above " + History.UNKNOWN_VALUE);
    }
    switch (kind) {
      case JsonLinesCanonical.WRITE:
      case JsonLinesCanonical.APPEND:
        if (!number || list) {
          throw HistoryFormatException.atLine(file, line,
              "\"" + f + "\" without an integer \"value\"", "an integer value");
        }
        if (kind == JsonLinesCanonical.WRITE) {
          ops.write(key, v, line);
        } else {
          ops.append(key, v, line);
        }
        break;
      case JsonLinesCanonical.READ:
        if (value == null) {
          if (list) {
            ops.readListUnknown(key, line);
          } else {
            ops.read(key, History.UNKNOWN_VALUE, line);
          }
        } else if (value == JsonToken.START_ARRAY) {
          ops.readList(key, elems.elements(), elems.size(), line);
        } else if (list) {
          throw HistoryFormatException.atLine(file, line, "\"list\": true with a register value",
              "an array value or no value");
        } else {
          ops.read(key, number ? v : History.NIL, line);
        }
        break;
      default:
        throw HistoryFormatException.atLine(file, line, "unknown operation \"" + HistoryFormatException.excerpt(f) + "\"",
            "\"r\", \"w\" or \"append\"");
    }
  }

  /**
   * Appends the operations given to {@link #add} since the last commit as the transaction {@code
   * label} of {@code line}.
   *
   * @throws HistoryFormatException if the label was used before, or the history refuses an
   *     operation (a value written twice to one key), naming its line
   */
  void commit(int session, long label, TxnStatus status, long line)
      throws HistoryFormatException {
    long first = labelLines.putIfAbsent(label, line);
    if (first >= 0) {
      throw HistoryFormatException.atLine(file, line, "transaction label " + label
          + " repeats the label of line " + first, "a distinct \"txn\" per transaction");
    }
    ops.appendTo(h, session, label, status, file);
  }
}
