package io.isowatch.checker.adya;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.ForbiddenAnomalies;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One run of the Adya phenomena check over the transactions of a {@link Scope}: version order,
 * non-cycle anomalies, dependency graph, cycles. Shared by {@link AdyaChecker} and {@link
 * IncrementalAdya}.
 *
 * @param violations the violations of anomalies the level forbids: non-cycle ones first (per read
 *     in history order, then lost updates, then dirty updates), then cycles per strongly connected
 *     component
 * @param incomplete cycle classes the level forbids whose search ran out of work somewhere
 * @param unrecoveredKeys number of register keys whose version order the history does not reveal
 *     ({@link RegisterVersions}): their anti-dependencies are only partly known
 */
record AdyaAnalysis(List<Violation> violations, Set<Anomaly> incomplete, int unrecoveredKeys) {
  private static final Set<Anomaly> CYCLES =
      EnumSet.of(Anomaly.G0, Anomaly.G1C, Anomaly.G_SINGLE, Anomaly.G_NONADJACENT, Anomaly.G2_ITEM);

  /**
   * @param scope the transactions to check
   * @param level the level whose forbidden anomalies are reported
   * @param sessionOrder whether {@code so} edges are part of the graph
   * @param thinAir whether reads of elements nobody appended are reported
   * @return the analysis
   */
  static AdyaAnalysis run(Scope scope, Level level, boolean sessionOrder, boolean thinAir) {
    Set<Anomaly> forbidden = ForbiddenAnomalies.forbiddenAt(level);
    VersionOrder vo = new VersionOrder(scope);
    RegisterVersions rv = new RegisterVersions(scope);
    List<Violation> out = new ArrayList<>();
    for (Violation v : ReadAnomalies.find(vo, rv, thinAir)) {
      if (forbidden.contains(v.anomaly())) {
        out.add(v);
      }
    }
    EnumSet<Anomaly> wanted = EnumSet.copyOf(CYCLES);
    wanted.retainAll(forbidden);
    if (wanted.isEmpty()) {
      return new AdyaAnalysis(out, EnumSet.noneOf(Anomaly.class), rv.unrecovered);
    }
    DependencyGraph dg = new DependencyGraph(vo, rv, sessionOrder);
    CycleSearch search = CycleSearch.run(dg, sessionOrder, wanted);
    for (CycleSearch.Found f : search.found()) {
      out.add(violation(dg, f.anomaly(), f.cycle()));
    }
    return new AdyaAnalysis(out, search.incomplete(), rv.unrecovered);
  }

  /** @return the violation whose witness is the cycle: its transactions, evidence operations and edges */
  static Violation violation(DependencyGraph dg, Anomaly anomaly, int[] cycle) {
    List<Integer> txns = new ArrayList<>();
    List<Integer> ops = new ArrayList<>();
    List<Edge> edges = new ArrayList<>();
    for (int e : cycle) {
      txns.add(dg.txn(dg.g.from(e)));
      edges.add(dg.toEdge(e));
      dg.evidence(e, ops);
    }
    return new Violation(anomaly, ForbiddenAnomalies.weakestForbidding(anomaly), new Witness(txns, ops, edges));
  }
}
