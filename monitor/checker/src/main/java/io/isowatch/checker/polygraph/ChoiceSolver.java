package io.isowatch.checker.polygraph;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.Arrays;

/**
 * A CDCL search over the constraints pruning left (Marques-Silva &amp; Sakallah's conflict-driven
 * clause learning with the first unique implication point, JACM 1999 / IEEE TC 1999; two watched
 * literals and activity-ordered decisions as in Chaff, DAC 2001; Luby restarts), with acyclicity as
 * its theory, as MonoSAT's graph theory serves Cobra and PolySI (Bayless et al., AAAI 2015): assigning
 * a constraint adds its alternative's edges to an {@link AcyclicGraph}; an edge that closes a cycle is
 * a conflict whose clause is "not all of the choices on that cycle" (the known and adopted edges on it
 * take no part). Learnt clauses are kept (no deletion); the cycles' clauses are the lemmas an
 * unsatisfiable answer rests on ({@link #lemmas}).
 *
 * <p>Variable {@code i} is constraint {@code vars[i]}; true means its lower node's writes come first.
 * Literal {@code 2i} is "true", {@code 2i+1} "false". Budget: {@code maxConflicts} conflicts; past it the
 * answer is {@link Outcome#BUDGET}. Deterministic: no randomness, no clock.
 */
final class ChoiceSolver {
  /** How a search ended. */
  enum Outcome {
    /** Every constraint chosen, the graph acyclic ({@link #value}). */
    SATISFIABLE,
    /** No choice makes the graph acyclic ({@link #lemmas}). */
    UNSATISFIABLE,
    /** The conflict budget ran out. */
    BUDGET
  }

  private final Polygraph g;
  private final Lifting lifting;
  private final AcyclicGraph graph;
  private final int[] vars;
  private final int[] varOfConstraint;
  private final int m;
  private final byte[] assign;
  private final boolean[] phase;
  private final int[] level;
  private final int[] reason;
  private final int[] edgesAdded;
  private final double[] activity;
  /** Unassigned (and some assigned) variables by activity. */
  private final ActivityHeap order;
  private double bump = 1;
  private final IntArrayList trail = new IntArrayList();
  private final IntArrayList trailLim = new IntArrayList();
  private int qhead;
  private final ObjectArrayList<int[]> clauses = new ObjectArrayList<>();
  private final IntArrayList[] watches;
  private final ObjectArrayList<int[]> lemmas = new ObjectArrayList<>();
  private final boolean[] seen;
  private long conflicts;
  /** A theory conflict met while asserting a learnt literal, returned by the next propagation. */
  private int[] pending;

  /**
   * @param graph holds the known and adopted edges; the search adds and removes its own above them
   * @param vars the constraints to choose, each once
   * @param varOfConstraint for each constraint of {@code g}, its index in {@code vars}, or -1 if it is
   *     decided already (its edges are in {@code graph})
   */
  ChoiceSolver(Polygraph g, Lifting lifting, AcyclicGraph graph, int[] vars, int[] varOfConstraint) {
    this.g = g;
    this.lifting = lifting;
    this.graph = graph;
    this.vars = vars;
    this.varOfConstraint = varOfConstraint;
    this.m = vars.length;
    assign = new byte[m];
    Arrays.fill(assign, (byte) -1);
    phase = new boolean[m];
    Arrays.fill(phase, true);
    level = new int[m];
    reason = new int[m];
    edgesAdded = new int[m];
    activity = new double[m];
    order = new ActivityHeap(activity);
    seen = new boolean[m];
    watches = new IntArrayList[2 * m];
    for (int i = 0; i < 2 * m; i++) {
      watches[i] = new IntArrayList();
    }
  }

