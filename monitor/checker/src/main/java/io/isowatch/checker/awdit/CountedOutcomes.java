package io.isowatch.checker.awdit;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.booleans.BooleanArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * Which transactions count as committed for the axioms' premises: those that committed, and those of
 * unknown outcome whose write a transaction that counts read (a register read, or an element of a
 * known list read), to a fixpoint — the rule of {@code Polygraph.committed} and of the literal
 * references. Had such a writer aborted, a committed transaction would have read an aborted write,
 * directly or through others (G1a, which every level from read committed up forbids), so counting it
 * cannot make a consistent history look violated. One of unknown outcome that nothing counted read
 * from may have aborted: its writes are no premise (it can only hide a violation, never raise one).
 *
 * <p>The batch checker knows the whole history and marks every reader first ({@link #observeAll});
 * the incremental one marks each transaction's reads as it arrives ({@link #observe}), so it counts
 * such a writer from its first counted reader's arrival on, and not at all for transactions processed
 * before: it may find fewer violations than the batch checker, never more.
 */
final class CountedOutcomes {
  private final History h;
  /** Transactions of unknown outcome read by one that counts: they committed. */
  private final BooleanArrayList observed = new BooleanArrayList();
  private final IntArrayList todo = new IntArrayList();

  /** @param h the history whose transaction ids {@link #counts} and {@link #observe} take */
  CountedOutcomes(History h) {
    this.h = h;
  }

  /** @return whether transaction {@code t} counts as committed (see the class comment) */
  boolean counts(int t) {
    TxnStatus s = h.status(t);
    return s == TxnStatus.COMMITTED
        || (s == TxnStatus.UNKNOWN && t < observed.size() && observed.getBoolean(t));
  }

  /** Marks, to the fixpoint, the readers of every transaction of the history (the batch checker). */
  void observeAll() {
    for (int t = 0; t < h.txnCount(); t++) {
      observe(t);
    }
  }

  /**
   * If {@code t} counts, marks the writers of unknown outcome of what it read (each element of a known
   * list read), then what those read, and so on.
   */
  void observe(int t) {
    if (!counts(t)) {
      return;
    }
    todo.add(t);
    while (!todo.isEmpty()) {
      int r = todo.popInt();
      for (int op = h.opStart(r), end = h.opEnd(r); op < end; op++) {
        byte kind = h.opKind(op);
        if (kind == OpKind.READ) {
          mark(h.opKey(op), h.opValue(op));
        } else if (kind == OpKind.READ_LIST && h.listKnown(op)) {
          for (int i = 0, n = h.listLength(op); i < n; i++) {
            mark(h.opKey(op), h.listElement(op, i));
          }
        }
      }
    }
  }

  private void mark(int key, long value) {
    if (value == History.NIL || value == History.UNKNOWN_VALUE) {
      return;
    }
    int w = h.writes().writerOf(key, value);
    if (w < 0) {
      return;
    }
    int writer = h.opTxn(w);
    if (h.status(writer) != TxnStatus.UNKNOWN || counts(writer)) {
      return;
    }
    while (observed.size() <= writer) {
      observed.add(false);
    }
    observed.set(writer, true);
    todo.add(writer);
  }
}
