package io.isowatch.checker.format;

import com.fasterxml.jackson.core.ErrorReportConfiguration;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * Reads isowatch JSON lines, the canonical history format of {@code docs/history-format.md}: one
 * JSON object per line, one transaction each, e.g. {@code {"session":"s1","txn":7,
 * "status":"committed","ops":[{"f":"w","key":"x","value":1},{"f":"r","key":"x","value":null}]}}.
 *
 * <p>Streams the file with Jackson's token parser; each transaction's operations are collected in a
 * {@link TxnBuffer} (its fields may come in any order) and appended whole. Unknown fields are
 * errors, so that a misspelt field is not silently ignored; so are a field repeated within one
 * object, a second value on a transaction's line, and a {@code "txn"} label used twice.
 */
final class JsonLinesReader {
  static final String EXPECTED_TXN = "a transaction object {\"session\": ..., \"txn\": ..., "
      + "\"status\": \"committed\"|\"aborted\"|\"unknown\", \"ops\": [...]}";
  static final String EXPECTED_OP = "an operation {\"f\": \"r\"|\"w\"|\"append\", \"key\": ..., "
      + "\"value\": ...}";
  private static final int PROGRESS_EVERY_TXNS = 4096;
  /** The fields of a transaction object and of an operation object. */
  private static final String[] TXN_FIELDS = {"session", "txn", "status", "ops"};
  private static final String[] OP_FIELDS = {"f", "key", "value", "list"};
  /**
   * Quotes at most {@link HistoryFormatException#EXCERPT_CHARS} characters of input in its error
   * messages. A field repeated within one object is refused by {@link #requireFirst}, in the words
   * of Jackson's {@code STRICT_DUPLICATE_DETECTION}, which costs a {@code HashSet} per object with
   * three fields or more (a quarter of the load time of 10^5 transactions).
   */
  private static final JsonFactory FACTORY = JsonFactory.builder()
      .errorReportConfiguration(ErrorReportConfiguration.builder()
          .maxErrorTokenLength(HistoryFormatException.EXCERPT_CHARS)
          .maxRawContentLength(HistoryFormatException.EXCERPT_CHARS)
          .build())
      .build();

  private final Path file;
  private final JsonParser p;
  private final History h = new History();
  private final TxnBuffer ops = new TxnBuffer();
  private final LongArrayList elems = new LongArrayList();
  /** Each transaction label read so far to the line where it appeared. */
  private final Long2LongOpenHashMap labelLines = new Long2LongOpenHashMap();

  private JsonLinesReader(Path file, JsonParser p) {
    this.file = file;
    this.p = p;
    labelLines.defaultReturnValue(-1);
  }

  /**
   * @param file the file
   * @param progress receives the bytes consumed so far, every few thousand transactions
   * @return the history
   * @throws HistoryFormatException naming the line of the first malformed transaction or operation
   */
  static History read(Path file, LongConsumer progress) throws HistoryFormatException, IOException {
    try (InputStream in = Files.newInputStream(file);
        JsonParser p = FACTORY.createParser(in)) {
      JsonLinesReader r = new JsonLinesReader(file, p);
      try {
        return r.readAll(progress);
      } catch (JsonProcessingException e) {
        long line = e.getLocation() == null ? p.currentLocation().getLineNr()
            : e.getLocation().getLineNr();
        throw HistoryFormatException.atLine(file, line, "malformed JSON: " + e.getOriginalMessage(),
            "one JSON object per line");
      }
    }
  }

  private History readAll(LongConsumer progress) throws HistoryFormatException, IOException {
    JsonToken t;
    long lastLine = 0;
    while ((t = p.nextToken()) != null) {
      if (line() == lastLine) {
        throw error("text after the transaction object", "one JSON object per line");
      }
      if (t != JsonToken.START_OBJECT) {
        throw error("found " + describe(t), EXPECTED_TXN);
      }
      transaction();
      lastLine = line();
      if (h.txnCount() % PROGRESS_EVERY_TXNS == 0) {
        progress.accept(p.currentLocation().getByteOffset());
      }
    }
    progress.accept(p.currentLocation().getByteOffset());
    return h;
  }

