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
 *   <li>{@link Kind#PRUNING}: a chain of forced choices. Each {@link Step} says: if this pair's writes
 *       came in this order, this cycle would close (its edges are known or chosen by earlier steps),
 *       so they come in the other order. The last two steps are one pair, both of whose orders close
 *       a cycle: a contradiction a person can follow step by step.
 *   <li>{@link Kind#SEARCH}: the search met only conflicts; {@link #steps} holds the forced choices the
 *       cycles rely on, {@link #cycles} the cycles of the search's conflicts (each closed by its
 *       choices), on which the unsatisfiability rests.
 * </ul>
 *
 * @param kind which of the three
 * @param steps forced choices, in the order they were made
 * @param cycles cycles besides the steps' own
 */
public record Proof(Kind kind, List<Step> steps, List<List<ProofEdge>> cycles) {
  /** Copies the lists. */
  public Proof {
    steps = List.copyOf(steps);
    cycles = cycles.stream().map(List::copyOf).toList();
  }

  /** The shape of the argument. */
  public enum Kind {
    /** A cycle of known edges. */
    KNOWN_CYCLE,
    /** Forced choices ending in a pair with no order left. */
    PRUNING,
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
    return new Proof(Kind.KNOWN_CYCLE, List.of(), List.of(edges(g, cycle)));
  }

  static Proof contradiction(Polygraph g, Pruning p) {
    int c = p.contradiction();
    List<int[]> finalCycles = List.of(p.rejectedCycle(c), p.contradictionCycle());
    List<Step> steps = forcedSteps(g, p, finalCycles);
    steps.add(new Step(g.txn(g.first(c)), g.txn(g.second(c)), edges(g, p.rejectedCycle(c))));
    steps.add(new Step(g.txn(g.second(c)), g.txn(g.first(c)), edges(g, p.contradictionCycle())));
    return new Proof(Kind.PRUNING, steps, List.of());
  }

  static Proof search(Polygraph g, Pruning p, ObjectArrayList<int[]> lemmas) {
    List<Step> steps = forcedSteps(g, p, lemmas);
    List<List<ProofEdge>> cycles = new ArrayList<>();
    for (int[] cycle : lemmas) {
      cycles.add(edges(g, cycle));
    }
    return new Proof(Kind.SEARCH, steps, cycles);
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
