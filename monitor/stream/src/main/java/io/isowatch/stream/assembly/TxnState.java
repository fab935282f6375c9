package io.isowatch.stream.assembly;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What the assembler keeps per transaction (value of {@link AssemblerStores#TRANSACTIONS}, key
 * txnId) besides its events: its session and txnSeq, where it stands, and counters that say when
 * all its operations are in. Mutable; stored as bytes by {@link #toBytes()}, a few dozen bytes.
 */
final class TxnState {
  /** Where a transaction stands. */
  enum Phase {
    /** Events arriving, no complete set yet. */
    OPEN,
    /** Assembled, waiting for its session's earlier transactions. */
    COMPLETE,
    /** Emitted; remembered for the duplicate retention to recognise copies. */
    EMITTED
  }

  /** The session's state-store key (historyId NUL sessionId). */
  String session;
  long txnSeq;
  Phase phase = Phase.OPEN;
  /** Whether it arrived as one {@code Transaction} record rather than as events. */
  boolean whole;
  /** Stream time (ms) of its first record. */
  long firstSeen;
  /** Stream time (ms) it was emitted; meaningful in {@link Phase#EMITTED}. */
  long emittedAt;
  /** Whether it was emitted with status UNKNOWN after the open timeout. */
  boolean timedOut;
  /** opIndex of its COMMIT or ABORT, -1 until seen. */
  int endIndex = -1;
  /** Whether its end is an ABORT; meaningful when {@code endIndex >= 0}. */
  boolean aborted;
  /** Highest opIndex of an operation seen, -1 if none. */
  int maxOpIndex = -1;
  /** Distinct operations (READ, WRITE, APPEND) received. */
  int opsReceived;
  /**
   * SHA-256 of its single-object {@code Transaction} encoding (the whole record as received, or as
   * assembled from events), set once it is complete, to recognise an identical copy; null before,
   * and in states stored before this field existed.
   */
  byte[] digest;

  /** @return whether every operation before the end has arrived (needs the end) */
  boolean allOperationsIn() {
    return endIndex >= 1 && opsReceived == endIndex - 1;
  }

  byte[] toBytes() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeUTF(session);
      out.writeLong(txnSeq);
      out.writeByte(phase.ordinal());
      out.writeBoolean(whole);
      out.writeLong(firstSeen);
      out.writeLong(emittedAt);
      out.writeBoolean(timedOut);
      out.writeInt(endIndex);
      out.writeBoolean(aborted);
      out.writeInt(maxOpIndex);
      out.writeInt(opsReceived);
      if (digest != null) {
        out.writeByte(digest.length);
        out.write(digest);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** @return the state {@link #toBytes()} wrote, or null for null */
  static TxnState fromBytes(byte[] bytes) {
    if (bytes == null) {
      return null;
    }
    TxnState t = new TxnState();
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      t.session = in.readUTF();
      t.txnSeq = in.readLong();
      t.phase = Phase.values()[in.readByte()];
      t.whole = in.readBoolean();
      t.firstSeen = in.readLong();
      t.emittedAt = in.readLong();
      t.timedOut = in.readBoolean();
      t.endIndex = in.readInt();
      t.aborted = in.readBoolean();
      t.maxOpIndex = in.readInt();
      t.opsReceived = in.readInt();
      if (in.available() > 0) {
        t.digest = in.readNBytes(in.readUnsignedByte());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("corrupt transaction state", e);
    }
    return t;
  }
}
