package io.isowatch.checker.polygraph;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

/**
 * Two roles of register operations within their transaction, for the whole history in
 * O(operations): a write that is its transaction's last write of the key (the version others may
 * read), and an operation that is its transaction's first read or write of the key (an external
 * read, when it is a read). A transaction of more than {@value #SHORT_TXN} operations is scanned with
 * a hash set, a shorter one by comparing its operations pairwise, which is faster when short and
 * quadratic when long (one transaction reading 10^6 keys).
 */
final class OpRoles {
  /** Transactions up to this many operations are scanned pairwise. */
  static final int SHORT_TXN = 32;

  private final boolean[] lastWrite;
  private final boolean[] firstOnKey;

  /** @param h the history; its operations are numbered {@code 0..opCount()-1} */
  OpRoles(History h) {
    lastWrite = new boolean[h.opCount()];
    firstOnKey = new boolean[h.opCount()];
    for (int t = 0; t < h.txnCount(); t++) {
      int start = h.opStart(t);
      int end = h.opEnd(t);
      if (end - start <= SHORT_TXN) {
        for (int op = start; op < end; op++) {
          lastWrite[op] = isRegister(h, op, OpKind.WRITE) && noneAfter(h, op, end);
          firstOnKey[op] = isRegister(h, op, (byte) -1) && noneBefore(h, op, start);
        }
        continue;
      }
      IntOpenHashSet written = new IntOpenHashSet();
      for (int op = end - 1; op >= start; op--) {
        lastWrite[op] = h.opKind(op) == OpKind.WRITE && written.add(h.opKey(op));
      }
      IntOpenHashSet touched = new IntOpenHashSet();
      for (int op = start; op < end; op++) {
        firstOnKey[op] = isRegister(h, op, (byte) -1) && touched.add(h.opKey(op));
      }
    }
  }

  /** @return whether write {@code op} is its transaction's last write of its key */
  boolean lastWrite(int op) {
    return lastWrite[op];
  }

  /** @return whether {@code op} (a read or a write) is its transaction's first read or write of its key */
  boolean firstOnKey(int op) {
    return firstOnKey[op];
  }

  /** @param kind {@link OpKind#WRITE}, or -1 for a read or a write */
  private static boolean isRegister(History h, int op, byte kind) {
    byte k = h.opKind(op);
    return kind < 0 ? k == OpKind.READ || k == OpKind.WRITE : k == kind;
  }

  private static boolean noneAfter(History h, int op, int end) {
    for (int o = op + 1; o < end; o++) {
      if (h.opKey(o) == h.opKey(op) && h.opKind(o) == OpKind.WRITE) {
        return false;
      }
    }
    return true;
  }

  private static boolean noneBefore(History h, int op, int start) {
    for (int o = start; o < op; o++) {
      if (h.opKey(o) == h.opKey(op) && isRegister(h, o, (byte) -1)) {
        return false;
      }
    }
    return true;
  }
}
