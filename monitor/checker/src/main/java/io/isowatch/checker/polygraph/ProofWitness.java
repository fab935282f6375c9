package io.isowatch.checker.polygraph;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.EdgeType;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import it.unimi.dsi.fastutil.ints.Int2LongOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@link Proof} as a {@link Violation}, worded like every other witness: a cycle of known edges is
 * a plain cycle; any other proof becomes cases ({@link Witness#cases()}), each with the orders it
 * assumes and the cycle they close. A pruning step assumes its own order and the orders earlier
 * steps forced that its cycle uses; a case of a small core assumes one order of every pair.
 *
 * <p><b>Anomaly.</b> A lost update when two transactions of the core both read one version of a key
 * (or both its initial value) and both write it (Berenson et al., SIGMOD 1995, P4; forbidden from
 * snapshot isolation up). Otherwise by the cycles' {@code rw} edges, as Adya names cycles (Adya, MIT
 * 1999, §4.2–4.4; Cerone &amp; Gotsman, PODC 2016, for snapshot isolation): if some cycle has two
 * consecutive {@code rw} edges, G2-item, which only serializable forbids; else if some cycle has two
 * or more, G-nonadjacent; else G-single. The last two are snapshot isolation's: when every cycle of a
 * proof is one that snapshot isolation forbids, the same proof refutes snapshot isolation, so the
 * weakest level broken is snapshot isolation even when serializable was asked.
 */
final class ProofWitness {
  private ProofWitness() {}

  /**
   * @param h the history the proof is about
   * @param p the proof
   * @param checked the level the polygraph was built for
   * @return the violation
   */
  static Violation of(History h, Proof p, Level checked) {
    if (p.kind() == Proof.Kind.KNOWN_CYCLE) {
      List<Edge> cycle = edges(h, p.cycles().get(0));
      Anomaly a = byCycles(List.of(cycle));
      return new Violation(a, level(a, checked), new Witness(txns(cycle), List.of(), cycle));
    }
    List<Witness.Case> cases = new ArrayList<>();
    switch (p.kind()) {
      case PRUNING -> {
        for (Proof.Step s : p.steps()) {
          cases.add(caseOf(h, List.of(new Witness.Order(s.first(), s.second())), s.cycle()));
        }
      }
      case CASES -> {
        for (Proof.Case c : p.cases()) {
          List<Witness.Order> orders = new ArrayList<>();
          for (Proof.Order o : c.orders()) {
            orders.add(new Witness.Order(o.first(), o.second()));
          }
          cases.add(new Witness.Case(orders, edges(h, c.cycle())));
        }
      }
      default -> {
        for (Proof.Step s : p.steps()) {
          cases.add(caseOf(h, List.of(new Witness.Order(s.first(), s.second())), s.cycle()));
        }
        for (List<Proof.ProofEdge> cycle : p.cycles()) {
          cases.add(caseOf(h, List.of(), cycle));
        }
      }
    }
    List<List<Edge>> cycles = new ArrayList<>();
    Set<Integer> txns = new LinkedHashSet<>();
    for (Proof.Order o : p.core()) {
      txns.add(o.first());
      txns.add(o.second());
    }
    for (Witness.Case c : cases) {
      cycles.add(c.cycle());
      txns.addAll(txns(c.cycle()));
    }
    Anomaly a = lostUpdate(h, p.core()) ? Anomaly.LOST_UPDATE : byCycles(cycles);
    return new Violation(a, level(a, checked), new Witness(List.copyOf(txns), List.of(), List.of(), List.of(), cases));
  }

  /** The case of a cycle: {@code first} orders, then the other orders its chosen edges rest on. */
  private static Witness.Case caseOf(History h, List<Witness.Order> first, List<Proof.ProofEdge> cycle) {
    Set<Witness.Order> orders = new LinkedHashSet<>(first);
    for (Proof.ProofEdge e : cycle) {
      if (e.chosen()) {
        orders.add(e.type() == EdgeType.WW ? new Witness.Order(e.from(), e.to()) : new Witness.Order(e.via(), e.to()));
      }
    }
    return new Witness.Case(List.copyOf(orders), edges(h, cycle));
  }

  private static List<Edge> edges(History h, List<Proof.ProofEdge> cycle) {
    List<Edge> out = new ArrayList<>(cycle.size());
    for (Proof.ProofEdge e : cycle) {
      Because because;
      long value = e.value();
      if (e.chosen()) {
        because = Because.CHOSEN_ORDER;
      } else {
        because = switch (e.type()) {
          case SO -> Because.SESSION_ORDER;
          case WR -> Because.READS_FROM;
          case WW -> Because.VERSION_ORDER;
          default -> Because.ANTI_DEPENDENCY;
        };
        if (e.type() == EdgeType.RW) {
          value = lastWrite(h, e.to(), e.key());
        }
      }
      out.add(new Edge(e.from(), e.to(), e.type(), because, e.key(), value, e.chosen() ? e.via() : -1));
    }
    return out;
  }

  private static List<Integer> txns(List<Edge> cycle) {
    List<Integer> out = new ArrayList<>();
    for (Edge e : cycle) {
      out.add(e.from());
    }
    return out;
  }

  private static long lastWrite(History h, int t, int key) {
    long v = History.NIL;
    for (int op = h.opStart(t); op < h.opEnd(t); op++) {
      if (h.opKind(op) == OpKind.WRITE && h.opKey(op) == key) {
        v = h.opValue(op);
      }
    }
    return v;
  }

  private static Anomaly byCycles(List<List<Edge>> cycles) {
    int most = 0;
    boolean adjacent = false;
    for (List<Edge> c : cycles) {
      int rw = 0;
      for (int i = 0; i < c.size(); i++) {
        if (c.get(i).type() == EdgeType.RW) {
          rw++;
          adjacent |= c.get((i + 1) % c.size()).type() == EdgeType.RW && c.size() > 1;
        }
      }
      most = Math.max(most, rw);
    }
    if (adjacent) {
      return Anomaly.G2_ITEM;
    }
    return most >= 2 ? Anomaly.G_NONADJACENT : most == 1 ? Anomaly.G_SINGLE : Anomaly.G1C;
  }

  private static Level level(Anomaly a, Level checked) {
    return a == Anomaly.G2_ITEM ? Level.SERIALIZABLE : checked.compareTo(Level.SNAPSHOT_ISOLATION) < 0 ? checked
        : Level.SNAPSHOT_ISOLATION;
  }

  /**
   * Two transactions of the core that read one version of a key (or its initial value) as their
   * first operation on it, and write it. O(operations of the core's transactions).
   */
  private static boolean lostUpdate(History h, List<Proof.Order> core) {
    for (Proof.Order o : core) {
      Int2LongOpenHashMap readsFirst = firstReads(h, o.second());
      IntOpenHashSet writesFirst = writtenKeys(h, o.first());
      IntOpenHashSet writesSecond = writtenKeys(h, o.second());
      Int2LongOpenHashMap own = firstReads(h, o.first());
      for (var e : own.int2LongEntrySet()) {
        int k = e.getIntKey();
        if (readsFirst.containsKey(k) && readsFirst.get(k) == e.getLongValue() && writesFirst.contains(k)
            && writesSecond.contains(k)) {
          return true;
        }
      }
    }
    return false;
  }

  /** @return per key whose first operation in {@code t} is a read of a known value, that value */
  private static Int2LongOpenHashMap firstReads(History h, int t) {
    Int2LongOpenHashMap out = new Int2LongOpenHashMap();
    IntOpenHashSet seen = new IntOpenHashSet();
    for (int op = h.opStart(t); op < h.opEnd(t); op++) {
      if (seen.add(h.opKey(op)) && h.opKind(op) == OpKind.READ && h.opValue(op) != History.UNKNOWN_VALUE) {
        out.put(h.opKey(op), h.opValue(op));
      }
    }
    return out;
  }

  /** @return the keys {@code t} writes */
  private static IntOpenHashSet writtenKeys(History h, int t) {
    IntOpenHashSet out = new IntOpenHashSet();
    for (int op = h.opStart(t); op < h.opEnd(t); op++) {
      if (h.opKind(op) == OpKind.WRITE) {
        out.add(h.opKey(op));
      }
    }
    return out;
  }
}
