package io.isowatch.checker.polygraph;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.EdgeType;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Re-checks a {@link Proof} against the history alone, as a person would: every cycle closes, has no
 * two consecutive rw edges at snapshot isolation, and each of its edges holds in the history given the
 * orders the step or case assumes; the cases cover every combination of the core's orders; each
 * pruning step assumes only its own order and the orders earlier steps forced; the last two steps are
 * one pair, both orders.
 */
final class ProofVerifier {
  private ProofVerifier() {}

  /** @return {@code null} if the proof holds, else what is wrong */
  static String check(History h, Proof p, Level level, boolean sessionOrder) {
    switch (p.kind()) {
      case KNOWN_CYCLE:
        return cycle(h, p.cycles().get(0), Set.of(), level, sessionOrder);
      case CASES: {
        Set<Set<Proof.Order>> combos = new HashSet<>();
        for (Proof.Case c : p.cases()) {
          if (c.orders().size() != p.core().size()) {
            return "a case does not order every pair of the core";
          }
          Set<Proof.Order> assumed = new HashSet<>(c.orders());
          combos.add(assumed);
          String wrong = cycle(h, c.cycle(), assumed, level, sessionOrder);
          if (wrong != null) {
            return wrong;
          }
        }
        return combos.size() == 1 << p.core().size() ? null : "the cases do not cover every combination";
      }
      case PRUNING: {
        Set<Proof.Order> forced = new HashSet<>();
        List<Proof.Step> steps = p.steps();
        for (int i = 0; i < steps.size(); i++) {
          Proof.Step s = steps.get(i);
          Set<Proof.Order> assumed = new HashSet<>(forced);
          assumed.add(new Proof.Order(s.first(), s.second()));
          String wrong = cycle(h, s.cycle(), assumed, level, sessionOrder);
          if (wrong != null) {
            return "step " + (i + 1) + ": " + wrong;
          }
          if (i < steps.size() - 2) {
            forced.add(new Proof.Order(s.second(), s.first()));
          }
        }
        Proof.Step a = steps.get(steps.size() - 2);
        Proof.Step b = steps.get(steps.size() - 1);
        return a.first() == b.second() && a.second() == b.first() ? null : "the last two steps are not one pair";
      }
      default:
        for (List<Proof.ProofEdge> c : p.cycles()) {
          if (!closes(c)) {
            return "a search cycle does not close";
          }
        }
        return null;
    }
  }

  private static boolean closes(List<Proof.ProofEdge> c) {
    for (int i = 0; i < c.size(); i++) {
      if (c.get(i).to() != c.get((i + 1) % c.size()).from()) {
        return false;
      }
    }
    return !c.isEmpty();
  }

  private static String cycle(History h, List<Proof.ProofEdge> c, Set<Proof.Order> assumed, Level level,
      boolean sessionOrder) {
    if (!closes(c)) {
      return "the cycle does not close: " + c;
    }
    for (int i = 0; i < c.size(); i++) {
      Proof.ProofEdge e = c.get(i);
      if (level == Level.SNAPSHOT_ISOLATION && e.type() == EdgeType.RW
          && c.get((i + 1) % c.size()).type() == EdgeType.RW) {
        return "two consecutive rw edges at snapshot isolation";
      }
      String wrong = edge(h, e, assumed, sessionOrder);
      if (wrong != null) {
        return wrong + ": " + e;
      }
    }
    return null;
  }

  private static String edge(History h, Proof.ProofEdge e, Set<Proof.Order> assumed, boolean sessionOrder) {
    if (!CommitOrderBruteForce.countsAsCommitted(h, e.from()) || !CommitOrderBruteForce.countsAsCommitted(h, e.to())) {
      return "an edge between transactions not both committed";
    }
    switch (e.type()) {
      case SO:
        return sessionOrder && h.sessionOf(e.from()) == h.sessionOf(e.to())
            && h.sessionIndex(e.from()) < h.sessionIndex(e.to()) ? null : "not session order";
      case WR:
        return reads(h, e.to(), e.key(), e.from()) ? null : "not a read of the source's write";
      case WW:
        return writes(h, e.from(), e.key()) && writes(h, e.to(), e.key())
            && assumed.contains(new Proof.Order(e.from(), e.to())) ? null : "ww not assumed";
      default:
        if (!writes(h, e.to(), e.key())) {
          return "rw to a transaction that does not write the key";
        }
        if (e.via() < 0) {
          return reads(h, e.from(), e.key(), -1) ? null : "rw without a read of the initial value";
        }
        return reads(h, e.from(), e.key(), e.via()) && assumed.contains(new Proof.Order(e.via(), e.to()))
            ? null : "rw not from a read of an earlier version";
    }
  }

  private static boolean writes(History h, int t, int key) {
    return CommitOrderBruteForce.finalWrite(h, t, key) != Long.MAX_VALUE;
  }

  /** @return whether t's first operation on key is a read of writer's final write (-1: the initial value) */
  private static boolean reads(History h, int t, int key, int writer) {
    for (int op = h.opStart(t); op < h.opEnd(t); op++) {
      if (h.opKey(op) == key) {
        if (h.opKind(op) != OpKind.READ) {
          return false;
        }
        long expected = writer < 0 ? History.NIL : CommitOrderBruteForce.finalWrite(h, writer, key);
        return h.opValue(op) == expected && (writer < 0 || writer != t);
      }
    }
    return false;
  }
}
