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
 * reads are checked, and what each checked read reads from; for list reads, the element-by-element
 * translation of {@code docs/levels.md} ("List reads, element by element"). Deliberately slow: every
 * lookup scans the whole history (no {@link io.isowatch.checker.history.WriteIndex}), and a list is
 * cut into runs by comparing each element's appender with the next one's, so that it shares no code
 * path with the fast checkers it is compared with.
 */
final class ReferenceReads {
  /** The virtual initial transaction, writer of every key's initial value {@link History#NIL}. */
  static final int INIT = Witness.INIT;

  /**
   * One checked read, resolved: a register read, an empty list read, or one run of a list read
   * (consecutive elements appended by one transaction, standing for the version after its last
   * element).
   *
   * @param op the read operation
   * @param txn its (committed) transaction
   * @param key the key read
   * @param value the value read (the run's last element for a list read, {@link History#NIL} for
   *     the initial value or the empty list)
   * @param writeOp the write or append operation of {@code (key, value)}, -1 if none (initial value
   *     or thin air)
   * @param writerTxn the transaction of {@code writeOp}; {@link #INIT} when {@code writeOp} is -1
   * @param anomaly the basic-axiom violation of §3 a–d, or {@code null} for a valid read
   * @param version whether this is the version the operation reads (every register read, the last
   *     run of a list read), rather than an earlier run it only observes
   * @param first the run's first element ({@code value} for a register read)
   */
  record Read(int op, int txn, int key, long value, int writeOp, int writerTxn, Anomaly anomaly, boolean version,
      long first) {
    /** @return valid and reading from another transaction or INIT: the read makes a wr edge */
    boolean external() {
      return anomaly == null && writerTxn != txn;
    }
  }

  /**
   * A version order shown by a list read: {@code from}'s run comes right before {@code to}'s among
   * the valid runs of {@code reader}'s read of {@code key}; {@code value} is the first element of
   * {@code to}'s run.
   */
  record Order(int from, int to, int key, long value, int reader) {}

  private ReferenceReads() {}

  /** §1: committed and unknown transactions are nodes, aborted ones are not; an open one is ignored. */
  static boolean isNode(History h, int t) {
    return h.status(t) != TxnStatus.ABORTED && t != h.openTxn();
  }

