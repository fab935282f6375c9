package io.isowatch.checker.polygraph;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * The slow literal reference for read committed, read atomic and causal consistency on register
 * histories: Biswas &amp; Enea's axioms (OOPSLA 2019, §2–3) written as they are stated, over every
 * total commit order of the transactions that count as committed ({@link
 * CommitOrderBruteForce#countsAsCommitted}), with the initial state a transaction before all.
 *
 * <p>The basic axioms first: a read after its own transaction's write of the key returns the last
 * such write; any other read of a committed transaction returns the initial value or the final write
 * of another transaction that counts as committed (not a value nobody wrote, not an aborted write,
 * not an overwritten one, not its own transaction's later write). Each such read {@code r} of
 * {@code x} by {@code t3} reads from one transaction {@code t2} ({@code wr}). Then the level holds
 * when some total order {@code co ⊇ so ∪ wr} satisfies, for every such {@code r} and every other
 * committed {@code t1 ≠ t3} that writes {@code x}: <i>premise</i> ⇒ {@code t1 co t2}, where the
 * premise is, at read committed, {@code t1 wr t3} by a read before {@code r}; at read atomic,
 * {@code t1 (so ∪ wr) t3}; at causal, {@code t1 (so ∪ wr)+ t3}. n! orders (only linear
 * extensions of {@code so ∪ wr} are tried): for histories of at most 7 such transactions.
 */
public final class AxiomBruteForce {
  private static final int INIT = -1;

  private AxiomBruteForce() {}

  /**
   * @param h a register history (no appends or list reads)
   * @param level read committed, read atomic or causal
   * @return whether the basic axioms hold and some commit order satisfies the level's axiom, with
   *     session order
   */
  public static boolean satisfiable(History h, Level level) {
    List<Integer> txns = new ArrayList<>();
    for (int t = 0; t < h.txnCount(); t++) {
      if (CommitOrderBruteForce.countsAsCommitted(h, t)) {
        txns.add(t);
      }
    }
    int n = h.txnCount();
    int[] writer = new int[h.opCount()];
    boolean[] external = new boolean[h.opCount()];
    for (int t : txns) {
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        if (h.opKind(op) != OpKind.READ) {
          continue;
        }
        long own = ownPriorWrite(h, t, op);
        if (own != Long.MAX_VALUE) {
          if (own != h.opValue(op)) {
            return false;
          }
          continue;
        }
        external[op] = true;
        writer[op] = writerOf(h, txns, t, op);
        if (writer[op] == Integer.MAX_VALUE) {
          return false;
        }
      }
    }
    boolean[][] so = new boolean[n][n];
    boolean[][] wr = new boolean[n][n];
    for (int t : txns) {
      for (int u : txns) {
        so[u][t] = u != t && h.sessionOf(u) == h.sessionOf(t) && h.sessionIndex(u) < h.sessionIndex(t);
      }
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        if (external[op] && writer[op] != INIT) {
          wr[writer[op]][t] = true;
        }
      }
    }
    boolean[][] premise = premises(h, txns, level, so, wr, writer, external);
    return search(h, txns, so, wr, premise, writer, external, new ArrayList<>());
  }

  /** @return premise[t1][op]: whether, at the level, t1's write of op's key must precede op's writer */
  private static boolean[][] premises(History h, List<Integer> txns, Level level, boolean[][] so,
      boolean[][] wr, int[] writer, boolean[] external) {
    int n = h.txnCount();
    boolean[][] hb = new boolean[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        hb[a][b] = so[a][b] || wr[a][b];
      }
    }
    if (level == Level.CAUSAL) {
      for (int m = 0; m < n; m++) {
        for (int a = 0; a < n; a++) {
          for (int b = 0; b < n; b++) {
            hb[a][b] |= hb[a][m] && hb[m][b];
          }
        }
      }
    }
    boolean[][] premise = new boolean[n][h.opCount()];
    for (int t3 : txns) {
      for (int op = h.opStart(t3); op < h.opEnd(t3); op++) {
        if (!external[op]) {
          continue;
        }
        for (int t1 : txns) {
          if (t1 == t3 || t1 == writer[op] || CommitOrderBruteForce.finalWrite(h, t1, h.opKey(op)) == Long.MAX_VALUE) {
            continue;
          }
          if (level == Level.READ_COMMITTED) {
            for (int before = h.opStart(t3); before < op; before++) {
              premise[t1][op] |= external[before] && writer[before] == t1;
            }
          } else {
            premise[t1][op] = hb[t1][t3];
          }
        }
      }
    }
    return premise;
  }

  private static boolean search(History h, List<Integer> rest, boolean[][] so, boolean[][] wr,
      boolean[][] premise, int[] writer, boolean[] external, List<Integer> co) {
    if (rest.isEmpty()) {
      return axiomHolds(h, co, premise, writer, external);
    }
    for (int i = 0; i < rest.size(); i++) {
      int t = rest.get(i);
      boolean ready = true;
      for (int u : rest) {
        ready &= !so[u][t] && !wr[u][t];
      }
      if (!ready) {
        continue;
      }
      List<Integer> r = new ArrayList<>(rest);
      r.remove(i);
      co.add(t);
      if (search(h, r, so, wr, premise, writer, external, co)) {
        return true;
      }
      co.remove(co.size() - 1);
    }
    return false;
  }

  private static boolean axiomHolds(History h, List<Integer> co, boolean[][] premise, int[] writer,
      boolean[] external) {
    for (int t3 : co) {
      for (int op = h.opStart(t3); op < h.opEnd(t3); op++) {
        if (!external[op]) {
          continue;
        }
        int t2At = writer[op] == INIT ? -1 : co.indexOf(writer[op]);
        for (int t1 : co) {
          if (premise[t1][op] && co.indexOf(t1) > t2At) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /** @return the value of t's last write of op's key before op, or Long.MAX_VALUE if none */
  private static long ownPriorWrite(History h, int t, int op) {
    long v = Long.MAX_VALUE;
    for (int o = h.opStart(t); o < op; o++) {
      if (h.opKind(o) == OpKind.WRITE && h.opKey(o) == h.opKey(op)) {
        v = h.opValue(o);
      }
    }
    return v;
  }

  /**
   * @return INIT for the initial value, the other counted transaction whose final write of the key
   *     the read returns, or Integer.MAX_VALUE when no such write exists (a basic-axiom violation)
   */
  private static int writerOf(History h, List<Integer> txns, int t, int op) {
    if (h.opValue(op) == History.NIL) {
      return INIT;
    }
    for (int u : txns) {
      if (u != t && CommitOrderBruteForce.finalWrite(h, u, h.opKey(op)) == h.opValue(op)) {
        return u;
      }
    }
    return Integer.MAX_VALUE;
  }
}
