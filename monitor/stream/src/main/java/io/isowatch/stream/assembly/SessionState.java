package io.isowatch.stream.assembly;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the assembler keeps per session (value of {@link AssemblerStores#SESSIONS}): the next txnSeq
 * to emit, the transactions of the session not yet emitted, by txnSeq (open ones and complete ones
 * waiting for an earlier txnSeq), and the sequence-gap timer. Mutable; stored as bytes by
 * {@link #toBytes()}; size proportional to the pending transactions, which
 * {@code Limits.maxOpenTransactionsPerSession} bounds.
 */
final class SessionState {
  /** The txnSeq the session emits next; starts at 0. */
  long nextSeq;
  /** Stream time (ms) at which the gap before {@link #gapSeq} was first seen blocking; -1 if none. */
  long gapSince = -1;
  /** The missing txnSeq the gap timer waits for; meaningful when {@code gapSince >= 0}. */
  long gapSeq = -1;
  /** Transactions not yet emitted: txnSeq to (txnId, complete). */
  final TreeMap<Long, Pending> pending = new TreeMap<>();

  /**
   * A transaction of the session not yet emitted.
   *
   * @param txnId its id
   * @param complete whether it is assembled and only waits for its predecessors
   */
  record Pending(String txnId, boolean complete) {}

  /** @return whether a complete transaction waits behind a txnSeq no transaction has claimed */
  boolean blockedByGap() {
    if (pending.isEmpty() || pending.firstKey() == nextSeq) {
      return false;
    }
    for (Pending p : pending.values()) {
      if (p.complete()) {
        return true;
      }
    }
    return false;
  }

  byte[] toBytes() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 + 24 * pending.size());
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeLong(nextSeq);
      out.writeLong(gapSince);
      out.writeLong(gapSeq);
      out.writeInt(pending.size());
      for (Map.Entry<Long, Pending> e : pending.entrySet()) {
        out.writeLong(e.getKey());
        out.writeUTF(e.getValue().txnId());
        out.writeBoolean(e.getValue().complete());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** @return the state {@link #toBytes()} wrote, or a fresh session's for null */
  static SessionState fromBytes(byte[] bytes) {
    SessionState s = new SessionState();
    if (bytes == null) {
      return s;
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      s.nextSeq = in.readLong();
      s.gapSince = in.readLong();
      s.gapSeq = in.readLong();
      int n = in.readInt();
      for (int i = 0; i < n; i++) {
        long seq = in.readLong();
        s.pending.put(seq, new Pending(in.readUTF(), in.readBoolean()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("corrupt session state", e);
    }
    return s;
  }
}
