package io.isowatch.checker.adya;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.ForbiddenAnomalies;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Incremental form of {@link AdyaChecker} for the stream: transactions are accepted one at a time,
 * in the order they were appended to the shared history, and each call returns the violations that
 * are new, each reported once.
 *
 * <p>A transaction updates only what it touches. Its keys' version orders, non-cycle anomalies and
 * {@code ww}/{@code wr}/{@code rw} edges are drawn again from the slice of the history on those keys
 * ({@link KeySlice}: a list read may extend or confirm its key's longest read, which re-places the
 * key's unobserved appends), exactly as the batch checker draws them, since each depends on one key
 * (Adya, MIT 1999, §3; Elle, Kingsbury &amp; Alvaro, VLDB 2020, §3–4). The graph ({@link
 * LiveDependencies}) replaces those keys' edges, adds the {@code so} edge, and keeps a topological
 * order by Pearce &amp; Kelly's algorithm (ACM JEA 11, 2006); a cycle search runs only on the
 * strongly connected components that gained an edge, with the batch checker's {@link CycleSearch},
 * which classifies what it finds (G0, G1c, G-single, G-nonadjacent, G2-item; Adya §3–4, Cerone
 * &amp; Gotsman, PODC 2016). So after each call, every violation the batch checker reports on the
 * accepted transactions has been reported: the non-cycle ones of the keys just touched are found
 * now (those of other keys did not change), and every component holding a cycle either gained an
 * edge now and is searched, or held the same cycles (or a subset, after edges went) at an earlier
 * call. Cost per transaction: the slice of its keys, and the order's affected region; independent
 * of the number of accepted transactions for bounded transactions and list lengths, as long as the
 * graph is acyclic (with cycles, see {@link LiveDependencies} for the search bounds).
 *
 * <p>A violation's identity is its anomaly and, for a cycle, the set of its transactions,
 * otherwise the operation it is about (the first of its witness operations), so a cycle re-found
 * through other edges, or an incompatible read compared with a longer read later, is not reported
 * again. Reads of elements nobody appended are reported only by {@link #finish()}, since their
 * appender may still arrive. A window drops the whole checker with its generation (nodes, edges and
 * versions go with it; nothing is rebuilt).
 */
public final class IncrementalAdya {
  private static final Set<Anomaly> CYCLES =
      EnumSet.of(Anomaly.G0, Anomaly.G1C, Anomaly.G_SINGLE, Anomaly.G_NONADJACENT, Anomaly.G2_ITEM);

  private final History history;
  private final boolean sessionOrder;
  private final Set<Anomaly> forbidden;
  private final EnumSet<Anomaly> wanted;
  private final Set<Violation.Identity> reported = new HashSet<>();
  /** Per key, the accepted transactions with an operation on it, ascending. */
  private final Int2ObjectOpenHashMap<IntArrayList> keyTxns = new Int2ObjectOpenHashMap<>();
  /** Per session, its last accepted transaction in the graph (not aborted), -1 for none. */
  private final Int2IntOpenHashMap lastInGraph = new Int2IntOpenHashMap();
  private final LiveDependencies graph;
  private int accepted;

  /**
   * @param history the shared history transactions are appended to; read, never written
   * @param level a level {@link LevelPlan#decidedBy} the Adya model
   * @param sessionOrder whether {@code so} edges are part of the graph
   * @throws IllegalArgumentException for another level
   */
  public IncrementalAdya(History history, Level level, boolean sessionOrder) {
    this.history = history;
    this.sessionOrder = sessionOrder;
    this.forbidden = ForbiddenAnomalies.forbiddenAt(LevelPlan.requireDecided(LevelPlan.Model.ADYA, level));
    this.wanted = EnumSet.copyOf(CYCLES);
    wanted.retainAll(forbidden);
    lastInGraph.defaultReturnValue(-1);
    graph = new LiveDependencies(history);
  }

  /**
   * Accepts transaction {@code txn}, which must have ended in the history.
   *
   * @param txn the next transaction id: 0 first, then each following one
   * @return the violations found now that were not reported before, in the batch checker's order
   *     (non-cycle anomalies first, then cycles)
   * @throws IllegalArgumentException if {@code txn} is not the next transaction
   * @throws IllegalStateException if it is still open
   */
  public List<Violation> accept(int txn) {
    if (txn != accepted || txn >= history.txnCount()) {
      throw new IllegalArgumentException("expected transaction " + accepted + " next, got " + txn);
    }
    if (txn == history.openTxn()) {
      throw new IllegalStateException("transaction T" + history.label(txn) + " is still open");
    }
    accepted++;
    return fresh(analyse(txn));
  }

  /**
   * Accepts every transaction from the next one up to {@code txn}: how a checker that starts late
   * (the stream's window meets its first list-append operation) catches up.
   *
   * @param txn the last transaction to accept; every transaction up to it must have ended
   * @return the violations found now that were not reported before
   * @throws IllegalArgumentException if {@code txn} was accepted already or is not in the history
   * @throws IllegalStateException if one of them is still open
   */
  public List<Violation> acceptThrough(int txn) {
    if (txn < accepted || txn >= history.txnCount()) {
      throw new IllegalArgumentException("expected a transaction from " + accepted + " on, got " + txn);
    }
    int open = history.openTxn();
    if (open >= accepted && open <= txn) {
      throw new IllegalStateException("transaction T" + history.label(open) + " is still open");
    }
    List<Violation> out = new ArrayList<>();
    while (accepted <= txn) {
      out.addAll(accept(accepted));
    }
    return out;
  }

  /**
   * Ends the stream: reports reads of elements that no accepted transaction appended. One pass over
   * the accepted transactions' operations (no cycle search: cycles were reported as they closed).
   *
   * @return the violations not reported before
   */
  public List<Violation> finish() {
    Scope scope = new Scope(history, accepted);
    VersionOrder vo = new VersionOrder(scope);
    List<Violation> out = new ArrayList<>();
    for (Violation v : ReadAnomalies.find(vo, new RegisterVersions(scope), true)) {
      if (forbidden.contains(v.anomaly())) {
        out.add(v);
      }
    }
    return fresh(out);
  }

  /** @return the number of transactions accepted */
  public int accepted() {
    return accepted;
  }

  private List<Violation> analyse(int t) {
    IntArrayList keys = new IntArrayList();
    for (int o = history.opStart(t), end = history.opEnd(t); o < end; o++) {
      int k = history.opKey(o);
      if (!keys.contains(k)) {
        keys.add(k);
        keyTxns.computeIfAbsent(k, x -> new IntArrayList()).add(t);
      }
    }
    IntArrayList txns = new IntArrayList();
    for (int i = 0; i < keys.size(); i++) {
      txns.addAll(keyTxns.get(keys.getInt(i)));
    }
    txns.sort(null);
    int n = 0;
    for (int i = 0; i < txns.size(); i++) {
      if (i == 0 || txns.getInt(i) != txns.getInt(i - 1)) {
        txns.set(n++, txns.getInt(i));
      }
    }
    txns.size(n);
    KeySlice slice = new KeySlice(history, txns, keys, false);
    List<Violation> out = new ArrayList<>();
    for (Violation v : slice.anomalies) {
      if (forbidden.contains(v.anomaly())) {
        out.add(v);
      }
    }
    if (wanted.isEmpty()) {
      return out;
    }
    graph.node(t);
    graph.replace(keys, slice);
    if (sessionOrder && history.status(t) != TxnStatus.ABORTED) {
      int s = history.sessionOf(t);
      int prev = lastInGraph.put(s, t);
      if (prev >= 0) {
        graph.addSessionEdge(prev, t);
      }
    }
    for (DependencyGraph region : graph.regions()) {
      for (CycleSearch.Found f : CycleSearch.run(region, sessionOrder, wanted).found()) {
        out.add(AdyaAnalysis.violation(region, f.anomaly(), f.cycle()));
      }
    }
    return out;
  }

  private List<Violation> fresh(List<Violation> found) {
    List<Violation> out = new ArrayList<>();
    for (Violation v : found) {
      if (reported.add(v.identity())) {
        out.add(v);
      }
    }
    return out;
  }
}