  /**
   * Which transactions count as committed for the premises of §5: those that committed, and those
   * whose outcome is unknown and a transaction that counts read one of its writes (a register read, or any
   * element of a known list read), to a fixpoint. One of unknown outcome that nothing counted read
   * from may have aborted, so its writes are no premise. Computed from scratch by repeating until
   * nothing changes, scanning the whole history each time.
   *
   * @return indexed by transaction id
   */
  static boolean[] counted(History h) {
    boolean[] counts = new boolean[h.txnCount()];
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int u = 0; u < h.txnCount(); u++) {
        boolean c = h.status(u) == TxnStatus.COMMITTED
            || (h.status(u) == TxnStatus.UNKNOWN && u != h.openTxn() && readByCounted(h, u, counts));
        if (c && !counts[u]) {
          counts[u] = true;
          changed = true;
        }
      }
    }
    return counts;
  }

  /** @return whether a transaction marked in {@code counts} reads a value {@code u} wrote or appended */
  private static boolean readByCounted(History h, int u, boolean[] counts) {
    for (int op = 0; op < h.opCount(); op++) {
      if (!counts[h.opTxn(op)]) {
        continue;
      }
      if (h.opKind(op) == OpKind.READ && writtenBy(h, u, h.opKey(op), h.opValue(op))) {
        return true;
      }
      if (h.opKind(op) == OpKind.READ_LIST && h.listKnown(op)) {
        for (int i = 0; i < h.listLength(op); i++) {
          if (writtenBy(h, u, h.opKey(op), h.listElement(op, i))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean writtenBy(History h, int u, int x, long v) {
    int w = v == History.NIL || v == History.UNKNOWN_VALUE ? -1 : findWrite(h, x, v);
    return w >= 0 && h.opTxn(w) == u;
  }

  /**
   * §2–§3: every checked read of the history in operation order, resolved; a list read gives one
   * entry per run, in list order.
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
        if (h.opKind(op) == OpKind.READ && h.opValue(op) != History.UNKNOWN_VALUE) {
          out.add(resolve(h, t, op, h.opKey(op), h.opValue(op), true, h.opValue(op)));
        } else if (h.opKind(op) == OpKind.READ_LIST && h.listKnown(op)) {
          out.addAll(runs(h, t, op));
        }
      }
    }
    return out;
  }

  /**
   * A list read, element by element: each run resolved as a read of its last element, the reader's
   * own earlier appends of the key required of the last run only.
   */
  private static List<Read> runs(History h, int t, int op) {
    int x = h.opKey(op);
    int n = h.listLength(op);
    if (n == 0) {
      return List.of(resolve(h, t, op, x, History.NIL, true, History.NIL));
    }
    List<Read> out = new ArrayList<>();
    int first = 0;
    for (int i = 0; i < n; i++) {
      int w = findWrite(h, x, h.listElement(op, i));
      boolean runEnds = i == n - 1 || w < 0 || findWrite(h, x, h.listElement(op, i + 1)) < 0
          || h.opTxn(findWrite(h, x, h.listElement(op, i + 1))) != h.opTxn(w);
      if (runEnds) {
        out.add(resolve(h, t, op, x, h.listElement(op, i), i == n - 1, h.listElement(op, first)));
        first = i + 1;
      }
    }
    return out;
  }

  /**
   * §2–§3 and the list translation: the version orders the list reads show, between consecutive
   * valid runs of different transactions.
   */
  static List<Order> orders(History h, List<Read> reads) {
    List<Order> out = new ArrayList<>();
    Read prev = null;
    for (Read r : reads) {
      if (prev != null && prev.op() != r.op()) {
        prev = null;
      }
      if (h.opKind(r.op()) != OpKind.READ_LIST || r.anomaly() != null || r.writeOp() < 0) {
        continue;
      }
      if (prev != null && prev.writerTxn() != r.writerTxn()) {
        out.add(new Order(prev.writerTxn(), r.writerTxn(), r.key(), r.first(), r.txn()));
      }
      prev = r;
    }
    return out;
  }

  /**
   * @param last whether the read is the operation's version read (a register read, or the last run
   *     of a list): only it must show the reader's own earlier writes of the key
   */
  private static Read resolve(History h, int t, int r, int x, long v, boolean last, long first) {
    boolean ownBefore = writesBetween(h, t, x, h.opStart(t) - 1, r);
    if (v == History.NIL) {
      return new Read(r, t, x, v, -1, INIT, ownBefore ? Anomaly.NOT_MY_OWN_WRITE : null, true, first);
    }
    int w = findWrite(h, x, v);
    if (w < 0) {
      return new Read(r, t, x, v, -1, INIT, Anomaly.THIN_AIR_READ, last, first);
    }
    int t1 = h.opTxn(w);
    Anomaly a;
    if (t1 == t) {
      if (w > r) {
        a = Anomaly.FUTURE_READ;
      } else if (last && writesBetween(h, t, x, w, r)) {
        a = Anomaly.NOT_MY_LAST_WRITE;
      } else {
        a = null;
      }
    } else if (last && ownBefore) {
      a = Anomaly.NOT_MY_OWN_WRITE;
    } else if (h.status(t1) == TxnStatus.ABORTED) {
      a = Anomaly.ABORTED_READ;
    } else if (writesBetween(h, t1, x, w, h.opEnd(t1))) {
      a = Anomaly.INTERMEDIATE_READ;
    } else {
      a = null;
    }
    return new Read(r, t, x, v, w, t1, a, last, first);
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
