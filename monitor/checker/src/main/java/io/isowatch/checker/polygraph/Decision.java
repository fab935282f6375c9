package io.isowatch.checker.polygraph;

import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * One decision over a polygraph, or over some of its constraints: the known edges, then {@link
 * Pruning}, then the {@link ChoiceSolver} on what is left. Leaving constraints out relaxes the
 * problem, so a subset that is unsatisfiable makes the whole one so: that is how {@link CoreMinimizer}
 * tests a candidate core.
 */
final class Decision {
  /** How it ended. */
  enum Outcome {
    /** The known edges alone close a cycle ({@link #knownCycle}). */
    KNOWN_CYCLE,
    /** Pruning left a constraint with no alternative ({@link #pruning}). */
    CONTRADICTION,
    /** The search found no acyclic choice ({@link #solver}'s lemmas). */
    UNSATISFIABLE,
    /** An acyclic choice ({@link #lowerFirst}). */
    SATISFIABLE,
    /** The search's budget ran out. */
    BUDGET
  }

  final Outcome outcome;
  final int[] knownCycle;
  final Pruning pruning;
  final ChoiceSolver solver;
  final int searched;
  private final int[] varOf;

  private Decision(Outcome outcome, int[] knownCycle, Pruning pruning, ChoiceSolver solver, int searched,
      int[] varOf) {
    this.outcome = outcome;
    this.knownCycle = knownCycle;
    this.pruning = pruning;
    this.solver = solver;
    this.searched = searched;
    this.varOf = varOf;
  }

  /**
   * Decides.
   *
   * @param active which constraints take part, {@code null} for all
   * @param prune whether to prune before searching
   * @param maxConflicts the search's budget
   */
  static Decision run(Polygraph g, Lifting lifting, boolean[] active, boolean prune, long maxConflicts) {
    AcyclicGraph graph = new AcyclicGraph(lifting.nodes(g.nodes()));
    IntArrayList known = new IntArrayList(g.knownEdges());
    for (int e = 0; e < g.knownEdges(); e++) {
      known.add(e);
    }
    int[] cycle = lifting.addAll(g, graph, known);
    if (cycle != null) {
      return new Decision(Outcome.KNOWN_CYCLE, cycle, null, null, 0, null);
    }
    Pruning pruning = new Pruning(g, lifting, graph, active);
    if (prune && !pruning.run()) {
      return new Decision(Outcome.CONTRADICTION, null, pruning, null, 0, null);
    }
    IntArrayList vars = new IntArrayList();
    int[] varOf = new int[g.constraints()];
    for (int c = 0; c < g.constraints(); c++) {
      boolean open = pruning.decided(c) == Pruning.OPEN && (active == null || active[c]);
      varOf[c] = open ? vars.size() : -1;
      if (open) {
        vars.add(c);
      }
    }
    ChoiceSolver solver = new ChoiceSolver(g, lifting, graph, vars.toIntArray(), varOf);
    Outcome outcome = switch (solver.solve(maxConflicts)) {
      case SATISFIABLE -> Outcome.SATISFIABLE;
      case UNSATISFIABLE -> Outcome.UNSATISFIABLE;
      case BUDGET -> Outcome.BUDGET;
    };
    return new Decision(outcome, null, pruning, solver, vars.size(), varOf);
  }

  /**
   * @return after {@link Outcome#SATISFIABLE}: for each constraint, whether its lower node's writes
   *     come first (a constraint left out takes "lower first")
   */
  boolean[] lowerFirst(Polygraph g) {
    boolean[] out = new boolean[g.constraints()];
    for (int c = 0; c < g.constraints(); c++) {
      out[c] = varOf[c] >= 0 ? solver.value(varOf[c]) : pruning.decided(c) != 0;
    }
    return out;
  }

  /** @return whether it is a refutation (no acyclic choice) */
  boolean refuted() {
    return outcome == Outcome.KNOWN_CYCLE || outcome == Outcome.CONTRADICTION || outcome == Outcome.UNSATISFIABLE;
  }
}
