package io.isowatch.checker.format;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * Reads dbcop histories (Biswas &amp; Enea, OOPSLA 2019): a directory holding {@code
 * history.bincode}, the Rust {@code History} struct of dbcop's {@code src/db/history.rs} serialized
 * by bincode 1 with its default options (little-endian, fixed-width integers, {@code usize} as 8
 * bytes, lengths as u64 before strings and sequences).
 *
 * <p>Layout: {@code params} (five u64: id, nodes, variables, transactions per node, events per
 * transaction), {@code info}, {@code start}, {@code end} (strings; the times in RFC 3339), then
 * {@code data}: u64 session count; per session a u64 transaction count; per transaction a u64 event
 * count, the events (bool write, u64 variable, u64 value, bool success: 18 bytes) and a bool
 * success.
 *
 * <p>Conventions (source: dbcop's verifier, PolySI's and AWDIT's dbcop loaders):
 *
 * <ul>
 *   <li>Value 0 is every variable's initial value: a read of 0 reads {@link History#NIL}; a write
 *       of 0 is malformed.
 *   <li>A transaction whose success flag is false is {@link TxnStatus#ABORTED} (dbcop keeps its
 *       writes in its write map so that reading them is a dirty read); others are committed.
 *   <li>An event whose success flag is false did not execute and is left out.
 *   <li>Sessions are named {@code 1..n} and transactions labelled {@code 1, 2, ...} in file order,
 *       as PolySI numbers them.
 * </ul>
 */
final class DbcopReader {
  static final String FILE_NAME = "history.bincode";
  private static final int EVENT_BYTES = 18;
  private static final int PROGRESS_EVERY_TXNS = 4096;

  private final Path file;
  private final long size;
  private final ByteInput in;
  private final History h = new History();
  private final Long2IntOpenHashMap keyIds = new Long2IntOpenHashMap();

  private DbcopReader(Path file, long size, ByteInput in) {
    this.file = file;
    this.size = size;
    this.in = in;
    keyIds.defaultReturnValue(-1);
  }

  /**
   * @param path a dbcop history directory, or its {@code history.bincode} file
   * @param progress receives the bytes consumed so far, every few thousand transactions
   * @return the history
   * @throws HistoryFormatException naming the byte offset of the first malformed field
   */
  static History read(Path path, LongConsumer progress) throws HistoryFormatException, IOException {
    Path file = Files.isDirectory(path) ? path.resolve(FILE_NAME) : path;
    if (!Files.isRegularFile(file)) {
      throw HistoryFormatException.whole(
          path, "no " + FILE_NAME + " in the directory", "a dbcop history directory");
    }
    try (ByteInput in = new ByteInput(Files.newInputStream(file), file, true)) {
      return new DbcopReader(file, Files.size(file), in).readAll(progress);
    }
  }

  private History readAll(LongConsumer progress) throws HistoryFormatException, IOException {
    for (String param : new String[] {"id", "node count", "variable count", "transaction count",
        "event count"}) {
      in.u64("header's " + param);
    }
    for (String field : new String[] {"info", "start time", "end time"}) {
      int n = (int) length(field + " length", 1);
      in.utf8(n, field);
    }
    long sessions = length("session count", 8);
    long label = 0;
    for (long s = 1; s <= sessions; s++) {
      int session = h.session(Long.toString(s));
      long txns = length("transaction count", 9);
      for (long t = 0; t < txns; t++) {
        transaction(session, ++label);
        if (label % PROGRESS_EVERY_TXNS == 0) {
          progress.accept(in.offset());
        }
      }
    }
    if (!in.atEnd()) {
      throw HistoryFormatException.atByte(file, in.offset(),
          "bytes after the last session", "the end of the file");
    }
    progress.accept(in.offset());
    return h;
  }

  private void transaction(int session, long label) throws HistoryFormatException, IOException {
    long events = length("event count", EVENT_BYTES);
    h.beginTxn(session, label);
    for (long e = 0; e < events; e++) {
      long at = in.offset();
      boolean write = in.bool("event's write flag");
      long variable = in.u64("event's variable");
      long value = in.u64("event's value");
      boolean success = in.bool("event's success flag");
      if (success) {
        event(at, write, variable, value);
      }
    }
    h.end(in.bool("transaction's success flag") ? TxnStatus.COMMITTED : TxnStatus.ABORTED);
  }

  private void event(long at, boolean write, long variable, long value)
      throws HistoryFormatException {
    int key = keyIds.get(variable);
    if (key < 0) {
      key = h.key(Long.toUnsignedString(variable));
      keyIds.put(variable, key);
    }
    if (write && value == 0) {
      throw HistoryFormatException.atByte(file, at,
          "write of value 0, which dbcop reserves for every variable's initial value",
          "a value >= 1");
    }
    if (value < 0) {
      throw HistoryFormatException.atByte(file, at, "value " + Long.toUnsignedString(value)
          + " is out of the signed 64-bit range", "a value below 2^63");
    }
    try {
      if (write) {
        h.write(key, value);
      } else {
        h.read(key, value == 0 ? History.NIL : value);
      }
    } catch (IllegalArgumentException e) {
      throw HistoryFormatException.atByte(file, at, e.getMessage(), null);
    }
  }

  /** Reads a u64 length and checks that that many items of at least {@code minBytes} fit. */
  private long length(String what, int minBytes) throws HistoryFormatException, IOException {
    long at = in.offset();
    long n = in.u64(what);
    long room = (size - in.offset()) / minBytes;
    if (n < 0 || n > room) {
      throw HistoryFormatException.atByte(file, at,
          what + " " + Long.toUnsignedString(n) + " exceeds what the rest of the file can hold",
          "at most " + room);
    }
    return n;
  }
}
