package io.isowatch.checker.polygraph;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.util.Arrays;
import java.util.List;

/**
 * A small unsatisfiable set of constraints (a core) from a refutation, by deletion (Marques-Silva,
 * "Minimal unsatisfiability: models, algorithms and applications", ISMVL 2010, §4): start from the
 * constraints the refutation's cycles use, together with the pruning choices those rest on; drop each
 * constraint in turn if the rest, with the known edges, is still refuted within the budget. What is
 * left is minimal: each of its constraints is needed (unless a test ran out of budget, which keeps the
 * constraint). The witness of a violation is built on it, so that a person checks a handful of pairs
 * rather than the history.
 */
final class CoreMinimizer {
  /** Candidates past this many are not minimised (the refutation's own set is kept). */
  static final int MAX_CANDIDATES = 400;

  private CoreMinimizer() {}

  /**
   * @param refutation a decision over all constraints that found none acyclic, not {@link
   *     Decision.Outcome#KNOWN_CYCLE}
   * @return the core's constraints, ascending
   */
  static int[] core(Polygraph g, Lifting lifting, Decision refutation, long maxConflicts) {
    IntOpenHashSet start = new IntOpenHashSet();
    Pruning p = refutation.pruning;
    if (refutation.outcome == Decision.Outcome.CONTRADICTION) {
      start.add(p.contradiction());
      closure(g, p, List.of(p.rejectedCycle(p.contradiction()), p.contradictionCycle()), start);
    } else {
      closure(g, p, refutation.solver.lemmas(), start);
    }
    int[] core = start.toIntArray();
    Arrays.sort(core);
    if (core.length > MAX_CANDIDATES) {
      return core;
    }
    boolean[] active = new boolean[g.constraints()];
    for (int c : core) {
      active[c] = true;
    }
    if (!Decision.run(g, lifting, active, true, maxConflicts).refuted()) {
      throw new IllegalStateException("the constraints a refutation rests on are not refuted alone");
    }
    IntArrayList kept = new IntArrayList();
    for (int i = core.length - 1; i >= 0; i--) {
      int c = core[i];
      active[c] = false;
      if (!Decision.run(g, lifting, active, true, maxConflicts).refuted()) {
        active[c] = true;
        kept.add(c);
      }
    }
    int[] out = kept.toIntArray();
    Arrays.sort(out);
    return out;
  }

  /** Adds the constraints on the cycles, and the adopted ones their rejected cycles rest on. */
  static void closure(Polygraph g, Pruning p, List<int[]> cycles, IntOpenHashSet into) {
    IntArrayList todo = new IntArrayList();
    for (int[] cycle : cycles) {
      add(g, cycle, into, todo);
    }
    while (!todo.isEmpty()) {
      int c = todo.popInt();
      if (p.decided(c) != Pruning.OPEN && p.rejectedCycle(c) != null) {
        add(g, p.rejectedCycle(c), into, todo);
      }
    }
  }

  private static void add(Polygraph g, int[] cycle, IntOpenHashSet into, IntArrayList todo) {
    for (int e : cycle) {
      int c = g.constraintOf(e);
      if (c >= 0 && into.add(c)) {
        todo.add(c);
      }
    }
  }
}
