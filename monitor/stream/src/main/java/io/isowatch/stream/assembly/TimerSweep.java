package io.isowatch.stream.assembly;

import static io.isowatch.stream.assembly.AssemblerStores.FORGET;
import static io.isowatch.stream.assembly.AssemblerStores.GAP;
import static io.isowatch.stream.assembly.AssemblerStores.OPEN_TIMEOUT;
import static io.isowatch.stream.assembly.AssemblerStores.display;

import io.isowatch.stream.assembly.OpenTransactions.Assembly;
import io.isowatch.stream.assembly.OpenTransactions.OpenTxn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The stream-time sweep over the assembler's stores: at each punctuation, fires the timers due, in
 * this order: open timeouts (a transaction without a complete end is emitted with status UNKNOWN,
 * with an {@code incomplete-transaction} dead letter if events past a missing one are left out),
 * sequence gaps (a session moves on past txnSeqs no record claimed), then the ends of the duplicate
 * retention (an emitted transaction's state and events are deleted, and whole transactions
 * remembered in {@link WholeRetention} forgotten).
 *
 * <p>Invariant: a timer fires at the first sweep at or after its due time, never before, and once
 * (it is deleted as it fires). A timer whose work ended (a transaction completed, a gap filled) was
 * cancelled then; a firing timer still checks that its work is there (an open timeout of a
 * transaction no longer open, a gap no longer blocking its session, does nothing).
 */
final class TimerSweep {
  /** How many left-out opIndexes an {@code incomplete-transaction} dead letter lists. */
  private static final int LISTED = 10;

  private final Duration openTimeout;
  private final KeyValueStore<String, byte[]> txns;
  private final KeyValueStore<String, byte[]> events;
  private final Timers timers;
  private final OpenTransactions open;
  private final SessionOrder order;
  private final WholeRetention wholes;
  private final DeadLetters deadLetters;

  /**
   * @param openTimeout how long after its first record a transaction may stay open, named in the dead letter
   * @param txns the assembler's transactions store
   * @param events the assembler's events store
   * @param timers the assembler's timers
   * @param open the open transactions
   * @param order the session order a timed-out transaction completes in and a gap is skipped in
   * @param wholes the whole transactions remembered after being forwarded on arrival
   * @param deadLetters where an incomplete transaction is reported
   */
  TimerSweep(Duration openTimeout, KeyValueStore<String, byte[]> txns, KeyValueStore<String, byte[]> events,
      Timers timers, OpenTransactions open, SessionOrder order, WholeRetention wholes, DeadLetters deadLetters) {
    this.openTimeout = openTimeout;
    this.txns = txns;
    this.events = events;
    this.timers = timers;
    this.open = open;
    this.order = order;
    this.wholes = wholes;
    this.deadLetters = deadLetters;
  }

  /** Fires the timers due at {@code nowMs} (stream time, ms): open timeouts, then sequence gaps, then retention. */
  void sweep(long nowMs) {
    for (String txnId : timers.takeDue(OPEN_TIMEOUT, nowMs)) {
      OpenTxn known = open.held(txnId);
      if (known != null) {
        timeOut(txnId, known.state(), nowMs);
      }
    }
    for (String session : timers.takeDue(GAP, nowMs)) {
      order.gapExpired(session, nowMs);
    }
    for (String txnId : timers.takeDue(FORGET, nowMs)) {
      forget(txnId);
    }
    wholes.forgetDue(nowMs);
  }

  private void timeOut(String txnId, TxnState txn, long nowMs) {
    Assembly a = open.assemble(txnId, txn, nowMs);
    if (a.missing() >= 0) {
      deadLetters.send(InputCheck.recordKey(a.transaction().getHistoryId(), a.transaction().getSessionId()), null,
          new Rejection("incomplete-transaction", "transaction " + txnId + " of session " + display(txn.session)
              + " is still incomplete " + openTimeout + " after its first event; opIndex " + a.missing()
              + " never arrived, so it is emitted with status UNKNOWN and operations 1.." + (a.missing() - 1)
              + ", leaving out opIndex " + list(a.left())),
          nowMs);
    }
    txn.timedOut = true;
    order.complete(txnId, txn, a.transaction(), nowMs);
  }

  private void forget(String txnId) {
    TxnState txn = TxnState.fromBytes(txns.get(txnId));
    txns.delete(txnId);
    if (txn != null && txn.whole) {
      return; // no events, and its record left the assembled store when it was emitted
    }
    List<String> keys = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it =
        events.range(AssemblerStores.firstEventKey(txnId), AssemblerStores.lastEventKey(txnId))) {
      it.forEachRemaining((KeyValue<String, byte[]> kv) -> keys.add(kv.key));
    }
    keys.forEach(events::delete);
  }

  private static String list(List<Integer> indexes) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < Math.min(LISTED, indexes.size()); i++) {
      s.append(i == 0 ? "" : ", ").append(indexes.get(i));
    }
    if (indexes.size() > LISTED) {
      s.append(" and ").append(indexes.size() - LISTED).append(" more");
    }
    return s.toString();
  }
}
