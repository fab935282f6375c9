package io.isowatch.checker.adya;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.witness.EdgeType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A slow, literal reference for the cycle classes of a small list-append history: builds the
 * dependency graph from the definitions with boxed collections, enumerates every simple cycle
 * (each once, from its least transaction), and classifies every choice of one typed edge per step.
 * Exponential; for histories of a handful of transactions only.
 */
public final class SlowAdya {
  private final History h;
  /** (from, to) -> the edge types between them. */
  private final Map<List<Integer>, EnumSet<EdgeType>> edges = new HashMap<>();
  private final Map<Integer, Set<Integer>> out = new HashMap<>();

  private SlowAdya(History h, boolean so) {
    this.h = h;
    build(so);
  }

  /** @return every cycle class present in the history's dependency graph */
  public static Set<Anomaly> cycleClasses(History h, boolean so) {
    SlowAdya s = new SlowAdya(h, so);
    Set<Anomaly> found = EnumSet.noneOf(Anomaly.class);
    for (int start = 0; start < h.txnCount(); start++) {
      List<Integer> path = new ArrayList<>();
      path.add(start);
      s.extend(path, found);
    }
    return found;
  }

  private void link(int from, int to, EdgeType type) {
    if (from != to) {
      edges.computeIfAbsent(List.of(from, to), k -> EnumSet.noneOf(EdgeType.class)).add(type);
      out.computeIfAbsent(from, k -> new LinkedHashSet<>()).add(to);
    }
  }

  private boolean committed(int t) {
    return h.status(t) == TxnStatus.COMMITTED;
  }

  private List<Long> list(int op) {
    List<Long> l = new ArrayList<>();
    for (int i = 0; i < h.listLength(op); i++) {
      l.add(h.listElement(op, i));
    }
    return l;
  }

  /** Equally long reads: the least element by element is the key's order, whatever the history order. */
  private static boolean lexicographicallyLess(List<Long> a, List<Long> b) {
    for (int i = 0; i < a.size(); i++) {
      int c = Long.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c < 0;
      }
    }
    return false;
  }

  private void build(boolean so) {
    Map<Integer, Map<Long, Integer>> appender = new HashMap<>();
    Map<Integer, List<Long>> longest = new HashMap<>();
    for (int op = 0; op < h.opCount(); op++) {
      int k = h.opKey(op);
      int t = h.opTxn(op);
      if (h.opKind(op) == OpKind.APPEND) {
        appender.computeIfAbsent(k, x -> new HashMap<>()).put(h.opValue(op), t);
      } else if (h.opKind(op) == OpKind.READ_LIST && h.listKnown(op) && committed(t)) {
        List<Long> l = list(op);
        List<Long> best = longest.get(k);
        if (best == null || l.size() > best.size() || l.size() == best.size() && lexicographicallyLess(l, best)) {
          longest.put(k, l);
        }
      }
    }
    Map<Integer, List<Integer>> runs = new HashMap<>();
    Map<Integer, Map<Long, Integer>> runOf = new HashMap<>();
    Map<Integer, Set<Integer>> unobserved = new HashMap<>();
    for (int k = 0; k < h.keyCount(); k++) {
      List<Integer> r = new ArrayList<>();
      Map<Long, Integer> ro = new HashMap<>();
      Map<Long, Integer> app = appender.getOrDefault(k, Map.of());
      List<Long> order = new ArrayList<>(new LinkedHashSet<>(longest.getOrDefault(k, List.of())));
      for (long e : order) {
        Integer w = app.get(e);
        if (w == null || h.status(w) == TxnStatus.ABORTED) {
          continue;
        }
        if (r.isEmpty() || r.get(r.size() - 1) != (int) w) {
          r.add(w);
        }
        ro.put(e, r.size() - 1);
      }
      Set<Integer> u = new LinkedHashSet<>();
      for (Map.Entry<Long, Integer> a : app.entrySet()) {
        if (!order.contains(a.getKey()) && committed(a.getValue())) {
          u.add(a.getValue());
        }
      }
      runs.put(k, r);
      runOf.put(k, ro);
      unobserved.put(k, u);
      for (int i = 0; i + 1 < r.size(); i++) {
        link(r.get(i), r.get(i + 1), EdgeType.WW);
      }
      if (!r.isEmpty()) {
        for (int x : u) {
          link(r.get(r.size() - 1), x, EdgeType.WW);
        }
      }
    }
    for (int op = 0; op < h.opCount(); op++) {
      int t = h.opTxn(op);
      if (h.opKind(op) != OpKind.READ_LIST || !h.listKnown(op) || !committed(t)) {
        continue;
      }
      int k = h.opKey(op);
      List<Long> l = list(op);
      List<Integer> r = runs.get(k);
      int next;
      int writer = -1;
      if (l.isEmpty()) {
        next = 0;
      } else {
        Integer w = appender.getOrDefault(k, Map.of()).get(l.get(l.size() - 1));
        if (w == null || h.status(w) == TxnStatus.ABORTED || w == t) {
          continue;
        }
        writer = w;
        link(w, t, EdgeType.WR);
        Integer run = runOf.get(k).get(l.get(l.size() - 1));
        if (run == null) {
          continue;
        }
        next = run + 1;
      }
      if (next < r.size()) {
        link(t, r.get(next), EdgeType.RW);
      } else {
        for (int x : unobserved.get(k)) {
          if (x != writer) {
            link(t, x, EdgeType.RW);
          }
        }
      }
    }
    if (so) {
      for (int s = 0; s < h.sessionCount(); s++) {
        int prev = -1;
        for (int t : h.sessionTxns(s)) {
          if (h.status(t) != TxnStatus.ABORTED) {
            if (prev >= 0) {
              link(prev, t, EdgeType.SO);
            }
            prev = t;
          }
        }
      }
    }
  }

  private void extend(List<Integer> path, Set<Anomaly> found) {
    int last = path.get(path.size() - 1);
    for (int w : out.getOrDefault(last, Set.of())) {
      if (w == path.get(0)) {
        List<Integer> cycle = new ArrayList<>(path);
        cycle.add(w);
        classifyAll(cycle, 0, new ArrayList<>(), found);
      } else if (w > path.get(0) && !path.contains(w)) {
        path.add(w);
        extend(path, found);
        path.remove(path.size() - 1);
      }
    }
  }

  private void classifyAll(List<Integer> cycle, int i, List<EdgeType> chosen, Set<Anomaly> found) {
    if (i == cycle.size() - 1) {
      found.add(classify(chosen));
      return;
    }
    for (EdgeType t : edges.get(List.of(cycle.get(i), cycle.get(i + 1)))) {
      chosen.add(t);
      classifyAll(cycle, i + 1, chosen, found);
      chosen.remove(chosen.size() - 1);
    }
  }

  /** Classifies a cycle by its edge types, in cycle order. */
  static Anomaly classify(List<EdgeType> types) {
    int rw = 0;
    boolean wr = false;
    boolean adjacent = false;
    for (int i = 0; i < types.size(); i++) {
      EdgeType t = types.get(i);
      rw += t == EdgeType.RW ? 1 : 0;
      wr |= t == EdgeType.WR;
      adjacent |= t == EdgeType.RW && types.get((i + 1) % types.size()) == EdgeType.RW;
    }
    if (rw == 0) {
      return wr ? Anomaly.G1C : Anomaly.G0;
    }
    if (rw == 1) {
      return Anomaly.G_SINGLE;
    }
    return adjacent ? Anomaly.G2_ITEM : Anomaly.G_NONADJACENT;
  }
}
