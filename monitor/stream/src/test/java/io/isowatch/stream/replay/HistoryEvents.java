package io.isowatch.stream.replay;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A checker {@link History} as the op-level events a client of the monitored database would
 * publish: per transaction BEGIN, its operations in {@code po} and COMMIT or ABORT (none for a
 * transaction whose outcome is unknown), transactions numbered by their position in the session,
 * and the sessions interleaved at random in an order consistent with {@code so} and {@code po}.
 * Transaction ids are {@code historyId/T<index>}; event times are one millisecond apart.
 */
public final class HistoryEvents {
  private HistoryEvents() {}

  /**
   * @param h the history (register or list-append operations with known values)
   * @param historyId the historyId of every event
   * @param startMs the time of the first event, ms since the epoch
   * @param seed the interleaving's seed; equal seeds give equal interleavings
   * @return the events in publication order
   * @throws IllegalArgumentException for a list read of unknown content or an open transaction
   */
  public static List<TxnEvent> interleaved(History h, String historyId, long startMs, long seed) {
    List<ArrayDeque<Unstamped>> sessions = new ArrayList<>();
    for (int s = 0; s < h.sessionCount(); s++) {
      ArrayDeque<Unstamped> q = new ArrayDeque<>();
      var txns = h.sessionTxns(s);
      for (int i = 0; i < txns.size(); i++) {
        addTransaction(h, txns.getInt(i), i, q);
      }
      sessions.add(q);
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<TxnEvent> out = new ArrayList<>();
    int remaining = sessions.stream().mapToInt(ArrayDeque::size).sum();
    long ms = startMs;
    while (remaining > 0) {
      int pick = rnd.nextInt(remaining);
      for (ArrayDeque<Unstamped> q : sessions) {
        if (pick < q.size()) {
          Unstamped u = q.poll();
          out.add(new TxnEvent(historyId, h.sessionName(h.sessionOf(u.txn)), historyId + "/T" + u.txn, u.txnSeq,
              u.opIndex, u.kind, u.key, u.value, Instant.ofEpochMilli(ms++), null));
          break;
        }
        pick -= q.size();
      }
      remaining--;
    }
    return out;
  }

  /**
   * @return transaction {@code t} of {@code h} as the assembler emits it from
   *     {@link #interleaved}'s events, given the times its BEGIN and end got (the end time of an
   *     UNKNOWN one is when it was given up on)
   */
  public static Transaction transaction(History h, String historyId, int t, long txnSeq, Instant begin, Instant end) {
    List<Operation> ops = new ArrayList<>();
    for (int op = h.opStart(t); op < h.opEnd(t); op++) {
      ops.add(operation(h, op));
    }
    io.isowatch.schemas.TxnStatus status = switch (h.status(t)) {
      case COMMITTED -> io.isowatch.schemas.TxnStatus.COMMITTED;
      case ABORTED -> io.isowatch.schemas.TxnStatus.ABORTED;
      default -> io.isowatch.schemas.TxnStatus.UNKNOWN;
    };
    return new Transaction(historyId, h.sessionName(h.sessionOf(t)), historyId + "/T" + t, txnSeq, status, ops,
        begin, end, null);
  }

  private record Unstamped(int txn, long txnSeq, int opIndex, EventKind kind, String key, Object value) {}

  private static void addTransaction(History h, int t, long txnSeq, ArrayDeque<Unstamped> q) {
    q.add(new Unstamped(t, txnSeq, 0, EventKind.BEGIN, null, null));
    int i = 1;
    for (int op = h.opStart(t); op < h.opEnd(t); op++, i++) {
      Operation o = operation(h, op);
      q.add(new Unstamped(t, txnSeq, i, EventKind.valueOf(o.getKind().name()), o.getKey(), o.getValue()));
    }
    TxnStatus status = h.status(t);
    if (status == TxnStatus.COMMITTED) {
      q.add(new Unstamped(t, txnSeq, i, EventKind.COMMIT, null, null));
    } else if (status == TxnStatus.ABORTED) {
      q.add(new Unstamped(t, txnSeq, i, EventKind.ABORT, null, null));
    } else if (status != TxnStatus.UNKNOWN) {
      throw new IllegalArgumentException("transaction " + t + " is still open");
    }
  }

  private static Operation operation(History h, int op) {
    String key = h.keyName(h.opKey(op));
    switch (h.opKind(op)) {
      case OpKind.READ:
        return new Operation(io.isowatch.schemas.OpKind.READ, key, h.opValue(op) == History.NIL ? null : h.opValue(op));
      case OpKind.WRITE:
        return new Operation(io.isowatch.schemas.OpKind.WRITE, key, h.opValue(op));
      case OpKind.APPEND:
        return new Operation(io.isowatch.schemas.OpKind.APPEND, key, h.opValue(op));
      default:
        if (!h.listKnown(op)) {
          throw new IllegalArgumentException("list read " + op + " of unknown content");
        }
        List<Long> list = new ArrayList<>();
        for (int e = 0; e < h.listLength(op); e++) {
          list.add(h.listElement(op, e));
        }
        return new Operation(io.isowatch.schemas.OpKind.READ, key, list);
    }
  }
}
