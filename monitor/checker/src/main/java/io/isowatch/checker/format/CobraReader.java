package io.isowatch.checker.format;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Reads Cobra's client logs (Tan et al., OSDI 2020): a directory of {@code *.log} files, one per
 * client session, each a sequence of big-endian records, an ASCII tag byte then 8-byte fields:
 * {@code S txn} (start), {@code W writeId key value}, {@code R writerTxn writeId key value}, {@code
 * C txn} (commit). Keys and values are hashes; Cobra makes every {@code writeId} unique.
 *
 * <p>Conventions (source: Cobra's log format as PolySI's {@code CobraHistoryLoader} and AWDIT's
 * {@code parse_cobra_history} read it):
 *
 * <ul>
 *   <li>The {@code writeId} is the value: a write writes its {@code writeId}, a read reads the
 *       {@code writeId} it names. The hashed {@code value} fields and the read's {@code writerTxn}
 *       are not used.
 *   <li>A read whose {@code writeId} is {@code 0xbebeebee} (initial value) or {@code 0xdeadbeef}
 *       (null) reads {@link History#NIL}. Other magic ids (Cobra's garbage-collection reads) are
 *       refused.
 *   <li>Sessions are named after their file without {@code .log} and read in file-name order;
 *       transactions are labelled with their {@code txn} id, which must be unique over all logs,
 *       and keys named by their hash as an unsigned decimal.
 *   <li>A transaction started but not committed when its file ends has an unknown outcome.
 * </ul>
 */
final class CobraReader {
  static final long INIT_WRITE_ID = 0xbebeebeeL;
  static final long NULL_WRITE_ID = 0xdeadbeefL;
  private static final long GC_WRITE_ID_TRUE = 0x23332333L;
  private static final long GC_WRITE_ID_FALSE = 0x66666666L;
  private static final String EXPECTED_TAG = "a record tag S, W, R or C";

  private final History h = new History();
  private final Long2IntOpenHashMap keyIds = new Long2IntOpenHashMap();
  /** Each txn id started so far to the index in {@link #logs} of the log that started it. */
  private final Long2IntOpenHashMap startLog = new Long2IntOpenHashMap();
  /** Each txn id started so far to the byte offset of its start record. */
  private final Long2LongOpenHashMap startOffset = new Long2LongOpenHashMap();
  private final List<Path> logs;
  private long done;

  private CobraReader(List<Path> logs) {
    this.logs = logs;
    keyIds.defaultReturnValue(-1);
    startLog.defaultReturnValue(-1);
  }

  /**
   * @param dir the directory of {@code *.log} files
   * @param progress receives the bytes consumed so far over all files, after each file
   * @return the history
   * @throws HistoryFormatException naming the log file and byte offset of the first malformed
   *     record
   */
  static History read(Path dir, LongConsumer progress) throws HistoryFormatException, IOException {
    List<Path> logs = logs(dir);
    if (logs.isEmpty()) {
      throw HistoryFormatException.whole(dir, "no *.log files", "a Cobra log directory");
    }
    CobraReader r = new CobraReader(logs);
    for (int i = 0; i < logs.size(); i++) {
      r.readLog(i);
      progress.accept(r.done);
    }
    return r.h;
  }

  /** @return the regular {@code *.log} files of {@code dir}, sorted by name */
  static List<Path> logs(Path dir) throws IOException {
    List<Path> logs = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.log")) {
      for (Path p : ds) {
        if (Files.isRegularFile(p)) {
          logs.add(p);
        }
      }
    }
    logs.sort(null);
    return logs;
  }

  private void readLog(int logIndex) throws HistoryFormatException, IOException {
    Path log = logs.get(logIndex);
    String name = log.getFileName().toString();
    int session = h.session(name.substring(0, name.length() - ".log".length()));
    boolean open = false;
    long txn = 0;
    try (ByteInput in = new ByteInput(Files.newInputStream(log), log, false)) {
      while (!in.atEnd()) {
        long at = in.offset();
        int tag = in.u8("record tag");
        switch (tag) {
          case 'S':
            long id = in.u64("start record's txn");
            if (open) {
              throw HistoryFormatException.atByte(log, at, "transaction " + id
                  + " starts before transaction " + txn + " committed", "C " + txn);
            }
            int firstLog = startLog.putIfAbsent(id, logIndex);
            if (firstLog >= 0) {
              throw HistoryFormatException.atByte(log, at, "transaction " + id
                  + " already started in " + logs.get(firstLog).getFileName() + " at byte "
                  + startOffset.get(id), "a distinct txn id per transaction");
            }
            startOffset.put(id, at);
            h.beginTxn(session, id);
            txn = id;
            open = true;
            break;
          case 'C':
            long committed = in.u64("commit record's txn");
            if (!open || committed != txn) {
              throw HistoryFormatException.atByte(log, at, "commit of transaction " + committed
                  + (open ? " inside transaction " + txn : " outside any transaction"),
                  open ? "C " + txn : "S before C");
            }
            h.end(TxnStatus.COMMITTED);
            open = false;
            break;
          case 'W':
          case 'R':
            operation(in, log, at, tag == 'W', open);
            break;
          default:
            throw HistoryFormatException.atByte(log, at, "unknown record tag " + describe(tag),
                EXPECTED_TAG);
        }
      }
      done += in.offset();
    }
    if (open) {
      h.end(TxnStatus.UNKNOWN);
    }
  }

  private void operation(ByteInput in, Path log, long at, boolean write, boolean open)
      throws HistoryFormatException, IOException {
    if (write) {
      long writeId = in.u64("write record's writeId");
      long key = in.u64("write record's key");
      in.u64("write record's value");
      add(log, at, open, true, key, writeId);
    } else {
      in.u64("read record's writer txn");
      long writeId = in.u64("read record's writeId");
      long key = in.u64("read record's key");
      in.u64("read record's value");
      add(log, at, open, false, key, writeId);
    }
  }

  private void add(Path log, long at, boolean open, boolean write, long key, long writeId)
      throws HistoryFormatException {
    String op = write ? "write" : "read";
    if (!open) {
      throw HistoryFormatException.atByte(log, at, op + " outside any transaction", "S before it");
    }
    boolean initial = writeId == INIT_WRITE_ID || writeId == NULL_WRITE_ID;
    if ((write && initial) || writeId == GC_WRITE_ID_TRUE || writeId == GC_WRITE_ID_FALSE
        || writeId == History.NIL || writeId == History.UNKNOWN_VALUE) {
      throw HistoryFormatException.atByte(log, at, op + " with reserved writeId 0x"
          + Long.toHexString(writeId), write ? "an ordinary writeId" : "the writeId of a write");
    }
    int k = keyIds.get(key);
    if (k < 0) {
      k = h.key(Long.toUnsignedString(key));
      keyIds.put(key, k);
    }
    try {
      if (write) {
        h.write(k, writeId);
      } else {
        h.read(k, initial ? History.NIL : writeId);
      }
    } catch (IllegalArgumentException e) {
      throw HistoryFormatException.atByte(log, at, e.getMessage(), null);
    }
  }

  private static String describe(int tag) {
    String hex = String.format("0x%02x", tag);
    return tag >= 0x20 && tag < 0x7f ? "'" + (char) tag + "' (" + hex + ")" : hex;
  }
}
