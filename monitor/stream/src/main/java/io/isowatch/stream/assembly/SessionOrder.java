package io.isowatch.stream.assembly;

import static io.isowatch.stream.assembly.AssemblerStores.FORGET;
import static io.isowatch.stream.assembly.AssemblerStores.GAP;
import static io.isowatch.stream.assembly.AssemblerStores.display;

import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.stream.assembly.SessionState.Pending;
import io.isowatch.stream.assembly.TxnState.Phase;
import io.isowatch.stream.config.MonitorConfig;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Session order ({@code so}): which transactions may join a session, and the forwarding of a
 * session's complete transactions in txnSeq order, keyed by historyId, with the sequence-gap timer
 * and the duplicate retention of what was forwarded.
 *
 * <p>Invariants: a session forwards each of its transactions at most once, in increasing txnSeq
 * from 0, and passes over a txnSeq only when a {@code sequence-gap} dead letter reported it missing.
 * A session's gap timer is set, once, due {@code gapSince + sequenceGrace}, exactly while a complete
 * transaction waits behind a txnSeq no transaction has claimed ({@link SessionState#blockedByGap()}),
 * and {@code gapSince}/{@code gapSeq} say when and for which txnSeq it was set. A forwarded
 * transaction is remembered for {@link MonitorConfig#duplicateRetention()}: a whole one forwarded on
 * arrival in {@link WholeRetention}, any other as an EMITTED state with a forget timer. A complete
 * transaction's record is in the assembled store only while it waits for an earlier txnSeq.
 */
final class SessionOrder {
  private final ProcessorContext<String, SpecificRecord> context;
  private final MonitorConfig config;
  private final KeyValueStore<String, byte[]> sessions;
  private final KeyValueStore<String, byte[]> txns;
  private final KeyValueStore<String, byte[]> assembled;
  private final Timers timers;
  private final WholeRetention wholes;
  private final DeadLetters deadLetters;
  private final MessageDigest sha256;

  /**
   * A session's state as read for a transaction asking to join it.
   *
   * @param state the session's state, fresh for a session this task has none for
   * @param refused why the transaction may not join, or null if it may
   */
  record Admission(SessionState state, Rejection refused) {}

  /**
   * @param context where transactions are forwarded; its sessions, transactions and assembled
   *     stores are read and written
   * @param config grace, retention and limits
   * @param timers the assembler's timers
   * @param wholes the whole transactions remembered after being forwarded on arrival
   * @param deadLetters where a sequence gap is reported
   */
  SessionOrder(ProcessorContext<String, SpecificRecord> context, MonitorConfig config, Timers timers,
      WholeRetention wholes, DeadLetters deadLetters) {
    this.context = context;
    this.config = config;
    this.sessions = context.getStateStore(AssemblerStores.SESSIONS);
    this.txns = context.getStateStore(AssemblerStores.TRANSACTIONS);
    this.assembled = context.getStateStore(AssemblerStores.ASSEMBLED);
    this.timers = timers;
    this.wholes = wholes;
    this.deadLetters = deadLetters;
    try {
      this.sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256 (MessageDigest documentation)", e);
    }
  }

  /**
   * Reads the session and decides whether transaction {@code txnId} may join it: its txnSeq is
   * ahead, free, and there is room; for a session this task has no state for, there is room in its
   * history too, and the session is then counted in it (the caller stores the session, by
   * {@link #join} or {@link #settle}).
   */
  Admission admit(String historyId, String session, String txnId, long txnSeq) {
    byte[] stored = sessions.get(session);
    SessionState state = SessionState.fromBytes(stored);
    return new Admission(state, refusal(state, stored == null, historyId, session, txnId, txnSeq));
  }

  private Rejection refusal(SessionState state, boolean newSession, String historyId, String session, String txnId,
      long txnSeq) {
    MonitorConfig.Limits limits = config.limits();
    if (txnSeq < state.nextSeq) {
      return new Rejection("late-event", "transaction " + txnId + " has txnSeq " + txnSeq + " but session "
          + display(session) + " has moved on to txnSeq " + state.nextSeq);
    }
    Pending other = state.pending.get(txnSeq);
    if (other != null) {
      return new Rejection("duplicate-sequence", "transaction " + txnId + " claims txnSeq " + txnSeq
          + " of session " + display(session) + ", which transaction " + other.txnId() + " holds");
    }
    if (state.pending.size() >= limits.maxOpenTransactionsPerSession()) {
      return new Rejection("too-many-open-transactions", "session " + display(session) + " has "
          + state.pending.size() + " transactions open or waiting, the limit; transaction " + txnId + " refused");
    }
    if (newSession) {
      String history = AssemblerStores.historyKey(historyId);
      byte[] count = sessions.get(history);
      int known = count == null ? 0 : ByteBuffer.wrap(count).getInt();
      if (known >= limits.maxSessionsPerHistory()) {
        return new Rejection("too-many-sessions", "history " + historyId + " has " + known
            + " sessions in this task, the limit; session " + display(session) + " of transaction " + txnId + " refused");
      }
      sessions.put(history, ByteBuffer.allocate(Integer.BYTES).putInt(known + 1).array());
    }
    return null;
  }

  /** Stores the admitted session {@code state} with the open transaction {@code txnId} pending at {@code txnSeq}. */
  void join(String session, SessionState state, long txnSeq, String txnId) {
    state.pending.put(txnSeq, new Pending(txnId, false));
    sessions.put(session, state.toBytes());
  }

  /** Marks the assembled {@code txn} complete with {@code t} and releases what its session can emit. */
  void complete(String txnId, TxnState txn, Transaction t, long nowMs) {
    byte[] encoded = RecordCodec.encode(t);
    txn.digest = digest(encoded);
    settle(txnId, txn, SessionState.fromBytes(sessions.get(txn.session)), t, encoded, nowMs);
  }

  /**
   * Marks the complete transaction {@code txn} pending in its session and releases what the session
   * can emit. Its record ({@code encoded}) is stored only if it must wait for an earlier txnSeq; one
   * released at once costs a single write of its state.
   */
  void settle(String txnId, TxnState txn, SessionState state, Transaction t, byte[] encoded, long nowMs) {
    txn.phase = Phase.COMPLETE;
    state.pending.put(txn.txnSeq, new Pending(txnId, true));
    if (txn.txnSeq != state.nextSeq) {
      assembled.put(txnId, encoded);
      txns.put(txnId, txn.toBytes());
      release(txn.session, state, null, null, nowMs);
    } else {
      release(txn.session, state, t, txn, nowMs);
    }
  }

  /** @return the SHA-256 of {@code bytes}, which tells an identical copy of a transaction's record */
  byte[] digest(byte[] bytes) {
    return sha256.digest(bytes);
  }

  /**
   * The gap timer of {@code session} fired: if a complete transaction still waits behind missing
   * txnSeqs, reports them ({@code sequence-gap}) and moves the session on to the first one waiting.
   */
  void gapExpired(String session, long nowMs) {
    SessionState state = SessionState.fromBytes(sessions.get(session));
    if (state.gapSince < 0 || !state.blockedByGap()) {
      return;
    }
    long next = state.pending.firstKey();
    String missing = next - 1 == state.nextSeq ? "txnSeq " + state.nextSeq : "txnSeq " + state.nextSeq + ".." + (next - 1);
    deadLetters.send(display(session), null, new Rejection("sequence-gap", "session " + display(session)
        + " has no transaction at " + missing + " " + config.sequenceGrace() + " after a later one was complete; moving on to txnSeq " + next),
        nowMs);
    state.nextSeq = next;
    state.gapSince = -1;
    state.gapSeq = -1;
    release(session, state, null, null, nowMs);
  }

  /**
   * Emits the session's complete transactions from its next txnSeq on, then starts, keeps or stops
   * the gap timer, and stores the session.
   *
   * @param fresh a transaction just completed and not stored, to forward without decoding it again;
   *     may be null
   * @param freshState its state, not stored either; null when {@code fresh} is
   */
  private void release(String session, SessionState state, Transaction fresh, TxnState freshState, long nowMs) {
    for (Pending p = state.pending.get(state.nextSeq); p != null && p.complete(); p = state.pending.get(state.nextSeq)) {
      boolean isFresh = fresh != null && fresh.getTxnId().equals(p.txnId());
      Transaction t;
      TxnState txn;
      if (isFresh) {
        t = fresh;
        txn = freshState;
      } else {
        t = (Transaction) RecordCodec.decode(assembled.get(p.txnId())).record();
        assembled.delete(p.txnId());
        txn = TxnState.fromBytes(txns.get(p.txnId()));
      }
      // the checker measures its read grace in stream time: the record carries the end's event time
      context.forward(new Record<>(t.getHistoryId(), (SpecificRecord) t, Math.max(0, t.getEndTime().toEpochMilli())));
      long forgetAt = Timers.after(nowMs, config.duplicateRetention());
      if (isFresh && txn.whole) {
        // never stored: remembered in a chunk of its kind rather than by a state and a timer of its own
        wholes.add(new WholeRetention.Entry(p.txnId(), session, txn.txnSeq, forgetAt, txn.digest));
      } else {
        txn.phase = Phase.EMITTED;
        txn.emittedAt = nowMs;
        txns.put(p.txnId(), txn.toBytes());
        timers.set(FORGET, forgetAt, p.txnId());
      }
      state.pending.remove(state.nextSeq);
      state.nextSeq++;
    }
    if (state.blockedByGap()) {
      if (state.gapSince < 0 || state.gapSeq != state.nextSeq) {
        stopGapTimer(session, state);
        state.gapSince = nowMs;
        state.gapSeq = state.nextSeq;
        timers.set(GAP, Timers.after(nowMs, config.sequenceGrace()), session);
      }
    } else {
      stopGapTimer(session, state);
    }
    sessions.put(session, state.toBytes());
  }

  private void stopGapTimer(String session, SessionState state) {
    if (state.gapSince >= 0) {
      timers.cancel(GAP, Timers.after(state.gapSince, config.sequenceGrace()), session);
      state.gapSince = -1;
      state.gapSeq = -1;
    }
  }
}
