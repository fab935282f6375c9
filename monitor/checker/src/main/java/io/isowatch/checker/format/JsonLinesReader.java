package io.isowatch.checker.format;

import com.fasterxml.jackson.core.ErrorReportConfiguration;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
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
 * <p>The token path streams the file with Jackson's token parser; each transaction's operations are
 * collected in a {@link TxnBuffer} (its fields may come in any order) and appended whole. Unknown
 * fields are errors, so that a misspelt field is not silently ignored; so are a field repeated
 * within one object, a second value on a transaction's line, and a {@code "txn"} label used twice.
 *
 * <p>The line path, tried first on a regular file, reads it line by line from its bytes ({@link
 * LineReader#advance()}): a line in the shape {@link JsonLinesWriter} writes is taken apart by
 * {@link JsonLinesCanonical}, with its keys and sessions interned from their bytes ({@link
 * ByteNames}); any other line that holds one whole object is given alone to a Jackson parser. The
 * line path never reports an error: at anything it cannot read exactly as the token path would (a
 * malformed line, an object over several lines, a carriage return inside a line, which Jackson
 * counts as a line break, bytes from which Jackson would guess another encoding) it gives up and the
 * token path reads the file from its start. So a file is read alike either way, and every error
 * message is the token path's.
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

  /** {@link #oneLine} outcomes. */
  private static final int GIVE_UP = 0;
  private static final int BLANK = 1;
  private static final int TRANSACTION = 2;

  private final Path file;
  private JsonParser p;
  /** The line before the first line {@link #p} reads (Jackson counts from 1). */
  private long lineBase;
  private final JsonLinesTransactions txns;
  private final History h;
  private final LongArrayList elems;
  private final JsonLinesCanonical canonical = new JsonLinesCanonical();

  private JsonLinesReader(Path file) {
    this.file = file;
    txns = new JsonLinesTransactions(file);
    h = txns.history();
    elems = txns.elems();
  }

  /**
   * @param file the file
   * @param progress receives the bytes consumed so far, every few thousand transactions
   * @return the history
   * @throws HistoryFormatException naming the line of the first malformed transaction or operation
   */
  static History read(Path file, LongConsumer progress) throws HistoryFormatException, IOException {
    long[] reported = {0};
    LongConsumer forward = bytes -> {
      if (bytes >= reported[0]) {
        reported[0] = bytes;
        progress.accept(bytes);
      }
    };
    if (Files.isRegularFile(file)) {
      try (InputStream in = Files.newInputStream(file)) {
        JsonLinesReader r = new JsonLinesReader(file);
        LineSample.reserveJsonLines(r.h, file);
        History h = r.readLines(new LineReader(in, file), forward);
        if (h != null) {
          return h;
        }
      }
    }
    return readTokens(file, forward);
  }

  /**
   * The token path alone: what {@link #read} answers, always through Jackson's token parser.
   *
   * @param progress receives the bytes consumed so far, every few thousand transactions
   */
  static History readTokens(Path file, LongConsumer progress)
      throws HistoryFormatException, IOException {
    try (InputStream in = Files.newInputStream(file);
        JsonParser p = FACTORY.createParser(in)) {
      JsonLinesReader r = new JsonLinesReader(file);
      r.p = p;
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

  /**
   * The line path.
   *
   * @return the history, or {@code null} if the token path must read the file instead
   */
  private History readLines(LineReader lines, LongConsumer progress) throws IOException {
    try {
      while (lines.advance()) {
        byte[] b = lines.bytes();
        int from = lines.start();
        int to = lines.end();
        long line = lines.lineNumber();
        if (canonical.parse(b, from, to)) {
          txns.addCanonical(canonical, b, line);
        } else {
          int read = oneLine(b, from, to, line);
          if (read == GIVE_UP) {
            return null;
          }
          if (read == BLANK) {
            continue;
          }
        }
        if (h.txnCount() % PROGRESS_EVERY_TXNS == 0) {
          progress.accept(lines.bytesConsumed());
        }
      }
    } catch (HistoryFormatException | JsonProcessingException e) {
      return null;
    }
    progress.accept(lines.bytesConsumed());
    return h;
  }

  /**
   * Reads a line of another shape with Jackson, alone, when that is the same as reading it within
   * the file: its first bytes make Jackson guess UTF-8 without a byte-order mark (no NUL among the
   * first four, the first below 0x80; the first line at least four bytes long, since the token path
   * guesses from the file's first four), and it holds no carriage return.
   *
   * @return {@link #BLANK} for a line of blanks, {@link #TRANSACTION} if the line held one whole
   *     transaction object and nothing else (then added), or {@link #GIVE_UP}
   */
  private int oneLine(byte[] b, int from, int to, long line)
      throws HistoryFormatException, IOException {
    if (line == 1 && to - from < 4 || to > from && b[from] < 0) {
      return GIVE_UP;
    }
    for (int i = from; i < to; i++) {
      if (b[i] == '\r' || (b[i] == 0 && i < from + 4)) {
        return GIVE_UP;
      }
    }
    lineBase = line - 1;
    try (JsonParser one = FACTORY.createParser(b, from, to - from)) {
      p = one;
      JsonToken t = p.nextToken();
      if (t == null) {
        return BLANK;
      }
      if (t != JsonToken.START_OBJECT) {
        return GIVE_UP;
      }
      transaction();
      return p.nextToken() == null ? TRANSACTION : GIVE_UP;
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
    txns.commit(h.session(session), label, status, line);
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
    txns.add(f, h.key(key), value, v, list, line);
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
    return lineBase + p.currentTokenLocation().getLineNr();
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
