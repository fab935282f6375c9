package io.isowatch.checker.format;

import io.isowatch.checker.format.EdnParser.Keyword;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Reads Elle / Jepsen histories in EDN, one operation map per line, e.g. {@code {:index 3, :type
 * :ok, :process 1, :value [[:append 255 8] [:r 253 [1 3 4]]]}}; rw-register ({@code [:w k v]},
 * {@code [:r k v]}) and list-append ({@code [:append k e]}, {@code [:r k [e ...]]}) micro-ops.
 *
 * <p>Conventions (source: Elle, Kingsbury &amp; Alvaro, VLDB 2020, and jepsen-io/elle's {@code
 * list_append.clj}, {@code rw_register.clj}, {@code graph.clj}; details in {@code
 * docs/history-format.md}):
 *
 * <ul>
 *   <li>{@code :invoke} is skipped; each completion is one transaction: {@code :ok} committed,
 *       {@code :fail} aborted, {@code :info} unknown outcome.
 *   <li>{@code :process} is the session. Operations whose process is a keyword ({@code :nemesis})
 *       are fault injections, not transactions, and are skipped. Without {@code :process} each
 *       transaction is its own session named {@code T<label>}: Elle orders only operations of one
 *       process, so no session order is assumed.
 *   <li>The label is {@code :index} when present (a non-negative 64-bit integer), otherwise the
 *       line number. Two completions with one label are refused: witnesses name transactions by
 *       label.
 *   <li>A {@code nil} read result in an {@code :ok} operation is the initial state: the empty list
 *       when the file holds any {@code :append} (Elle treats {@code nil} and {@code []} alike),
 *       otherwise the register's initial value {@link History#NIL}. In {@code :fail} and {@code
 *       :info} operations a {@code nil} result was never seen: {@link History#UNKNOWN_VALUE} or an
 *       unknown list read.
 *   <li>Keys are integers, keywords (name without the colon) or strings; values are integers.
 * </ul>
 *
 * <p>A line in the shape {@link EdnWriter} writes is taken apart straight from its bytes by {@link
 * EdnCanonical}, its names interned from their bytes ({@link ByteNames}), and added as the text
 * path would add it, with the same checks and messages; every other line is parsed as text by
 * {@link EdnParser}, which alone reports malformed EDN.
 */
final class EdnReader {
  static final String EXPECTED_OP =
      "a map like {:type :ok, :process 0, :value [[:r k v] [:w k v] [:append k e]]}";
  static final String EXPECTED_MOP = "a micro-op [:r k v], [:w k v] or [:append k e]";

  private static final Keyword TYPE = new Keyword("type");
  private static final Keyword PROCESS = new Keyword("process");
  private static final Keyword INDEX = new Keyword("index");
  private static final Keyword VALUE = new Keyword("value");

  private final Path file;
  private final boolean listAppend;
  private final History h = new History();
  private final LongArrayList elems = new LongArrayList();
  /** Integer keys to key ids, so that numbered keys are not turned into strings per operation. */
  private final Long2IntOpenHashMap integerKeys = new Long2IntOpenHashMap();
  /** Each transaction label read so far to the line where it appeared. */
  private final Long2LongOpenHashMap labelLines = new Long2LongOpenHashMap();
  private final EdnCanonical canonical = new EdnCanonical();
  private final ByteNames keyNames = new ByteNames(h::key);
  private final ByteNames sessionNames = new ByteNames(h::session);
  private long line;

  private EdnReader(Path file, boolean listAppend) {
    this.file = file;
    this.listAppend = listAppend;
    integerKeys.defaultReturnValue(-1);
    labelLines.defaultReturnValue(-1);
  }

  /**
   * @param file the EDN file
   * @param progress receives the bytes consumed so far, every few thousand lines
   * @return the history
   * @throws HistoryFormatException naming the line of the first malformed operation
   */
  static History read(Path file, LongConsumer progress) throws HistoryFormatException, IOException {
    return read(file, progress, true);
  }

  /**
   * @param bytePath whether lines of {@link EdnWriter}'s shape take the byte path; {@code false}
   *     reads every line as text (what {@link #read(Path, LongConsumer)} must answer alike, which
   *     the tests compare)
   */
  static History read(Path file, LongConsumer progress, boolean bytePath)
      throws HistoryFormatException, IOException {
    EdnReader r = new EdnReader(file, hasAppends(file));
    try (LineReader lines = new LineReader(Files.newInputStream(file), file)) {
      LineSample.reserveEdn(r.h, file);
      while (lines.advance()) {
        r.line = lines.lineNumber();
        if (bytePath && r.canonical.parse(lines.bytes(), lines.start(), lines.end())) {
          r.canonicalOperation(lines.bytes());
        } else {
          Object op = EdnParser.parseLine(lines.text(), file, r.line);
          if (op != EdnParser.NOTHING) {
            r.operation(op);
          }
        }
        if (r.line % LineReader.PROGRESS_EVERY_LINES == 0) {
          progress.accept(lines.bytesConsumed());
        }
      }
      progress.accept(lines.bytesConsumed());
    }
    return r.h;
  }

  /** Whether the history is list-append: the first micro-op that writes is an {@code :append}. */
  private static boolean hasAppends(Path file) throws HistoryFormatException, IOException {
    try (InputStream in = Files.newInputStream(file)) {
      LineReader lines = new LineReader(in, file);
      String text;
      while ((text = lines.next()) != null) {
        if (text.contains("[:append")) {
          return true;
        }
        if (text.contains("[:w ")) {
          return false;
        }
      }
      return false;
    }
  }

  private void operation(Object parsed) throws HistoryFormatException {
    if (!(parsed instanceof Map)) {
      throw error("not a map", EXPECTED_OP);
    }
    Map<?, ?> op = (Map<?, ?>) parsed;
    TxnStatus status = status(op.get(TYPE));
    Object process = op.get(PROCESS);
    if (status == null || process instanceof Keyword) {
      return;
    }
    long label = label(op);
    String session;
    if (process == null) {
      session = "T" + label;
    } else if (process instanceof Long || process instanceof String) {
      session = process.toString();
    } else {
      throw error(":process " + EdnParser.show(process) + " is neither an integer nor a name",
          "an integer");
    }
    if (!(op.get(VALUE) instanceof List)) {
      throw error(":value is not a vector of micro-ops", EXPECTED_OP);
    }
    List<?> mops = (List<?>) op.get(VALUE);
    long first = labelLines.putIfAbsent(label, line);
    if (first >= 0) {
      throw error("transaction label " + label + " repeats the label of line " + first,
          "a distinct :index per operation");
    }
    h.beginTxn(h.session(session), label);
    for (Object mop : mops) {
      try {
        microOp(mop, status);
      } catch (IllegalArgumentException e) {
        throw error(e.getMessage(), null);
      }
    }
    h.end(status);
  }

  /**
   * Adds the transaction {@link #canonical} has just parsed from {@code b}, as {@link #operation}
   * would add the same line parsed as text, with its names interned from their bytes.
   */
  private void canonicalOperation(byte[] b) throws HistoryFormatException {
    EdnCanonical c = canonical;
    long first = labelLines.putIfAbsent(c.index, line);
    if (first >= 0) {
      throw error("transaction label " + c.index + " repeats the label of line " + first,
          "a distinct :index per operation");
    }
    h.beginTxn(sessionNames.id(b, c.processFrom, c.processTo), c.index);
    for (int i = 0; i < c.opCount; i++) {
      int key = c.keyIsName[i] ? keyNames.id(b, c.keyFrom[i], c.keyTo[i]) : integerKey(c.keyNumber[i]);
      long v = c.value[i];
      try {
        if (c.opKind[i] == EdnCanonical.WRITE) {
          h.write(key, v);
        } else if (c.opKind[i] == EdnCanonical.APPEND) {
          h.append(key, v);
        } else if (c.valueShape[i] == EdnCanonical.NIL) {
          readNil(key, c.status);
        } else if (c.valueShape[i] == EdnCanonical.LIST) {
          h.readList(key, c.elems, (int) v, (int) v + c.listLength[i]);
        } else {
          h.read(key, v);
        }
      } catch (IllegalArgumentException e) {
        throw error(e.getMessage(), null);
      }
    }
    h.end(c.status);
  }

  /** @return {@code :index} if present, otherwise the line number */
  private long label(Map<?, ?> op) throws HistoryFormatException {
    if (!op.containsKey(INDEX)) {
      return line;
    }
    Object index = op.get(INDEX);
    if (!(index instanceof Long) || (Long) index < 0) {
      throw error(":index " + EdnParser.show(index) + " is not a non-negative 64-bit integer",
          "an index 0, 1, 2, ...");
    }
    return (Long) index;
  }

  /** @return the status, or {@code null} for {@code :invoke} */
  private TxnStatus status(Object type) throws HistoryFormatException {
    String name = type instanceof Keyword ? ((Keyword) type).name() : "";
    switch (name) {
      case "invoke":
        return null;
      case "ok":
        return TxnStatus.COMMITTED;
      case "fail":
        return TxnStatus.ABORTED;
      case "info":
        return TxnStatus.UNKNOWN;
      default:
        throw error(type == null ? "no :type" : ":type " + EdnParser.show(type),
            ":invoke, :ok, :fail or :info");
    }
  }

  private void microOp(Object mop, TxnStatus status) throws HistoryFormatException {
    if (!(mop instanceof List) || ((List<?>) mop).size() != 3
        || !(((List<?>) mop).get(0) instanceof Keyword)) {
      throw error("malformed micro-op " + EdnParser.show(mop), EXPECTED_MOP);
    }
    List<?> m = (List<?>) mop;
    String f = ((Keyword) m.get(0)).name();
    int key = keyId(m.get(1));
    Object v = m.get(2);
    switch (f) {
      case "append":
        h.append(key, integer(v, "appended element"));
        break;
      case "w":
        h.write(key, integer(v, "written value"));
        break;
      case "r":
        read(key, v, status);
        break;
      default:
        throw error("unknown micro-op :" + HistoryFormatException.excerpt(f), EXPECTED_MOP);
    }
  }

  private void read(int key, Object v, TxnStatus status) throws HistoryFormatException {
    if (v == null) {
      readNil(key, status);
    } else if (v instanceof List) {
      elems.clear();
      for (Object e : (List<?>) v) {
        elems.add(integer(e, "list element"));
      }
      h.readList(key, elems.elements(), 0, elems.size());
    } else {
      h.read(key, integer(v, "read value"));
    }
  }

  /** A {@code nil} read: the initial state in a committed transaction, else not seen. */
  private void readNil(int key, TxnStatus status) {
    boolean seen = status == TxnStatus.COMMITTED;
    if (listAppend && seen) {
      h.readList(key, elems.elements(), 0, 0);
    } else if (listAppend) {
      h.readListUnknown(key);
    } else {
      h.read(key, seen ? History.NIL : History.UNKNOWN_VALUE);
    }
  }

  private int integerKey(long n) {
    int id = integerKeys.get(n);
    if (id < 0) {
      id = h.key(n);
      integerKeys.put(n, id);
    }
    return id;
  }

  private int keyId(Object k) throws HistoryFormatException {
    if (k instanceof Long) {
      return integerKey((Long) k);
    }
    if (k instanceof String) {
      return h.key((String) k);
    }
    if (k instanceof Keyword) {
      return h.key(((Keyword) k).name());
    }
    throw error("key " + EdnParser.show(k) + " is not an integer, keyword or string",
        EXPECTED_MOP);
  }

  private long integer(Object v, String what) throws HistoryFormatException {
    if (v instanceof Long) {
      return (Long) v;
    }
    throw error(what + " " + EdnParser.show(v) + " is not a 64-bit integer", "an integer");
  }

  private HistoryFormatException error(String problem, String expected) {
    return HistoryFormatException.atLine(file, line, problem, expected);
  }
}
