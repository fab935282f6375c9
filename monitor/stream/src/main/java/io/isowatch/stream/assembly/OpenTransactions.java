package io.isowatch.stream.assembly;

import static io.isowatch.stream.assembly.AssemblerStores.eventKey;

import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.stream.assembly.TxnState.Phase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The transactions whose events are still arriving (phase {@link Phase#OPEN}): their events, and
 * their assembly into a {@link Transaction} once complete or timed out.
 *
 * <p>In the stores, an open transaction is its state in the transactions store, as written at its
 * first event (counters at zero), and each of its events in the events store under
 * {@code AssemblerStores.eventKey(txnId, opIndex)}, one per opIndex, as received. In memory, by
 * txnId, this instance holds the open transactions it has touched, so that an event costs no read of
 * either store and a transaction is assembled without reading its events back.
 *
 * <p>Invariant: a transaction held in memory has exactly the events the events store has for it,
 * and the stored state with its counters ({@code endIndex}, {@code aborted}, {@code maxOpIndex},
 * {@code opsReceived}) counted from those events. It leaves memory when it is assembled. Memory is
 * empty in a new instance (a restart, or a task moved here), and an open transaction not held is
 * loaded from the stores at its next event or timer ({@link #held}), which restores the invariant.
 */
final class OpenTransactions {
  /** One event as received: its bytes (single-object encoding), and decoded. */
  record Received(byte[] raw, TxnEvent event) {}

  /** An open transaction in memory: its current state and its events by opIndex. */
  record OpenTxn(TxnState state, TreeMap<Integer, Received> events) {}

  /**
   * A transaction built from the held events.
   *
   * @param transaction the transaction
   * @param missing the first opIndex in 1..end-1 not held, or -1 if none
   * @param left the opIndexes held past {@code missing}, left out of {@code transaction}
   */
  record Assembly(Transaction transaction, int missing, List<Integer> left) {}

  private final KeyValueStore<String, byte[]> txns;
  private final KeyValueStore<String, byte[]> events;
  private final Map<String, OpenTxn> open = new HashMap<>();

  /**
   * @param txns the assembler's transactions store
   * @param events the assembler's events store
   */
  OpenTransactions(KeyValueStore<String, byte[]> txns, KeyValueStore<String, byte[]> events) {
    this.txns = txns;
    this.events = events;
  }

  /**
   * @return the open transaction {@code txnId} in memory, loaded from the stores (its state, and its
   *     counters recounted from its stored events) if this instance does not hold it yet; null if it
   *     is not open
   */
  OpenTxn held(String txnId) {
    OpenTxn known = open.get(txnId);
    if (known != null) {
      return known;
    }
    TxnState stored = TxnState.fromBytes(txns.get(txnId));
    if (stored == null || stored.phase != Phase.OPEN) {
      return null;
    }
    TreeMap<Integer, Received> received = new TreeMap<>();
    try (KeyValueIterator<String, byte[]> it =
        events.range(AssemblerStores.firstEventKey(txnId), AssemblerStores.lastEventKey(txnId))) {
      while (it.hasNext()) {
        byte[] raw = it.next().value;
        TxnEvent e = (TxnEvent) RecordCodec.decode(raw).record();
        received.put(e.getOpIndex(), new Received(raw, e));
        count(stored, e);
      }
    }
    known = new OpenTxn(stored, received);
    open.put(txnId, known);
    return known;
  }

  /** Opens transaction {@code txnId} with its new state {@code txn}: stored, and held with no event. */
  OpenTxn start(String txnId, TxnState txn) {
    txns.put(txnId, txn.toBytes());
    OpenTxn known = new OpenTxn(txn, new TreeMap<>());
    open.put(txnId, known);
    return known;
  }

  /**
   * @param known the transaction as held if it is open, else null (its events are read from the
   *     store, where they stay until it is forgotten)
   * @return the bytes of the event received at {@code opIndex} of {@code txnId}, or null if none
   */
  byte[] received(String txnId, OpenTxn known, int opIndex) {
    if (known != null) {
      Received r = known.events().get(opIndex);
      return r == null ? null : r.raw();
    }
    return events.get(eventKey(txnId, opIndex));
  }

  /** Adds event {@code e} ({@code raw} its bytes) to the open transaction {@code known}, stored and counted. */
  void add(String txnId, OpenTxn known, byte[] raw, TxnEvent e) {
    events.put(eventKey(txnId, e.getOpIndex()), raw);
    known.events().put(e.getOpIndex(), new Received(raw, e));
    count(known.state(), e);
  }

  /** Counts event {@code e} of an open transaction in its state. */
  private static void count(TxnState txn, TxnEvent e) {
    switch (e.getKind()) {
      case BEGIN:
        break;
      case COMMIT:
      case ABORT:
        txn.endIndex = e.getOpIndex();
        txn.aborted = e.getKind() == EventKind.ABORT;
        break;
      default:
        txn.opsReceived++;
        txn.maxOpIndex = Math.max(txn.maxOpIndex, e.getOpIndex());
    }
  }

  /**
   * Builds the transaction from its held events, which leaves memory: operations from opIndex 1 up
   * to the first missing one; status from the end if nothing is missing, UNKNOWN otherwise; begin
   * time the BEGIN's or the earliest event's, end time the end's or {@code nowMs}. Times in
   * microseconds.
   */
  Assembly assemble(String txnId, TxnState txn, long nowMs) {
    List<Operation> ops = new ArrayList<>();
    List<Integer> left = new ArrayList<>();
    TxnEvent begin = null;
    TxnEvent end = null;
    TxnEvent first = null;
    Source source = null;
    int missing = -1;
    for (TxnEvent e : heldEvents(txnId)) {
      if (first == null || e.getTime().isBefore(first.getTime())) {
        first = e;
      }
      if (source == null) {
        source = e.getSource();
      }
      switch (e.getKind()) {
        case BEGIN -> begin = e;
        case COMMIT, ABORT -> {
          end = e;
          if (missing >= 0) {
            left.add(e.getOpIndex());
          }
        }
        default -> {
          if (missing < 0 && e.getOpIndex() == ops.size() + 1) {
            ops.add(new Operation(OpKind.valueOf(e.getKind().name()), e.getKey(), e.getValue()));
          } else {
            if (missing < 0) {
              missing = ops.size() + 1;
            }
            left.add(e.getOpIndex());
          }
        }
      }
    }
    if (missing < 0 && end != null && ops.size() + 1 < end.getOpIndex()) {
      missing = ops.size() + 1;
      left.add(end.getOpIndex());
    }
    boolean ended = missing < 0 && end != null;
    if (ended && end.getSource() != null) {
      source = end.getSource();
    }
    TxnStatus status = !ended ? TxnStatus.UNKNOWN
        : end.getKind() == EventKind.COMMIT ? TxnStatus.COMMITTED : TxnStatus.ABORTED;
    Instant beginTime = begin != null ? begin.getTime() : first.getTime();
    Instant endTime = ended ? end.getTime() : Instant.ofEpochMilli(nowMs);
    Transaction t = new Transaction(first.getHistoryId(), first.getSessionId(), txnId, txn.txnSeq, status, ops,
        beginTime, endTime, source);
    return new Assembly(t, missing, left);
  }

  /** @return the events held for the open transaction {@code txnId}, in opIndex order; it leaves memory */
  private List<TxnEvent> heldEvents(String txnId) {
    OpenTxn known = held(txnId);
    open.remove(txnId);
    List<TxnEvent> out = new ArrayList<>();
    if (known != null) {
      known.events().values().forEach(r -> out.add(r.event()));
    }
    return out;
  }
}
