package io.isowatch.checker.format;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.NumberIds;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * Reads Plume / PolySI text histories: one operation per line, {@code r(K,V,S,T)} or {@code
 * w(K,V,S,T)} with key, value, session and transaction as integers.
 *
 * <p>Conventions (source: Plume's and PolySI's {@code TextHistoryLoader}, AWDIT's {@code
 * parse_plume_history}; details in {@code docs/history-format.md}):
 *
 * <ul>
 *   <li>A transaction's lines are in program order; a session's transactions are ordered by first
 *       appearance. Sessions may interleave line by line, so each session's open transaction is
 *       buffered and appended whole when the session starts its next one (or at the end of file).
 *       A session is sequential: a transaction that reappears after its session started another
 *       one, or in a second session, is malformed.
 *   <li>Value 0 is every key's initial value: {@code r(K,0,..)} reads {@link History#NIL}. The
 *       generators of PolySI and IsoVista write that initial state explicitly, as transaction 0
 *       of session 0 writing 0 to keys: when that transaction's first line is a write of 0, it is
 *       the initial state (Biswas &amp; Enea's initial transaction, which isowatch keeps implicit)
 *       and its lines are dropped; it may hold nothing but writes of 0. Any other write of 0 is
 *       rejected (it would be indistinguishable from the initial value).
 *   <li>{@code T = -1} marks an operation of an aborted transaction. Plume keeps only the aborted
 *       writes, without grouping; here the consecutive {@code T = -1} lines of one session form one
 *       {@link TxnStatus#ABORTED} transaction (reads included), labelled with minus the line number
 *       of its first operation so that labels stay unique.
 *   <li>Other transactions are committed and labelled with their {@code T}.
 * </ul>
 */
final class PlumeReader {
  static final String EXPECTED = "r(K,V,S,T) or w(K,V,S,T) with integers K, V, S >= 0 and T >= -1";

  private static final String[] FIELDS = {"key", "value", "session", "transaction"};
  private static final long NONE = Long.MIN_VALUE;
  private static final long ABORTED_GROUP = -1;
  /** What transaction 0 of session 0 is: not seen yet, the explicit initial state, or ordinary. */
  private enum Initial { UNSEEN, INITIAL_STATE, ORDINARY }

  private final Path file;
  private final History h = new History();
  private final Long2IntOpenHashMap sessionIds = new Long2IntOpenHashMap();
  /**
   * Transaction number -> session id, for every transaction seen; an array below an eighth of the
   * file's bytes (a hash probe per transaction missed the caches: a fifth of the load time at 10^6
   * transactions).
   */
  private final NumberIds txnSession = new NumberIds();
  /** Per session id: the open transaction's T ({@link #ABORTED_GROUP} for aborted ops), or NONE. */
  private final LongArrayList openTxn = new LongArrayList();
  private final ObjectArrayList<TxnBuffer> buffers = new ObjectArrayList<>();
  private long line;
  /** The fields of the canonical line last tokenized: key, value, session, transaction. */
  private final long[] fields = new long[4];
  private Initial initial = Initial.UNSEEN;

  private PlumeReader(Path file, long bytes) {
    this.file = file;
    txnSession.denseBelow(bytes / 8 + 1024);
    sessionIds.defaultReturnValue(-1);
  }

  /**
   * @param file the file
   * @param progress receives the bytes consumed so far, every few thousand lines
   * @return the history
   * @throws HistoryFormatException naming the line of the first malformed operation
   */
  static History read(Path file, LongConsumer progress)
      throws HistoryFormatException, IOException {
    return read(file, progress, PlumeTokens.FROM_BYTES, PlumeTokens.BLOCK_LINES);
  }

  /**
   * {@link #read(Path, LongConsumer)}, its lines tokenized on a second thread ({@link PlumeTokens})
   * in blocks of {@code blockLines} when the file has at least {@code tokensFromBytes} bytes; both
   * ways give the same history, or throw the same exception at the same line ({@code
   * PlumeTokensTest}).
   */
  static History read(Path file, LongConsumer progress, long tokensFromBytes, int blockLines)
      throws HistoryFormatException, IOException {
    long bytes = Files.isRegularFile(file) ? Files.size(file) : 0;
    try (InputStream in = Files.newInputStream(file)) {
      PlumeReader reader = new PlumeReader(file, bytes);
      LineSample.reserve(reader.h, file);
      LineReader lines = new LineReader(in, file);
      if (bytes < tokensFromBytes) {
        return reader.readAll(lines, progress);
      }
      try (PlumeTokens tokens = PlumeTokens.start(lines, blockLines)) {
        return reader.readAll(tokens, progress);
      }
    }
  }

  /** Adds the lines {@link PlumeTokens} tokenized, block by block, exactly as {@link #readAll(LineReader, LongConsumer)}. */
  private History readAll(PlumeTokens tokens, LongConsumer progress)
      throws HistoryFormatException, IOException {
    for (PlumeTokens.Block block = tokens.take(); ; block = tokens.take()) {
      for (int j = 0, text = 0; j < block.size; j++) {
        line = block.firstLine + j;
        byte kind = block.kind[j];
        if (kind != PlumeTokens.TEXT) {
          add(kind == 'w', block.key[j], block.value[j], block.session[j], block.txn[j]);
        } else {
          parseText(block.texts.get(text++));
        }
      }
      progress.accept(block.bytesConsumed);
      if (block.last) {
        block.rethrow();
        return flushAll();
      }
      tokens.recycle(block);
    }
  }

  private History readAll(LineReader lines, LongConsumer progress)
      throws HistoryFormatException, IOException {
    while (lines.advance()) {
      line = lines.lineNumber();
      if (!parseCanonical(lines.bytes(), lines.start(), lines.end())) {
        parseText(lines.text());
      }
      if (line % LineReader.PROGRESS_EVERY_LINES == 0) {
        progress.accept(lines.bytesConsumed());
      }
    }
    History done = flushAll();
    progress.accept(lines.bytesConsumed());
    return done;
  }

  /** A line not of the canonical form: parsed as text, blank lines skipped. */
  private void parseText(String text) throws HistoryFormatException {
    String op = text.strip();
    if (!op.isEmpty()) {
      parse(op);
    }
  }

  /** Appends every session's open transaction at the end of the file. */
  private History flushAll() throws HistoryFormatException {
    for (int s = 0; s < buffers.size(); s++) {
      flush(s);
    }
    return h;
  }

  /**
   * The hot path: parses a line in the canonical form {@code r(K,V,S,T)} or {@code w(K,V,S,T)},
   * fields of 1 to 18 decimal digits ({@code T} also {@code -1}), no blanks, straight from its bytes.
   * Every line of that form means the same to {@link #parse(String)}; any other line (blanks,
   * signs, longer numbers, malformed) is left to it, so that its errors are the only ones.
   *
   * @return whether the line was of that form (and is added), {@code false} to parse it as text
   */
  private boolean parseCanonical(byte[] b, int from, int to) throws HistoryFormatException {
    if (!tokenize(b, from, to, fields)) {
      return false;
    }
    add(b[from] == 'w', fields[0], fields[1], fields[2], fields[3]);
    return true;
  }

  /**
   * Reads the fields of a line of the canonical form (see {@link #parseCanonical}); no state, so
   * that {@link PlumeTokens} runs it on its own thread.
   *
   * @param b the line's bytes are {@code b[from..to)}
   * @param f receives key, value, session and transaction ({@link #ABORTED_GROUP} for {@code -1})
   * @return whether the line was of that form ({@code b[from]} is then {@code r} or {@code w})
   */
  static boolean tokenize(byte[] b, int from, int to, long[] f) {
    if (to - from < 10 || (b[from] != 'r' && b[from] != 'w') || b[from + 1] != '('
        || b[to - 1] != ')') {
      return false;
    }
    int end = to - 1;
    int i = digits(b, from + 2, end, true, f, 0);
    i = i < 0 ? -1 : digits(b, i + 1, end, true, f, 1);
    i = i < 0 ? -1 : digits(b, i + 1, end, true, f, 2);
    if (i < 0) {
      return false;
    }
    if (end - i == 3 && b[i + 1] == '-' && b[i + 2] == '1') {
      f[3] = ABORTED_GROUP;
      return true;
    }
    return digits(b, i + 1, end, false, f, 3) == end;
  }

  /**
   * Reads 1 to 18 decimal digits from {@code b[i]} into {@code f[field]}: up to a comma before
   * {@code end} if {@code comma}, else up to {@code end}.
   *
   * @return the index of that comma (or {@code end}), or -1 if the bytes are not of that form
   */
  private static int digits(byte[] b, int i, int end, boolean comma, long[] f, int field) {
    int stop = LineReader.digitsEnd(b, i, end);
    boolean delimited = comma ? stop < end && b[stop] == ',' : stop == end;
    if (stop == i || stop - i > LineReader.MAX_DIGITS || !delimited) {
      return -1;
    }
    f[field] = LineReader.digitsValue(b, i, stop);
    return stop;
  }

  private void parse(String op) throws HistoryFormatException {
    char kind = op.charAt(0);
    if ((kind != 'r' && kind != 'w') || op.length() < 2 || op.charAt(1) != '('
        || op.charAt(op.length() - 1) != ')') {
      throw error("malformed operation '" + HistoryFormatException.excerpt(op) + "'");
    }
    long[] f = new long[4];
    int from = 2;
    for (int i = 0; i < 4; i++) {
      int to = i < 3 ? op.indexOf(',', from) : op.length() - 1;
      if (to < 0 || (i == 3 && op.indexOf(',', from) >= 0)) {
        throw error("malformed operation '" + HistoryFormatException.excerpt(op) + "': not four fields");
      }
      f[i] = number(op, from, to, i);
      from = to + 1;
    }
    add(kind == 'w', f[0], f[1], f[2], f[3]);
  }

  private long number(String op, int from, int to, int field) throws HistoryFormatException {
    boolean negative = to - from > 1 && op.charAt(from) == '-';
    int start = negative ? from + 1 : from;
    long v = 0;
    for (int i = start; i < to; i++) {
      int d = op.charAt(i) - '0';
      if (d < 0 || d > 9 || (i - start >= 18 && v > (Long.MAX_VALUE - d) / 10)) {
        throw error(FIELDS[field] + " '" + HistoryFormatException.excerpt(op.substring(from, to)) + "' is not a 64-bit integer");
      }
      v = 10 * v + d;
    }
    if (from == to) {
      throw error(FIELDS[field] + " is empty");
    }
    if (negative && (field != 3 || v != 1)) {
      throw error(FIELDS[field] + " -" + v + " is negative");
    }
    return negative ? -v : v;
  }

  private void add(boolean write, long key, long value, long session, long txn)
      throws HistoryFormatException {
    if (session == 0 && txn == 0 && initialState(write && value == 0)) {
      return;
    }
    if (write && value == 0) {
      throw HistoryFormatException.atLine(file, line,
          "write of value 0, which Plume reserves for every key's initial value", "a value >= 1");
    }
    int s = sessionId(session);
    long open = openTxn.getLong(s);
    if (txn == ABORTED_GROUP) {
      if (open != ABORTED_GROUP) {
        flush(s);
        openTxn.set(s, ABORTED_GROUP);
      }
    } else if (open != txn) {
      int seenIn = txnSession.putIfAbsent(txn, s);
      if (seenIn >= 0) {
        String where = seenIn == s
            ? "continues after its session started another transaction"
            : "appears in session " + h.sessionName(s) + " but began in session "
                + h.sessionName(seenIn);
        throw HistoryFormatException.atLine(file, line, "transaction " + txn + " " + where,
            "the lines of a transaction within one session, before its session's next transaction");
      }
      flush(s);
      openTxn.set(s, txn);
    }
    int k = h.key(key);
    TxnBuffer buffer = buffers.get(s);
    if (write) {
      buffer.write(k, value, line);
    } else {
      buffer.read(k, value == 0 ? History.NIL : value, line);
    }
  }

  /**
   * @param zeroWrite whether the line of transaction 0 of session 0 writes 0
   * @return whether the line belongs to the explicit initial state (and is dropped)
   * @throws HistoryFormatException if that transaction began with writes of 0 and holds another line
   */
  private boolean initialState(boolean zeroWrite) throws HistoryFormatException {
    if (initial == Initial.UNSEEN) {
      initial = zeroWrite ? Initial.INITIAL_STATE : Initial.ORDINARY;
    }
    if (initial == Initial.ORDINARY) {
      return false;
    }
    if (!zeroWrite) {
      throw HistoryFormatException.atLine(file, line,
          "transaction 0 of session 0 began with writes of 0, so it is the initial state, which holds"
              + " only writes of 0", "w(K,0,0,0)");
    }
    return true;
  }

  private void flush(int s) throws HistoryFormatException {
    long open = openTxn.getLong(s);
    TxnBuffer buffer = buffers.get(s);
    if (open == NONE || buffer.size() == 0) {
      return;
    }
    if (open == ABORTED_GROUP) {
      buffer.appendTo(h, s, -buffer.firstLine(), TxnStatus.ABORTED, file);
    } else {
      buffer.appendTo(h, s, open, TxnStatus.COMMITTED, file);
    }
    openTxn.set(s, NONE);
  }

  private int sessionId(long session) {
    int id = sessionIds.get(session);
    if (id < 0) {
      id = h.session(Long.toString(session));
      sessionIds.put(session, id);
      openTxn.add(NONE);
      buffers.add(new TxnBuffer());
    }
    return id;
  }

  private HistoryFormatException error(String problem) {
    return HistoryFormatException.atLine(file, line, problem, EXPECTED);
  }
}
