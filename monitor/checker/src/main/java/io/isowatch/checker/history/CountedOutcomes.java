package io.isowatch.checker.history;

import it.unimi.dsi.fastutil.booleans.BooleanArrayList;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

/**
 * Which transactions count as committed for the axioms' premises: those that committed, and those of
 * unknown outcome whose write a transaction that counts read (a register read, or an element of a
 * known list read), to a fixpoint — the one rule: the axiomatic checkers' ({@code awdit.Scheduler}), the polygraph's
 * ({@code polygraph.Polygraph.committed}) and the literal references'. Had such a writer aborted, a committed transaction would have read an aborted write,
 * directly or through others (G1a, which every level from read committed up forbids), so counting it
 * cannot make a consistent history look violated. One of unknown outcome that nothing counted read
 * from may have aborted: its writes are no premise (it can only hide a violation, never raise one).
 *
 * <p>The batch checker knows the whole history and marks every reader first ({@link #observeAll});
 * the incremental one marks each transaction's reads as it arrives ({@link #observe}), and a read
 * whose writer has not arrived yet when that writer arrives. So it counts such a writer from its
 * first counted reader's arrival on, not for what was processed before (the writer itself included,
 * when a reader counts only once its own reader arrives later): it may find fewer violations than
 * the batch checker, never more.
 */
public final class CountedOutcomes {
  private final History h;
  /** Transactions of unknown outcome read by one that counts: they committed. */
  private final BooleanArrayList observed = new BooleanArrayList();
  private final IntArrayList todo = new IntArrayList();
  /**
   * Per key, the values read by transactions that count whose writer had not arrived: a writer that
   * arrives with one of them is read from. Values nobody writes (thin-air reads) stay.
   */
  private final Int2ObjectOpenHashMap<LongOpenHashSet> awaited = new Int2ObjectOpenHashMap<>();
  /** Transactions below this id were marked by {@link #observeAll}: observing them again is a no-op. */
  private int settled;

  /** @param h the history whose transaction ids {@link #counts} and {@link #observe} take */
  public CountedOutcomes(History h) {
    this.h = h;
  }

  /** @return whether transaction {@code t} counts as committed (see the class comment) */
  public boolean counts(int t) {
    TxnStatus s = h.status(t);
    return s == TxnStatus.COMMITTED
        || (s == TxnStatus.UNKNOWN && t < observed.size() && observed.getBoolean(t));
  }

  /**
   * Marks, to the fixpoint, the readers of every transaction of the history (the batch checker).
   * Only a transaction of unknown outcome can be marked, so a history without one is settled by a
   * scan of the statuses, without looking up the writer of each read (a lookup per read was 18 % of
   * the CPU of {@code check --level read-committed} at 10^6 transactions: docs/PERFORMANCE.md, "issue
   * 20, fourth part").
   */
  public void observeAll() {
    int n = h.txnCount();
    int t = 0;
    while (t < n && h.status(t) != TxnStatus.UNKNOWN) {
      t++;
    }
    if (t < n) {
      for (t = 0; t < n; t++) {
        observe(t);
      }
    }
    settled = n;
  }

  /**
   * Marks {@code t} if a transaction that counts read one of its writes before it arrived; then, if
   * {@code t} counts, marks the writers of unknown outcome of what it read (each element of a known
   * list read), then what those read, and so on. Nothing to do for a transaction that {@link
   * #observeAll} saw (the batch checker accepts each transaction after it).
   */
  public void observe(int t) {
    if (t < settled) {
      return;
    }
    if (h.status(t) == TxnStatus.UNKNOWN && awaitedWrite(t)) {
      setObserved(t);
    }
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
      awaited.computeIfAbsent(key, k -> new LongOpenHashSet()).add(value);
      return;
    }
    int writer = h.opTxn(w);
    if (h.status(writer) != TxnStatus.UNKNOWN || counts(writer)) {
      return;
    }
    setObserved(writer);
    todo.add(writer);
  }

  /** @return whether a transaction that counts read one of {@code t}'s writes before {@code t} arrived */
  private boolean awaitedWrite(int t) {
    boolean found = false;
    for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
      if (OpKind.isWrite(h.opKind(op))) {
        LongOpenHashSet values = awaited.get(h.opKey(op));
        found |= values != null && values.remove(h.opValue(op));
      }
    }
    return found;
  }

  private void setObserved(int t) {
    while (observed.size() <= t) {
      observed.add(false);
    }
    observed.set(t, true);
  }
}
