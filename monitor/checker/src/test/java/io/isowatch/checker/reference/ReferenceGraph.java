package io.isowatch.checker.reference;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.reference.ReferenceReads.Read;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.EdgeType;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The graph of {@code notes/semantics.md} §5–§6 on adjacency matrices: nodes are the transactions
 * {@code 0..n-1} that are not aborted plus INIT at index {@code n}; edges {@code so} (consecutive
 * nodes of a session), INIT to every node, {@code wr} and {@code co'}. At most one edge is kept per
 * ordered pair, the one whose reason needs the weakest level. Built by {@link
 * ReferenceChecker#graph}; tests check the fast checkers' witnesses against it with {@link
 * #holds}. O(n^2) space, O(n^3) time to build.
 */
public final class ReferenceGraph {
  private static final int INIT = ReferenceReads.INIT;
  private final History h;
  private final Level level;
  private final List<Read> reads;
  private final List<ReferenceReads.Order> orders;
  private final int n;
  private final Edge[][] edge;
  /** The transactions that count as committed ({@link ReferenceReads#counted}). */
  private final boolean[] counted;
  /** {@code (so ∪ wr)+} for causal consistency, all false at the weaker levels. */
  private final boolean[][] causal;

  ReferenceGraph(History h, Level level, List<Read> reads) {
    this.h = h;
    this.level = level;
    this.reads = reads;
    this.orders = ReferenceReads.orders(h, reads);
    this.n = h.txnCount();
    this.counted = ReferenceReads.counted(h);
    this.edge = new Edge[n + 1][n + 1];
    for (int s = 0; s < h.sessionCount(); s++) {
      int prev = -1;
      for (int t : h.sessionTxns(s)) {
        if (ReferenceReads.isNode(h, t)) {
          if (prev >= 0) {
            add(new Edge(prev, t, EdgeType.SO, Because.SESSION_ORDER, -1, History.NIL, -1));
          }
          prev = t;
        }
      }
    }
    for (int t = 0; t < n; t++) {
      if (ReferenceReads.isNode(h, t)) {
        add(new Edge(ReferenceReads.INIT, t, EdgeType.SO, Because.SESSION_ORDER, -1, History.NIL, -1));
      }
    }
    for (Read r : reads) {
      if (r.external()) {
        add(new Edge(r.writerTxn(), r.txn(), EdgeType.WR, Because.READS_FROM, r.key(), r.value(), -1));
      }
    }
    for (ReferenceReads.Order o : orders) {
      add(new Edge(o.from(), o.to(), EdgeType.WW, Because.VERSION_ORDER, o.key(), o.value(), o.reader()));
    }
    causal = level == Level.CAUSAL ? causalPast() : new boolean[n][n];
    saturate();
  }

  private int index(int txn) {
    return txn == ReferenceReads.INIT ? n : txn;
  }

  private void add(Edge e) {
    Edge old = edge[index(e.from())][index(e.to())];
    if (old == null || e.because().level().compareTo(old.because().level()) < 0) {
      edge[index(e.from())][index(e.to())] = e;
    }
  }

  /**
   * §5: every (t3, r, t2) triple, r a version read, the premise tested literally; {@code t2} only a
   * transaction that counts as committed ({@link ReferenceReads#counted}).
   */
  private void saturate() {
    for (Read r : reads) {
      if (!r.external() || !r.version()) {
        continue;
      }
      int t3 = r.txn();
      int t1 = r.writerTxn();
      for (int t2 = 0; t2 < n; t2++) {
        if (t2 == t1 || t2 == t3 || !ReferenceReads.isNode(h, t2) || !counted[t2]
            || !ReferenceReads.writes(h, t2, r.key())) {
          continue;
        }
        for (Because why : PREMISES) {
          if (why.level().compareTo(level) <= 0 && premiseHolds(why, t3, r, t2)) {
            add(new Edge(t2, t1, EdgeType.CO, why, r.key(), r.value(), t3));
            break;
          }
        }
      }
    }
  }

  /** The premises of §5, weakest level first. */
  private static final Because[] PREMISES = {Because.READ_EARLIER, Because.SESSION_PREDECESSOR,
      Because.READ_FROM_WRITER, Because.CAUSAL_PAST};

  /** @return whether premise {@code why} of §5 puts {@code t2} before the writer of {@code t3}'s read {@code r} */
  private boolean premiseHolds(Because why, int t3, Read r, int t2) {
    switch (why) {
      case READ_EARLIER:
      case READ_FROM_WRITER:
        for (Read r2 : reads) {
          if (r2.txn() == t3 && r2.external() && r2.writerTxn() == t2
              && (why == Because.READ_FROM_WRITER || r2.op() < r.op())) {
            return true;
          }
        }
        return false;
      case SESSION_PREDECESSOR:
        return h.sessionOf(t2) == h.sessionOf(t3) && h.sessionIndex(t2) < h.sessionIndex(t3);
      case CAUSAL_PAST:
        return causal[t2][t3];
      default:
        return false;
    }
  }

  /**
   * Checks one edge of a witness against the definitions: {@code so} between nodes of one session
   * in order (or from INIT), {@code wr} from a valid external read of the key (or run of a list),
   * {@code ww} from a version order a list read of {@code via} shows, {@code co} from a
   * valid external read of the key by {@code via} whose premise {@code because} holds at this level,
   * its source a transaction that counts as committed ({@link ReferenceReads#counted}).
   *
   * @param e an edge as a checker reports it
   * @return whether the edge is one of this level's graph, for the reason it gives
   */
  public boolean holds(Edge e) {
    int a = e.from();
    int b = e.to();
    if (e.type() == EdgeType.SO) {
      boolean nodes = b >= 0 && ReferenceReads.isNode(h, b) && (a == INIT || ReferenceReads.isNode(h, a));
      return nodes && (a == INIT || (h.sessionOf(a) == h.sessionOf(b) && h.sessionIndex(a) < h.sessionIndex(b)));
    }
    if (e.type() == EdgeType.WW) {
      return orders.contains(new ReferenceReads.Order(a, b, e.key(), e.value(), e.via()));
    }
    for (Read r : reads) {
      if (!r.external() || r.key() != e.key() || r.writerTxn() != (e.type() == EdgeType.WR ? a : b)) {
        continue;
      }
      if (e.type() == EdgeType.CO && !r.version()) {
        continue;
      }
      if (e.type() == EdgeType.WR && r.txn() == b) {
        return true;
      }
      if (e.type() == EdgeType.CO && r.txn() == e.via() && a >= 0 && a != b && a != e.via()
          && ReferenceReads.isNode(h, a) && counted[a] && ReferenceReads.writes(h, a, e.key())
          && e.because().level().compareTo(level) <= 0 && premiseHolds(e.because(), e.via(), r, a)) {
        return true;
      }
    }
    return false;
  }

  /** @return {@code (so ∪ wr)+} over the nodes, INIT excluded, as a matrix */
  private boolean[][] causalPast() {
    boolean[][] c = new boolean[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        boolean nodes = ReferenceReads.isNode(h, a) && ReferenceReads.isNode(h, b);
        boolean so = h.sessionOf(a) == h.sessionOf(b) && h.sessionIndex(a) < h.sessionIndex(b);
        c[a][b] = nodes && so;
      }
    }
    for (Read r : reads) {
      if (r.external() && r.writerTxn() != ReferenceReads.INIT) {
        c[r.writerTxn()][r.txn()] = true;
      }
    }
    closeTransitively(c);
    return c;
  }

  private static void closeTransitively(boolean[][] c) {
    int m = c.length;
    for (int k = 0; k < m; k++) {
      for (int a = 0; a < m; a++) {
        if (c[a][k]) {
          for (int b = 0; b < m; b++) {
            c[a][b] |= c[k][b];
          }
        }
      }
    }
  }

  /** §6: one violation per non-trivial strongly connected component. */
  List<Violation> cycles() {
    boolean[][] reach = reachability();
    boolean[] done = new boolean[n + 1];
    List<Violation> out = new ArrayList<>();
    for (int u = 0; u <= n; u++) {
      if (!reach[u][u] || done[u]) {
        continue;
      }
      boolean[] inComponent = new boolean[n + 1];
      for (int v = 0; v <= n; v++) {
        inComponent[v] = reach[u][v] && reach[v][u];
        done[v] |= inComponent[v];
      }
      out.add(shortestCycle(u, inComponent));
    }
    return out;
  }

  private boolean[][] reachability() {
    boolean[][] reach = new boolean[n + 1][n + 1];
    for (int a = 0; a <= n; a++) {
      for (int b = 0; b <= n; b++) {
        reach[a][b] = edge[a][b] != null;
      }
    }
    closeTransitively(reach);
    return reach;
  }

  private Violation shortestCycle(int u, boolean[] inComponent) {
    int[] parent = new int[n + 1];
    Arrays.fill(parent, -2);
    ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(u));
    int last = -1;
    while (last < 0) {
      int a = queue.poll();
      for (int b = 0; b <= n && last < 0; b++) {
        if (edge[a][b] != null && inComponent[b]) {
          if (b == u) {
            last = a;
          } else if (parent[b] == -2) {
            parent[b] = a;
            queue.add(b);
          }
        }
      }
    }
    List<Edge> edges = new ArrayList<>(List.of(edge[last][u]));
    for (int v = last; v != u; v = parent[v]) {
      edges.add(edge[parent[v]][v]);
    }
    Collections.reverse(edges);
    List<Integer> txns = new ArrayList<>();
    Level weakest = Level.READ_COMMITTED;
    for (Edge e : edges) {
      txns.add(e.from());
      if (e.because().level().compareTo(weakest) > 0) {
        weakest = e.because().level();
      }
    }
    return new Violation(Anomaly.COMMIT_ORDER_CYCLE, weakest, new Witness(txns, List.of(), edges));
  }
}