  /**
   * Searches.
   *
   * @param maxConflicts the budget
   * @return the outcome; after {@link Outcome#SATISFIABLE} the graph holds the chosen edges
   */
  Outcome solve(long maxConflicts) {
    long restart = 1;
    long nextRestart = 100;
    while (true) {
      int[] conflict = propagate();
      if (conflict != null) {
        conflicts++;
        if (trailLim.isEmpty()) {
          return Outcome.UNSATISFIABLE;
        }
        int[] learnt = analyze(conflict);
        backtrack(backjumpLevel(learnt));
        if (learnt.length > 1) {
          clauses.add(learnt);
          int ci = clauses.size() - 1;
          watches[learnt[0] ^ 1].add(ci);
          watches[learnt[1] ^ 1].add(ci);
          conflict = assign(learnt[0], ci);
        } else {
          conflict = assign(learnt[0], -1);
        }
        if (conflict != null) {
          // The asserted literal closes a cycle at once: handled as the next conflict.
          pending = conflict;
        }
        bump *= 1.05;
        if (conflicts >= maxConflicts) {
          return Outcome.BUDGET;
        }
        if (pending == null && conflicts >= nextRestart) {
          restart++;
          nextRestart = conflicts + 100 * luby(restart);
          backtrack(0);
        }
        continue;
      }
      int v = pick();
      if (v < 0) {
        return Outcome.SATISFIABLE;
      }
      trailLim.add(trail.size());
      pending = assign(phase[v] ? 2 * v : 2 * v + 1, -1);
    }
  }

  /** @return conflicts met so far */
  long conflicts() {
    return conflicts;
  }

  /** @return after {@link Outcome#SATISFIABLE}: whether variable {@code i} chose "lower first" */
  boolean value(int i) {
    return assign[i] == 1;
  }

  /** @return the cycles met, each as its edges (labels of the polygraph), in the order met */
  ObjectArrayList<int[]> lemmas() {
    return lemmas;
  }

  /** Unit propagation over the learnt clauses; a theory conflict met while assigning comes first. */
  private int[] propagate() {
    if (pending != null) {
      int[] c = pending;
      pending = null;
      return c;
    }
    while (qhead < trail.size()) {
      int lit = trail.getInt(qhead++);
      int falseLit = lit ^ 1;
      IntArrayList ws = watches[lit];
      // Clauses watching `falseLit` are stored under `lit` (index by the literal whose truth
      // falsifies the watch): see where watches are added (learnt[k] ^ 1).
      int i = 0;
      int j = 0;
      int n = ws.size();
      int[] result = null;
      while (i < n) {
        int ci = ws.getInt(i++);
        int[] c = clauses.get(ci);
        if (c[0] == falseLit) {
          c[0] = c[1];
          c[1] = falseLit;
        }
        if (isTrue(c[0])) {
          ws.set(j++, ci);
          continue;
        }
        boolean moved = false;
        for (int k = 2; k < c.length; k++) {
          if (!isFalse(c[k])) {
            c[1] = c[k];
            c[k] = falseLit;
            watches[c[1] ^ 1].add(ci);
            moved = true;
            break;
          }
        }
        if (moved) {
          continue;
        }
        ws.set(j++, ci);
        if (isFalse(c[0])) {
          result = c;
          while (i < n) {
            ws.set(j++, ws.getInt(i++));
          }
          break;
        }
        int[] theory = assign(c[0], ci);
        if (theory != null) {
          result = theory;
          while (i < n) {
            ws.set(j++, ws.getInt(i++));
          }
          break;
        }
      }
      ws.size(j);
      if (result != null) {
        return result;
      }
    }
    return null;
  }

  /**
   * Assigns a literal and adds its alternative's edges.
   *
   * @return {@code null}, or the clause of the cycle an edge closed (all its literals false); the
   *     literal stays assigned with none of its edges in the graph
   */
  private int[] assign(int lit, int why) {
    int v = lit >> 1;
    boolean value = (lit & 1) == 0;
    assign[v] = (byte) (value ? 1 : 0);
    level[v] = trailLim.size();
    reason[v] = why;
    trail.add(lit);
    int end = g.alternativeEnd(vars[v], value);
    int added = 0;
    for (int i = g.alternativeStart(vars[v], value); i < end; i++) {
      int e = g.alternativeEdge(i);
      int[] cycle = lifting.add(g, graph, e);
      if (cycle != null) {
        for (int k = 0; k < added; k++) {
          graph.removeLast();
        }
        edgesAdded[v] = 0;
        return cycleClause(cycle);
      }
      added += lifting.edges(g, e);
    }
    edgesAdded[v] = added;
    return null;
  }

