package io.isowatch.checker.polygraph;

import io.isowatch.checker.witness.EdgeType;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.ArrayList;
import java.util.List;

/**
 * Why no choice of the polygraph's constraints is acyclic, in terms of the history's transactions:
 * the evidence of a {@link io.isowatch.checker.level.Verdict#VIOLATED} answer.
 *
 * <ul>
 *   <li>{@link Kind#KNOWN_CYCLE}: the known edges alone close a cycle ({@link #cycles} holds it); no
 *       constraint is involved.
 *   <li>{@link Kind#PRUNING}: for a core of more than {@value #MAX_CASES_CORE} pairs that pruning
 *       refutes, a chain of forced choices. Each {@link Step} says: if this pair's writes
 *       came in this order, this cycle would close (its edges are known or chosen by earlier steps),
 *       so they come in the other order. The last two steps are one pair, both of whose orders close
 *       a cycle: a contradiction a person can follow step by step.
 *   <li>{@link Kind#CASES}: a core of at most {@value #MAX_CASES_CORE} pairs; {@link #cases} takes
 *       every combination of their orders and shows the cycle each closes, so that a person can
 *       check it by hand.
 *   <li>{@link Kind#SEARCH}: a larger core that pruning alone does not refute; {@link #steps} holds the
 *       forced choices the cycles rely on, {@link #cycles} the cycles of the search's conflicts (each
 *       closed by its choices), on which the unsatisfiability rests.
 * </ul>
 *
 * <p>Every proof but a known cycle is built on a minimal core ({@link CoreMinimizer}).
 *
 * @param kind which of the four
 * @param core the pairs of the core, as {@code first}/{@code second} of {@link Order}s in their
 *     lower-first orientation; empty for a known cycle
 * @param steps forced choices, in the order they were made
 * @param cases for {@link Kind#CASES}, every combination of the core's orders and its cycle
 * @param cycles cycles besides the steps' and cases' own
 */
public record Proof(Kind kind, List<Order> core, List<Step> steps, List<Case> cases, List<List<ProofEdge>> cycles) {
  /** The largest core whose every combination of orders is listed. */
  public static final int MAX_CASES_CORE = 6;

  /** Copies the lists. */
  public Proof {
    core = List.copyOf(core);
    steps = List.copyOf(steps);
    cases = List.copyOf(cases);
    cycles = cycles.stream().map(List::copyOf).toList();
  }

  /**
   * An order of a pair of transactions that write common keys: {@code first}'s writes of those keys
   * precede {@code second}'s.
   *
   * @param first a transaction id
   * @param second a transaction id
   */
  public record Order(int first, int second) {}

  /**
   * One combination of the core's orders and the cycle it closes.
   *
   * @param orders one order per pair of the core, in the core's order
   * @param cycle a cycle of known edges and edges of these orders
   */
  public record Case(List<Order> orders, List<ProofEdge> cycle) {
    /** Copies the lists. */
    public Case {
      orders = List.copyOf(orders);
      cycle = List.copyOf(cycle);
    }
  }

  /** The shape of the argument. */
  public enum Kind {
    /** A cycle of known edges. */
    KNOWN_CYCLE,
    /** Forced choices ending in a pair with no order left. */
    PRUNING,
    /** Every combination of a small core's orders closes a cycle. */
    CASES,
    /** The search's conflicts. */
    SEARCH
  }

  /**
   * One rejected order of a pair of transactions writing common keys.
   *
   * @param first the transaction whose writes this order puts first
   * @param second the other one
   * @param cycle the cycle this order closes, in order, each edge's target the next one's source
   */
  public record Step(int first, int second, List<ProofEdge> cycle) {
    /** Copies the list. */
    public Step {
      cycle = List.copyOf(cycle);
    }
  }

  /**
   * One edge of a cycle, between transactions of the history.
   *
   * @param from source transaction id
   * @param to target transaction id
   * @param type so, wr, ww or rw
   * @param key the key, -1 for so
   * @param value the value written or read that the edge rests on; {@link
   *     io.isowatch.checker.history.History#NIL} for the initial value or none
   * @param via for an rw edge of a choice: the transaction whose version {@code from} read; else -1
   * @param chosen whether the edge comes from a choice (a pair's order) rather than being known
   */
  public record ProofEdge(int from, int to, EdgeType type, int key, long value, int via, boolean chosen) {}

  static Proof knownCycle(Polygraph g, int[] cycle) {
    return new Proof(Kind.KNOWN_CYCLE, List.of(), List.of(), List.of(), List.of(edges(g, cycle)));
  }

