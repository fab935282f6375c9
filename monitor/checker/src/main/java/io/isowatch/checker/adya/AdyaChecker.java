package io.isowatch.checker.adya;

import io.isowatch.checker.Checker;
import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.ForbiddenAnomalies;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;

/**
 * Adya's phenomena on list-append histories: decides read uncommitted (PL-1), read committed
 * (PL-2), snapshot isolation and serializable (PL-3) in Adya's sense (Adya, MIT 1999, §3 for G0,
 * G1a–c and G2-item, §4 for G-single; Cerone &amp; Gotsman, PODC 2016, for G-nonadjacent, the cycles
 * snapshot isolation forbids), with the version order recovered from the reads as Elle does
 * (Kingsbury &amp; Alvaro, VLDB 2020, §3–4). On register keys, where no read shows the version order,
 * what can be recovered without it ({@link RegisterVersions}; Elle §5, rw-register).
 *
 * <p>Steps: the version order of each key from the longest read ({@link VersionOrder}); the
 * non-cycle anomalies (incompatible order, duplicates, G1a, G1b, internal, future read, lost
 * update, dirty update); the dependency graph {@code ww ∪ wr ∪ rw} (plus {@code so} by default) over
 * committed transactions and those of unknown outcome whose writes were seen; its strongly
 * connected components (iterative Tarjan); in each, the shortest cycle of each class the level
 * forbids, each class searched on its own ({@link CycleSearch}). Every violation the level forbids
 * ({@link io.isowatch.checker.level.ForbiddenAnomalies#forbiddenAt}) is reported, naming the weakest level it
 * breaks. With session order, a cycle that needs an {@code so} edge has one in its witness.
 *
 * <p>Complexity: O(operations + total read length + edges) for everything but the cycle search,
 * which is linear for G0 and G1c and bounded by {@link CycleSearch#WORK} edge visits per class and
 * component for the others; a search that runs out makes the verdict {@link Verdict#UNKNOWN} when
 * nothing else was found. Memory: primitive arrays, about 25 bytes per edge and 8 per operation.
 */
public final class AdyaChecker implements Checker {
  private final Level level;
  private final boolean sessionOrder;

  /**
   * A checker with session order in the graph (Elle's strong-session levels).
   *
   * @param level a level {@link LevelPlan#decidedBy} the Adya model
   * @throws IllegalArgumentException for read atomic or causal consistency
   */
  public AdyaChecker(Level level) {
    this(level, true);
  }

  /**
   * @param level a level {@link LevelPlan#decidedBy} the Adya model
   * @param sessionOrder whether {@code so} edges are part of the graph; false checks the plain Adya
   *     levels ({@code --no-session-order})
   * @throws IllegalArgumentException for read atomic or causal consistency
   */
  public AdyaChecker(Level level, boolean sessionOrder) {
    this.level = LevelPlan.requireDecided(LevelPlan.Model.ADYA, level);
    this.sessionOrder = sessionOrder;
  }

  @Override
  public Level level() {
    return level;
  }

  /** @return whether {@code so} edges are part of the graph */
  public boolean sessionOrder() {
    return sessionOrder;
  }

  /**
   * Checks a list-append, register or mixed history.
   *
   * @return {@link Verdict#VIOLATED} with every violation found, {@link Verdict#CONSISTENT}, or
   *     {@link Verdict#UNKNOWN} when nothing was found but a cycle search ran out of work, or, at
   *     levels that forbid cycles with anti-dependencies (snapshot isolation, serializable), some
   *     register key's version order is not recovered. Read uncommitted and read committed need no
   *     register version order: a topological order of the observed {@code ww ∪ wr ∪ so} edges
   *     gives one without G0 or G1c when none was found (docs/levels.md, "Register histories").
   */
  @Override
  public CheckResult check(History history) {
    AdyaAnalysis a = AdyaAnalysis.run(new Scope(history, history.txnCount()), level, sessionOrder, true);
    boolean orderUnknown = a.unrecoveredKeys() > 0 && ForbiddenAnomalies.forbiddenAt(level).contains(Anomaly.G_SINGLE);
    if (a.violations().isEmpty() && orderUnknown) {
      return new CheckResult(level, Verdict.UNKNOWN, a.violations(), "the version order of "
          + a.unrecoveredKeys() + (a.unrecoveredKeys() == 1 ? " register key" : " register keys")
          + " is not recovered from the reads, and " + level.cliName() + " needs it to rule out"
          + " anti-dependency cycles; the polygraph check searches the orders the reads leave open"
          + " (docs/levels.md, \"Register histories\")");
    }
    if (a.violations().isEmpty() && !a.incomplete().isEmpty()) {
      return new CheckResult(level, Verdict.UNKNOWN, a.violations(), "the cycle search ran out of work"
          + " for " + a.incomplete().stream().map(Anomaly::id).sorted().toList() + " before finding a cycle");
    }
    return CheckResult.of(level, a.violations());
  }
}