  /** The clause "not all of these choices", from a cycle's edge labels; records the lemma. */
  private int[] cycleClause(int[] cycle) {
    IntArrayList lits = new IntArrayList();
    for (int e : cycle) {
      int c = g.constraintOf(e);
      if (c < 0) {
        continue;
      }
      int v = varOfConstraint[c];
      if (v < 0 || seen[v]) {
        continue;
      }
      seen[v] = true;
      lits.add(assign[v] == 1 ? 2 * v + 1 : 2 * v);
    }
    for (int i = 0; i < lits.size(); i++) {
      seen[lits.getInt(i) >> 1] = false;
    }
    lemmas.add(cycle);
    return lits.toIntArray();
  }

  /** First-UIP learning; the asserting literal comes first, one of the highest level second. */
  private int[] analyze(int[] conflict) {
    IntArrayList learnt = new IntArrayList();
    learnt.add(-1);
    int current = trailLim.size();
    int counter = 0;
    int[] clause = conflict;
    int pivot = -1;
    int idx = trail.size() - 1;
    while (true) {
      for (int q : clause) {
        int v = q >> 1;
        if (v == pivot || seen[v] || level[v] == 0) {
          continue;
        }
        seen[v] = true;
        bumpActivity(v);
        if (level[v] == current) {
          counter++;
        } else {
          learnt.add(q);
        }
      }
      while (!seen[trail.getInt(idx) >> 1]) {
        idx--;
      }
      int p = trail.getInt(idx--);
      pivot = p >> 1;
      seen[pivot] = false;
      counter--;
      if (counter == 0) {
        learnt.set(0, p ^ 1);
        break;
      }
      clause = clauses.get(reason[pivot]);
    }
    for (int i = 1; i < learnt.size(); i++) {
      seen[learnt.getInt(i) >> 1] = false;
    }
    int[] out = learnt.toIntArray();
    int best = 1;
    for (int i = 2; i < out.length; i++) {
      if (level[out[i] >> 1] > level[out[best] >> 1]) {
        best = i;
      }
    }
    if (out.length > 1) {
      int t = out[1];
      out[1] = out[best];
      out[best] = t;
    }
    return out;
  }

  private int backjumpLevel(int[] learnt) {
    return learnt.length > 1 ? level[learnt[1] >> 1] : 0;
  }

  private void backtrack(int to) {
    if (trailLim.size() <= to) {
      return;
    }
    int start = trailLim.getInt(to);
    for (int i = trail.size() - 1; i >= start; i--) {
      int v = trail.getInt(i) >> 1;
      for (int k = 0; k < edgesAdded[v]; k++) {
        graph.removeLast();
      }
      edgesAdded[v] = 0;
      phase[v] = assign[v] == 1;
      assign[v] = -1;
      order.insert(v);
    }
    trail.size(start);
    trailLim.size(to);
    qhead = start;
    pending = null;
  }

  private void bumpActivity(int v) {
    activity[v] += bump;
    order.raised(v);
    if (activity[v] > 1e100) {
      for (int i = 0; i < m; i++) {
        activity[i] *= 1e-100;
      }
      bump *= 1e-100;
    }
  }

  /** @return the unassigned variable of highest activity, or -1 (VSIDS order, Chaff, DAC 2001) */
  private int pick() {
    while (!order.isEmpty()) {
      int v = order.removeTop();
      if (assign[v] < 0) {
        return v;
      }
    }
    return -1;
  }

  private boolean isTrue(int lit) {
    byte a = assign[lit >> 1];
    return a >= 0 && (a == 1) == ((lit & 1) == 0);
  }

  private boolean isFalse(int lit) {
    byte a = assign[lit >> 1];
    return a >= 0 && (a == 1) != ((lit & 1) == 0);
  }

  /**
   * The Luby sequence 1, 1, 2, 1, 1, 2, 4, ... (Luby, Sinclair &amp; Zuckerman, IPL 1993).
   *
   * @param i the position, from 1
   */
  static long luby(long i) {
    while (true) {
      int k = 1;
      while ((1L << k) - 1 < i) {
        k++;
      }
      if (i == (1L << k) - 1) {
        return 1L << (k - 1);
      }
      i -= (1L << (k - 1)) - 1;
    }
  }
}
