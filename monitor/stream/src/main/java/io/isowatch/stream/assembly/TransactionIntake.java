package io.isowatch.stream.assembly;

import static io.isowatch.stream.assembly.AssemblerStores.OPEN_TIMEOUT;
import static io.isowatch.stream.assembly.AssemblerStores.display;

import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.stream.assembly.OpenTransactions.OpenTxn;
import io.isowatch.stream.assembly.SessionOrder.Admission;
import io.isowatch.stream.assembly.TxnState.Phase;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.util.Arrays;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The life of a transaction as its records arrive, one decoded record at a time: a {@code TxnEvent}
 * opens its transaction (if its session admits it), adds to it, and completes it once its end and
 * all its operations are in; a whole {@code Transaction} is complete on arrival. Each record is
 * either used, recognised as an identical copy of one held (counted by
 * {@link MonitorMetrics#duplicateIgnored()}), or rejected with the reason the caller sends to the
 * dead-letter topic.
 *
 * <p>A transaction's phase only moves forward, OPEN → COMPLETE → EMITTED ({@link Phase}), and then
 * it is forgotten at the end of the duplicate retention. Invariants: a transaction belongs to one
 * session and one txnSeq, those of its first record; events and a whole record never mix in one
 * transaction; an open transaction holds at most one event per opIndex, at most one end, and no
 * operation past its end; an open transaction's open-timeout timer is set from its first record
 * until it completes. The rules are those of {@link SessionAssembler}'s class comment.
 */
final class TransactionIntake {
  private final MonitorConfig config;
  private final MonitorMetrics metrics;
  private final KeyValueStore<String, byte[]> txns;
  private final KeyValueStore<String, byte[]> assembled;
  private final OpenTransactions open;
  private final SessionOrder order;
  private final WholeRetention wholes;
  private final Timers timers;

  /**
   * @param config the open timeout and limits
   * @param metrics where ignored duplicates are counted
   * @param txns the assembler's transactions store
   * @param assembled the assembler's assembled store
   * @param open the open transactions
   * @param order the session order transactions join and complete in
   * @param wholes the whole transactions remembered after being forwarded on arrival
   * @param timers the assembler's timers
   */
  TransactionIntake(MonitorConfig config, MonitorMetrics metrics, KeyValueStore<String, byte[]> txns,
      KeyValueStore<String, byte[]> assembled, OpenTransactions open, SessionOrder order, WholeRetention wholes,
      Timers timers) {
    this.config = config;
    this.metrics = metrics;
    this.txns = txns;
    this.assembled = assembled;
    this.open = open;
    this.order = order;
    this.wholes = wholes;
    this.timers = timers;
  }

  /**
   * Takes event {@code e}, whose record (value in single-object encoding, timestamp its stream time)
   * is {@code record}.
   *
   * @return why it is rejected, or null if it was used or ignored as a duplicate
   */
  Rejection event(Record<String, byte[]> record, TxnEvent e) {
    Rejection bad = InputCheck.event(record.key(), e, config.limits());
    if (bad != null) {
      return bad;
    }
    String session = AssemblerStores.sessionKey(e.getHistoryId(), e.getSessionId());
    String txnId = e.getTxnId();
    long now = record.timestamp();
    OpenTxn known = open.held(txnId);
    TxnState txn = known != null ? known.state() : stored(txnId);
    if (txn == null) {
      Admission admission = order.admit(e.getHistoryId(), session, txnId, e.getTxnSeq());
      if (admission.refused() != null) {
        return admission.refused();
      }
      txn = newTxn(session, e.getTxnSeq(), now);
      known = open.start(txnId, txn);
      order.join(session, admission.state(), txn.txnSeq, txnId);
      timers.set(OPEN_TIMEOUT, Timers.after(now, config.openTimeout()), txnId);
    } else {
      bad = sameTransaction(txn, session, txnId, e.getTxnSeq());
      if (bad != null) {
        return bad;
      }
      String at = e.getKind() + " at opIndex " + e.getOpIndex() + " of " + txnId;
      if (txn.whole) {
        return new Rejection("conflicting-duplicate", at + ": the transaction arrived as a whole Transaction record");
      }
      byte[] first = open.received(txnId, known, e.getOpIndex());
      if (first != null) {
        if (Arrays.equals(first, record.value())) {
          metrics.duplicateIgnored();
          return null;
        }
        return new Rejection("conflicting-duplicate", at + " differs from the event received first at that opIndex");
      }
      bad = txn.phase == Phase.OPEN ? order(at, e, txn) : afterEnd(at, e, txn);
      if (bad != null) {
        return bad;
      }
    }
    open.add(txnId, known, record.value(), e);
    if (txn.allOperationsIn()) {
      timers.cancel(OPEN_TIMEOUT, Timers.after(txn.firstSeen, config.openTimeout()), txnId);
      order.complete(txnId, txn, open.assemble(txnId, txn, now).transaction(), now);
    }
    return null;
  }

  /**
   * Takes the whole transaction {@code t}, whose record (value in single-object encoding, timestamp
   * its stream time) is {@code record}.
   *
   * @return why it is rejected, or null if it was used or ignored as a duplicate
   */
  Rejection transaction(Record<String, byte[]> record, Transaction t) {
    Rejection bad = InputCheck.transaction(record.key(), t, config.limits());
    if (bad != null) {
      return bad;
    }
    String session = AssemblerStores.sessionKey(t.getHistoryId(), t.getSessionId());
    String txnId = t.getTxnId();
    TxnState txn = stored(txnId);
    if (txn != null) {
      bad = sameTransaction(txn, session, txnId, t.getTxnSeq());
      if (bad != null) {
        return bad;
      }
      boolean identical = txn.digest != null ? Arrays.equals(txn.digest, order.digest(record.value()))
          : Arrays.equals(assembled.get(txnId), record.value());
      if (identical) {
        metrics.duplicateIgnored();
        return null;
      }
      return new Rejection("conflicting-duplicate", "transaction " + txnId + " arrived before "
          + (txn.whole ? "as a different Transaction record" : "as events, which do not assemble to this record"));
    }
    Admission admission = order.admit(t.getHistoryId(), session, txnId, t.getTxnSeq());
    if (admission.refused() != null) {
      return admission.refused();
    }
    txn = newTxn(session, t.getTxnSeq(), record.timestamp());
    txn.whole = true;
    txn.digest = order.digest(record.value());
    order.settle(txnId, txn, admission.state(), t, record.value(), record.timestamp());
    return null;
  }

  /** @return the state of a transaction just admitted to {@code session}, first seen at {@code firstSeenMs} (stream time) */
  private static TxnState newTxn(String session, long txnSeq, long firstSeenMs) {
    TxnState txn = new TxnState();
    txn.session = session;
    txn.txnSeq = txnSeq;
    txn.firstSeen = firstSeenMs;
    return txn;
  }

  /**
   * @return the state of transaction {@code txnId} in the stores: a whole one emitted on arrival
   *     and remembered ({@link WholeRetention}), or one in the transactions store; null if neither
   */
  private TxnState stored(String txnId) {
    WholeRetention.Entry e = wholes.find(txnId);
    if (e == null) {
      return TxnState.fromBytes(txns.get(txnId));
    }
    TxnState txn = new TxnState();
    txn.session = e.session();
    txn.txnSeq = e.txnSeq();
    txn.phase = Phase.EMITTED;
    txn.whole = true;
    txn.digest = e.digest();
    return txn;
  }

  private static Rejection sameTransaction(TxnState txn, String session, String txnId, long txnSeq) {
    if (!txn.session.equals(session)) {
      return new Rejection("txn-id-reused", "transaction " + txnId + " belongs to session "
          + display(txn.session) + ", not " + display(session));
    }
    if (txn.txnSeq != txnSeq) {
      return new Rejection("conflicting-duplicate", "transaction " + txnId + " has txnSeq " + txn.txnSeq
          + ", this record says " + txnSeq);
    }
    return null;
  }

  /** Checks a new event of an open transaction against the end and operations already seen. */
  private static Rejection order(String at, TxnEvent e, TxnState txn) {
    int i = e.getOpIndex();
    boolean end = e.getKind() == EventKind.COMMIT || e.getKind() == EventKind.ABORT;
    if (end && txn.endIndex >= 0) {
      return new Rejection("conflicting-end", at + ": the transaction already ended with "
          + endKind(txn) + " at opIndex " + txn.endIndex);
    }
    if (end && i <= txn.maxOpIndex) {
      return new Rejection("op-after-end", at + ": an operation at opIndex " + txn.maxOpIndex
          + " was already received");
    }
    if (!end && e.getKind() != EventKind.BEGIN && txn.endIndex >= 0 && i > txn.endIndex) {
      return new Rejection("op-after-end", at + " comes after its " + endKind(txn) + " at opIndex " + txn.endIndex);
    }
    return null;
  }

  /** Rejects a new event of a transaction already assembled. */
  private static Rejection afterEnd(String at, TxnEvent e, TxnState txn) {
    if (txn.timedOut) {
      return new Rejection("late-event", at + " arrives after the transaction was emitted with status UNKNOWN at its open timeout");
    }
    if (e.getOpIndex() > txn.endIndex) {
      return new Rejection("op-after-end", at + " comes after its " + endKind(txn) + " at opIndex " + txn.endIndex);
    }
    return new Rejection("late-event", at + " arrives after the transaction was assembled");
  }

  private static String endKind(TxnState txn) {
    return txn.aborted ? "ABORT" : "COMMIT";
  }
}