  private void transaction() throws HistoryFormatException, IOException {
    long line = line();
    String session = null;
    long label = line;
    TxnStatus status = TxnStatus.COMMITTED;
    boolean sawOps = false;
    int seen = 0;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      seen = requireFirst(seen, field, TXN_FIELDS);
      JsonToken v = p.nextToken();
      switch (field) {
        case "session":
          session = name(v, "session");
          break;
        case "txn":
          label = integer(v, "txn");
          break;
        case "status":
          status = status(v);
          break;
        case "ops":
          operations(v);
          sawOps = true;
          break;
        default:
          throw error("unknown field \"" + HistoryFormatException.excerpt(field) + "\" in a transaction", EXPECTED_TXN);
      }
    }
    if (session == null || !sawOps) {
      throw HistoryFormatException.atLine(file, line,
          "transaction without \"" + (session == null ? "session" : "ops") + "\"", EXPECTED_TXN);
    }
    long first = labelLines.putIfAbsent(label, line);
    if (first >= 0) {
      throw HistoryFormatException.atLine(file, line, "transaction label " + label
          + " repeats the label of line " + first, "a distinct \"txn\" per transaction");
    }
    ops.appendTo(h, h.session(session), label, status, file);
  }

  private TxnStatus status(JsonToken v) throws HistoryFormatException, IOException {
    String s = v == JsonToken.VALUE_STRING ? p.getText() : "";
    switch (s) {
      case "committed":
      case "aborted":
      case "unknown":
        return TxnStatus.valueOf(s.toUpperCase(Locale.ROOT));
      default:
        throw error("status " + (v == JsonToken.VALUE_STRING ? "\"" + HistoryFormatException.excerpt(s) + "\"" : describe(v)),
            "\"committed\", \"aborted\" or \"unknown\"");
    }
  }

  private void operations(JsonToken v) throws HistoryFormatException, IOException {
    if (v != JsonToken.START_ARRAY) {
      throw error("\"ops\" is " + describe(v), "an array of operations");
    }
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t != JsonToken.START_OBJECT) {
        throw error("found " + describe(t) + " in \"ops\"", EXPECTED_OP);
      }
      operation();
    }
  }

  private void operation() throws HistoryFormatException, IOException {
    long line = line();
    String f = null;
    String key = null;
    JsonToken value = null;
    long v = 0;
    boolean list = false;
    int seen = 0;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      seen = requireFirst(seen, field, OP_FIELDS);
      JsonToken t = p.nextToken();
      switch (field) {
        case "f":
          f = t == JsonToken.VALUE_STRING ? p.getText() : describe(t);
          break;
        case "key":
          key = name(t, "key");
          break;
        case "value":
          value = t;
          v = value(t);
          break;
        case "list":
          if (!t.isBoolean()) {
            throw error("\"list\" is " + describe(t), "true or false");
          }
          list = t == JsonToken.VALUE_TRUE;
          break;
        default:
          throw error("unknown field \"" + HistoryFormatException.excerpt(field) + "\" in an operation", EXPECTED_OP);
      }
    }
    if (f == null || key == null) {
      throw HistoryFormatException.atLine(file, line,
          "operation without \"" + (f == null ? "f" : "key") + "\"", EXPECTED_OP);
    }
    add(f, h.key(key), value, v, list, line);
  }

  /** @return the integer value, or 0 for null, absent or a list (then in {@link #elems}) */
  private long value(JsonToken t) throws HistoryFormatException, IOException {
    if (t == JsonToken.VALUE_NUMBER_INT) {
      return integer(t, "value");
    }
    if (t == JsonToken.START_ARRAY) {
      elems.clear();
      JsonToken e;
      while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
        elems.add(integer(e, "list element"));
      }
      return 0;
    }
    if (t != JsonToken.VALUE_NULL) {
      throw error("\"value\" is " + describe(t), "an integer, null or an array of integers");
    }
    return 0;
  }

  private void add(String f, int key, JsonToken value, long v, boolean list, long line)
      throws HistoryFormatException {
    boolean number = value == JsonToken.VALUE_NUMBER_INT;
    if (number && (v == History.NIL || v == History.UNKNOWN_VALUE)) {
      throw HistoryFormatException.atLine(file, line, "value " + v + " is reserved",
          "an integer above " + History.UNKNOWN_VALUE);
    }
    switch (f) {
      case "w":
      case "append":
        if (!number || list) {
          throw HistoryFormatException.atLine(file, line,
              "\"" + f + "\" without an integer \"value\"", "an integer value");
        }
        if (f.equals("w")) {
          ops.write(key, v, line);
        } else {
          ops.append(key, v, line);
        }
        break;
      case "r":
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
   * @param seen the fields of the current object seen so far, bit {@code i} for {@code fields[i]}
   * @param field the field name just read; an unknown one is left to the caller
   * @return {@code seen} with {@code field}
   * @throws HistoryFormatException if {@code field} was seen already, as Jackson's duplicate
   *     detection words it ({@code malformed JSON: Duplicate field 'F'}, at the line of the name)
   */
  private int requireFirst(int seen, String field, String[] fields) throws HistoryFormatException {
    for (int i = 0; i < fields.length; i++) {
      if (fields[i].equals(field)) {
        if ((seen & (1 << i)) != 0) {
          throw error("malformed JSON: Duplicate field '" + field + "'", "one JSON object per line");
        }
        return seen | (1 << i);
      }
    }
    return seen;
  }

  private String name(JsonToken t, String field) throws HistoryFormatException, IOException {
    if (t == JsonToken.VALUE_STRING || t == JsonToken.VALUE_NUMBER_INT) {
      return p.getText();
    }
    throw error("\"" + field + "\" is " + describe(t), "a string");
  }

  private long integer(JsonToken t, String field) throws HistoryFormatException, IOException {
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw error("\"" + field + "\" is " + describe(t), "an integer");
    }
    if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
      throw error("\"" + field + "\" " + HistoryFormatException.excerpt(p.getText()) + " is out of the 64-bit range",
          "a 64-bit integer");
    }
    return p.getLongValue();
  }

  private long line() {
    return p.currentTokenLocation().getLineNr();
  }

  private String describe(JsonToken t) throws IOException {
    switch (t) {
      case START_OBJECT:
        return "an object";
      case START_ARRAY:
        return "an array";
      case VALUE_STRING:
        return "the string \"" + HistoryFormatException.excerpt(p.getText()) + "\"";
      case VALUE_NULL:
        return "null";
      default:
        return HistoryFormatException.excerpt(p.getText());
    }
  }

  private HistoryFormatException error(String problem, String expected) {
    return HistoryFormatException.atLine(file, line(), problem, expected);
  }
}
