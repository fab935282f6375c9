package io.isowatch.checker.reference;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.witness.Witness;
import java.util.ArrayList;
import java.util.List;

/**
 * Literal transcription of {@code notes/semantics.md} §1–§3: which transactions are nodes, which
 * reads are checked, and what each checked read reads from. Deliberately slow: every lookup scans
 * the whole history (no {@link io.isowatch.checker.history.WriteIndex}), so that it shares no code
 * path with the fast checkers it is compared with.
 */
final class ReferenceReads {
  /** The virtual initial transaction, writer of every key's initial value {@link History#NIL}. */
  static final int INIT = Witness.INIT;

  /**
   * One checked read, resolved.
   *
   * @param op the read operation
   * @param txn its (committed) transaction
   * @param key the key read
   * @param value the value read (the last element for a list read, {@link History#NIL} for the
   *     initial value or the empty list)
   * @param writeOp the write or append operation of {@code (key, value)}, -1 if none (initial value
   *     or thin air)
   * @param writerTxn the transaction of {@code writeOp}; {@link #INIT} when {@code writeOp} is -1
   * @param anomaly the basic-axiom violation of §3 a–d, or {@code null} for a valid read
   */
  record Read(int op, int txn, int key, long value, int writeOp, int writerTxn, Anomaly anomaly) {
    /** @return valid and reading from another transaction or INIT: the read makes a wr edge */
    boolean external() {
      return anomaly == null && writerTxn != txn;
    }
  }

  private ReferenceReads() {}

  /** §1: committed and unknown transactions are nodes, aborted ones are not; an open one is ignored. */
  static boolean isNode(History h, int t) {
    return h.status(t) != TxnStatus.ABORTED && t != h.openTxn();
  }

  /**
   * §2–§3: every checked read of the history in operation order, resolved.
   *
   * @return one entry per checked read (register reads and known list reads of committed
   *     transactions whose value is known)
   */
  static List<Read> checkedReads(History h) {
    List<Read> out = new ArrayList<>();
    for (int t = 0; t < h.txnCount(); t++) {
      if (h.status(t) != TxnStatus.COMMITTED) {
        continue;
      }
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        long v;
        if (h.opKind(op) == OpKind.READ) {
          v = h.opValue(op);
        } else if (h.opKind(op) == OpKind.READ_LIST && h.listKnown(op)) {
          int n = h.listLength(op);
          v = n == 0 ? History.NIL : h.listElement(op, n - 1);
        } else {
          continue;
        }
        if (v != History.UNKNOWN_VALUE) {
          out.add(resolve(h, t, op, h.opKey(op), v));
        }
      }
    }
    return out;
  }

  private static Read resolve(History h, int t, int r, int x, long v) {
    if (v == History.NIL) {
      Anomaly a = writesBetween(h, t, x, h.opStart(t) - 1, r) ? Anomaly.NOT_MY_OWN_WRITE : null;
      return new Read(r, t, x, v, -1, INIT, a);
    }
    int w = findWrite(h, x, v);
    if (w < 0) {
      return new Read(r, t, x, v, -1, INIT, Anomaly.THIN_AIR_READ);
    }
    int t1 = h.opTxn(w);
    Anomaly a;
    if (t1 == t) {
      if (w > r) {
        a = Anomaly.FUTURE_READ;
      } else if (writesBetween(h, t, x, w, r)) {
        a = Anomaly.NOT_MY_LAST_WRITE;
      } else {
        a = null;
      }
    } else if (writesBetween(h, t, x, h.opStart(t) - 1, r)) {
      a = Anomaly.NOT_MY_OWN_WRITE;
    } else if (h.status(t1) == TxnStatus.ABORTED) {
      a = Anomaly.ABORTED_READ;
    } else if (writesBetween(h, t1, x, w, h.opEnd(t1))) {
      a = Anomaly.INTERMEDIATE_READ;
    } else {
      a = null;
    }
    return new Read(r, t, x, v, w, t1, a);
  }

  /** @return the write or append operation of {@code (x, v)} anywhere in the history, or -1 */
  private static int findWrite(History h, int x, long v) {
    for (int op = 0; op < h.opCount(); op++) {
      if (OpKind.isWrite(h.opKind(op)) && h.opKey(op) == x && h.opValue(op) == v && h.opTxn(op) != h.openTxn()) {
        return op;
      }
    }
    return -1;
  }

  /** @return whether transaction {@code t} writes {@code x} at an operation strictly between the bounds */
  static boolean writesBetween(History h, int t, int x, int afterOp, int beforeOp) {
    for (int op = h.opStart(t); op < h.opEnd(t); op++) {
      if (op > afterOp && op < beforeOp && OpKind.isWrite(h.opKind(op)) && h.opKey(op) == x) {
        return true;
      }
    }
    return false;
  }

  /** @return whether transaction {@code t} writes or appends {@code x} anywhere */
  static boolean writes(History h, int t, int x) {
    return writesBetween(h, t, x, h.opStart(t) - 1, h.opEnd(t));
  }
}
