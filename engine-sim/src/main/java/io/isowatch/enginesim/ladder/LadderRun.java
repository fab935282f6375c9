package io.isowatch.enginesim.ladder;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import io.isowatch.enginesim.run.Simulation;
import io.isowatch.enginesim.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The ladder: for every {@link Rung}, runs its engine on seeded schedules under contention and asks
 * the checkers two questions: is the rung sound (its own level's checker never reports a violation)
 * and is it no stronger than it says (some seed shows an anomaly the next rung forbids). Seed {@code
 * s} gives the workload {@code spec.withSeed(s)} and the schedule {@link WorkloadSpec#scheduleSeed()}
 * ({@link Simulation}), so every cell is reproducible from its seed.
 *
 * <p>Cost: 8 × schedules simulations and 14 × schedules checks of small histories (the {@link
 * #CONTENDED} spec: 24 transactions, 96 operations); about a second per 150 schedules on one core.
 */
public final class LadderRun {
  /**
   * The ladder's default workload: 4 sessions on 3 keys (uniform), 6 transactions per session, 4
   * operations each, 60% of them reads; the seed is replaced per schedule. Contended enough that
   * snapshot isolation commits about half of the list-append transactions.
   */
  public static final WorkloadSpec CONTENDED = new WorkloadSpec(4, 3, 6, 4, 0.6, 0);

  /** The number of schedules the issue asks for at least. */
  public static final int DEFAULT_SCHEDULES = 150;

  private LadderRun() {}

  /**
   * @param spec the workload parameters (its seed is ignored)
   * @param schedules number of seeds, {@code >= 1}
   * @param firstSeed the first seed
   * @return one result per rung, RU first
   * @throws IllegalArgumentException if {@code schedules < 1}
   */
  public static List<RungResult> run(WorkloadSpec spec, int schedules, long firstSeed) {
    List<RungResult> out = new ArrayList<>();
    for (Rung r : Rung.values()) {
      out.add(run(r, spec, schedules, firstSeed));
    }
    return out;
  }

  /**
   * @return the result of one rung (see {@link #run(WorkloadSpec, int, long)})
   * @throws IllegalArgumentException if {@code schedules < 1}
   */
  public static RungResult run(Rung rung, WorkloadSpec spec, int schedules, long firstSeed) {
    if (schedules < 1) {
      throw new IllegalArgumentException("schedules must be at least 1, was " + schedules);
    }
    int unsound = 0;
    Anomaly firstUnsound = null;
    long firstUnsoundSeed = -1;
    Anomaly admitted = null;
    long admittedSeed = -1;
    int admittedSchedules = 0;
    long committed = 0;
    long transactions = 0;
    for (long seed = firstSeed; seed < firstSeed + schedules; seed++) {
      History h = history(rung, spec, seed);
      for (int t = 0; t < h.txnCount(); t++) {
        transactions++;
        committed += h.status(t) == TxnStatus.COMMITTED ? 1 : 0;
      }
      CheckResult own = rung.soundnessChecker().check(h);
      if (!own.violations().isEmpty()) {
        if (unsound++ == 0) {
          firstUnsound = own.violations().get(0).anomaly();
          firstUnsoundSeed = seed;
        }
      }
      if (rung.nextChecker() == null) {
        continue;
      }
      Anomaly shown = null;
      for (Violation v : rung.nextChecker().check(h).violations()) {
        if (rung.admits().contains(v.anomaly())) {
          shown = v.anomaly();
          break;
        }
      }
      if (shown != null && admittedSchedules++ == 0) {
        admitted = shown;
        admittedSeed = seed;
      }
    }
    return new RungResult(rung, schedules, unsound, firstUnsound, firstUnsoundSeed, admitted, admittedSeed,
        admittedSchedules, committed, transactions);
  }

  /**
   * @return the history of {@code rung}'s engine at {@code seed}: the same bytes for the same
   *     arguments
   */
  public static History history(Rung rung, WorkloadSpec spec, long seed) {
    WorkloadSpec s = spec.withSeed(seed);
    return Simulation.run(rung.engine(), rung.programs(s), s.scheduleSeed());
  }
}