  /**
   * The proof on a core: every combination of its orders if it is small, else a chain of forced
   * choices if pruning refutes it, else the search's cycles.
   *
   * @param core constraints whose known edges and alternatives admit no acyclic choice
   */
  static Proof onCore(Polygraph g, Lifting lifting, int[] core, long maxConflicts) {
    boolean[] active = new boolean[g.constraints()];
    List<Order> orders = new ArrayList<>();
    for (int c : core) {
      active[c] = true;
      orders.add(new Order(g.txn(g.first(c)), g.txn(g.second(c))));
    }
    if (core.length <= MAX_CASES_CORE) {
      return new Proof(Kind.CASES, orders, List.of(), cases(g, lifting, core), List.of());
    }
    Decision d = Decision.run(g, lifting, active, true, maxConflicts);
    if (d.outcome == Decision.Outcome.CONTRADICTION) {
      Pruning p = d.pruning;
      int c = p.contradiction();
      List<Step> steps = forcedSteps(g, p, List.of(p.rejectedCycle(c), p.contradictionCycle()));
      steps.add(new Step(g.txn(g.first(c)), g.txn(g.second(c)), edges(g, p.rejectedCycle(c))));
      steps.add(new Step(g.txn(g.second(c)), g.txn(g.first(c)), edges(g, p.contradictionCycle())));
      return new Proof(Kind.PRUNING, orders, steps, List.of(), List.of());
    }
    if (d.outcome != Decision.Outcome.UNSATISFIABLE) {
      throw new IllegalStateException("a core that is not refuted: " + d.outcome);
    }
    List<List<ProofEdge>> cycles = new ArrayList<>();
    for (int[] cycle : d.solver.lemmas()) {
      cycles.add(edges(g, cycle));
    }
    return new Proof(Kind.SEARCH, orders, forcedSteps(g, d.pruning, d.solver.lemmas()), List.of(), cycles);
  }


  /** Every combination of the core's orders, each with the cycle it closes. */
  private static List<Case> cases(Polygraph g, Lifting lifting, int[] core) {
    List<Case> out = new ArrayList<>();
    for (int mask = 0; mask < 1 << core.length; mask++) {
      AcyclicGraph graph = new AcyclicGraph(lifting.nodes(g.nodes()));
      int[] cycle = null;
      for (int e = 0; e < g.knownEdges() && cycle == null; e++) {
        cycle = lifting.add(g, graph, e);
      }
      List<Order> orders = new ArrayList<>();
      for (int i = 0; i < core.length; i++) {
        int c = core[i];
        boolean lowerFirst = (mask & (1 << i)) == 0;
        int a = g.txn(g.first(c));
        int b = g.txn(g.second(c));
        orders.add(lowerFirst ? new Order(a, b) : new Order(b, a));
        int end = g.alternativeEnd(c, lowerFirst);
        for (int k = g.alternativeStart(c, lowerFirst); k < end && cycle == null; k++) {
          cycle = lifting.add(g, graph, g.alternativeEdge(k));
        }
      }
      if (cycle == null) {
        throw new IllegalStateException("a combination of the core's orders closes no cycle");
      }
      out.add(new Case(orders, edges(g, cycle)));
    }
    return out;
  }

  /** The adopted choices the cycles rest on, and theirs in turn, in adoption order. */
  private static List<Step> forcedSteps(Polygraph g, Pruning p, List<int[]> cycles) {
    IntOpenHashSet needed = new IntOpenHashSet();
    IntArrayList todo = new IntArrayList();
    for (int[] cycle : cycles) {
      adopted(g, p, cycle, needed, todo);
    }
    while (!todo.isEmpty()) {
      adopted(g, p, p.rejectedCycle(todo.popInt()), needed, todo);
    }
    List<Step> steps = new ArrayList<>();
    IntArrayList order = p.adopted();
    for (int i = 0; i < order.size(); i++) {
      int c = order.getInt(i);
      if (needed.contains(c)) {
        boolean lowerFirstRejected = p.decided(c) == 0;
        int first = g.txn(lowerFirstRejected ? g.first(c) : g.second(c));
        int second = g.txn(lowerFirstRejected ? g.second(c) : g.first(c));
        steps.add(new Step(first, second, edges(g, p.rejectedCycle(c))));
      }
    }
    return steps;
  }

  private static void adopted(Polygraph g, Pruning p, int[] cycle, IntOpenHashSet needed, IntArrayList todo) {
    for (int e : cycle) {
      int c = g.constraintOf(e);
      if (c >= 0 && p.decided(c) != Pruning.OPEN && needed.add(c)) {
        todo.add(c);
      }
    }
  }

  private static List<ProofEdge> edges(Polygraph g, int[] cycle) {
    List<ProofEdge> out = new ArrayList<>(cycle.length);
    for (int e : cycle) {
      int via = g.via(e);
      out.add(new ProofEdge(g.txn(g.from(e)), g.txn(g.to(e)), g.edgeType(e), g.key(e), g.value(e),
          via < 0 ? -1 : g.txn(via), g.constraintOf(e) >= 0));
    }
    return out;
  }
}
