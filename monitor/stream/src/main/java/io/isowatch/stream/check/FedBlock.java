package io.isowatch.stream.check;

import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.window.WindowChecker;
import io.isowatch.checker.window.WindowTxn;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * The value of one window-store entry: the fed transactions at feed positions {@code b·}{@value
 * #TXNS} to {@code (b+1)·}{@value #TXNS}{@code - 1} of block {@code b}, in feed order, as far as
 * they have been fed. One entry per block instead of one per transaction: the block is rewritten
 * (a copy of the bytes so far) after each transaction, and the store's record cache lets only its
 * last version of a commit interval reach RocksDB and the changelog.
 *
 * <p>Layout: a format byte ({@value #FORMAT}), then per transaction, in Avro's binary encoding of
 * primitives (zig-zag varints, length-prefixed UTF-8; Avro 1.12 specification, "Binary Encoding"):
 * {@code long seq, int u, u × int unresolved op index, string txnId, string session, long
 * eventTime (µs), int status (0 committed, 1 aborted, 2 unknown), int n}, and per operation {@code
 * int kind} ({@link OpKind}), {@code string key}, then for a list read {@code int length, length ×
 * long element}, else {@code long value}. Not thread-safe.
 */
final class FedBlock {
  /** Fed transactions per block. */
  static final int TXNS = 32;
  /** The layout's version, the first byte of every block. */
  static final byte FORMAT = 1;

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(8 * 1024);
  private final BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(bytes, null);
  private long index = -1;

  /** @return the block that holds feed position {@code seq} */
  static long of(long seq) {
    return seq / TXNS;
  }

  /** @return the index of the block being written, -1 before the first */
  long index() {
    return index;
  }

  /**
   * Starts writing block {@code index}, continuing from {@code stored} (its value in the store) if
   * there is one.
   *
   * @throws IllegalStateException if {@code stored} is not of this layout
   */
  void open(long index, byte[] stored) {
    this.index = index;
    bytes.reset();
    if (stored == null) {
      bytes.write(FORMAT);
    } else {
      checkFormat(stored);
      bytes.write(stored, 0, stored.length);
    }
  }

  /** Appends one fed transaction to the open block. */
  void append(long seq, WindowTxn txn, int[] unresolved) {
    try {
      out.writeLong(seq);
      out.writeInt(unresolved.length);
      for (int op : unresolved) {
        out.writeInt(op);
      }
      out.writeString(txn.id());
      out.writeString(txn.session());
      out.writeLong(txn.eventTime());
      out.writeInt(status(txn.status()));
      out.writeInt(txn.opCount());
      for (int i = 0, n = txn.opCount(); i < n; i++) {
        byte kind = txn.kind(i);
        out.writeInt(kind);
        out.writeString(txn.key(i));
        if (kind == OpKind.READ_LIST) {
          int len = txn.listLength(i);
          out.writeInt(len);
          for (int j = 0; j < len; j++) {
            out.writeLong(txn.listElement(i, j));
          }
        } else {
          out.writeLong(txn.value(i));
        }
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot happen: writing to memory", e);
    }
  }

  /** @return a copy of the open block's bytes (the store's cache keeps the array it is given) */
  byte[] bytes() {
    return bytes.toByteArray();
  }

  /**
   * Decodes a stored block.
   *
   * @param from feed positions before this are skipped (evicted, in a block not yet wholly evicted)
   * @param into receives the block's transactions at or after {@code from}, in feed order
   * @throws IllegalStateException if the bytes are not a block of this layout
   */
  static void read(byte[] block, long from, List<WindowChecker.Fed> into) {
    checkFormat(block);
    BinaryDecoder in = DecoderFactory.get().binaryDecoder(block, 1, block.length - 1, null);
    try {
      while (!in.isEnd()) {
        long seq = in.readLong();
        int[] unresolved = new int[in.readInt()];
        for (int i = 0; i < unresolved.length; i++) {
          unresolved[i] = in.readInt();
        }
        WindowTxn.Builder b = WindowTxn.builder(in.readString(), in.readString(), in.readLong(), status(in.readInt()));
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
          int kind = in.readInt();
          String key = in.readString();
          switch (kind) {
            case OpKind.READ -> b.read(key, in.readLong());
            case OpKind.READ_LIST -> {
              long[] elements = new long[in.readInt()];
              for (int j = 0; j < elements.length; j++) {
                elements[j] = in.readLong();
              }
              b.readList(key, elements);
            }
            case OpKind.WRITE -> b.write(key, in.readLong());
            case OpKind.APPEND -> b.append(key, in.readLong());
            default -> throw new IllegalStateException("window store block holds operation kind " + kind);
          }
        }
        if (seq >= from) {
          into.add(new WindowChecker.Fed(seq, b.build(), unresolved));
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("window store block cannot be decoded: " + e.getMessage(), e);
    }
  }

  private static void checkFormat(byte[] block) {
    if (block.length == 0 || block[0] != FORMAT) {
      throw new IllegalStateException("window store block of format " + (block.length == 0 ? "none" : block[0])
          + ", this version reads format " + FORMAT);
    }
  }

  private static int status(TxnStatus s) {
    return switch (s) {
      case COMMITTED -> 0;
      case ABORTED -> 1;
      default -> 2;
    };
  }

  private static TxnStatus status(int code) {
    return switch (code) {
      case 0 -> TxnStatus.COMMITTED;
      case 1 -> TxnStatus.ABORTED;
      case 2 -> TxnStatus.UNKNOWN;
      default -> throw new IllegalStateException("window store block holds status code " + code);
    };
  }
}
