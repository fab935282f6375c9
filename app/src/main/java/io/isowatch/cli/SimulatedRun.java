package io.isowatch.cli;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import io.isowatch.enginesim.ladder.LadderRun;
import io.isowatch.enginesim.ladder.Rung;
import io.isowatch.enginesim.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The simulated runs of {@code isowatch demo} and {@code isowatch replay --sim LEVEL}: the engine
 * simulator's engine and workload for a level exactly as the ladder builds them ({@link Rung}: the
 * MVCC engine at read uncommitted, read committed, snapshot isolation and serializable, the
 * replicated stores at read atomic and causal consistency; list-append at snapshot isolation and
 * serializable, rw-register below), run by {@link LadderRun#history} on a contended workload of
 * {@value #SESSIONS} sessions over {@value #KEYS} keys, {@value #OPS_PER_TXN} operations per
 * transaction, read ratio {@value #READ_RATIO} (docs/simulator.md). At snapshot isolation about half
 * of the transactions commit and write skews (G2-item) appear in every few hundred transactions.
 *
 * <p>Also the offline verdict on such a run, the same checks the streaming monitor's window checker
 * runs ({@link LevelPlan}; Adya's levels only on list-append histories), for comparison with what the
 * monitor published.
 */
final class SimulatedRun {
  /** Sessions of a run. */
  static final int SESSIONS = 8;
  /** Keys of a run: few, so that concurrent transactions conflict. */
  static final int KEYS = 6;
  /** Operations per transaction. */
  static final int OPS_PER_TXN = 4;
  /** Probability that an operation is a read. */
  static final double READ_RATIO = 0.5;

  private SimulatedRun() {}

  /**
   * @param transactions at least 1; rounded up to a multiple of {@value #SESSIONS}
   * @param seed the workload's seed (the schedule's is derived from it, {@link WorkloadSpec#scheduleSeed()})
   * @return the workload of a run
   * @throws IllegalArgumentException if {@code transactions < 1}
   */
  static WorkloadSpec spec(int transactions, long seed) {
    if (transactions < 1) {
      throw new IllegalArgumentException("transactions must be at least 1, got " + transactions);
    }
    int perSession = (transactions + SESSIONS - 1) / SESSIONS;
    return new WorkloadSpec(SESSIONS, KEYS, perSession, OPS_PER_TXN, READ_RATIO, seed);
  }

  /** @return the ladder's rung whose engine guarantees {@code level} */
  static Rung rung(Level level) {
    for (Rung r : Rung.values()) {
      if (r.level() == level) {
        return r;
      }
    }
    throw new IllegalArgumentException("no rung at " + level.cliName());
  }

  /**
   * @param level the level the simulated engine guarantees
   * @param transactions about how many transactions ({@link #spec})
   * @param seed the seed
   * @return the history, the same for the same arguments
   * @throws IllegalArgumentException if {@code transactions < 1}
   */
  static History history(Level level, int transactions, long seed) {
    return LadderRun.history(rung(level), spec(transactions, seed), seed);
  }

  /**
   * The offline verdict: runs the batch checks the monitor runs on this history, up to {@code
   * expected} ({@link LevelPlan#checks}): the axiomatic check of each level, and one Adya check with
   * session order at the strongest Adya level only when the history has list-append operations (as
   * the window checker does), and counts their violations whose weakest level broken is at most {@code
   * expected}: those the monitor publishes.
   *
   * @return violations per key {@code anomaly (weakest level broken)}, e.g. {@code G2-item
   *     (serializable)}, sorted; empty when the history satisfies {@code expected}
   */
  static Map<String, Integer> offlineViolations(History h, Level expected) {
    boolean listAppend = LevelPlan.hasListAppend(h);
    List<Level> levels = new ArrayList<>();
    for (Level l : Level.values()) {
      if (expected.atLeast(l)) {
        levels.add(l);
      }
    }
    List<LevelPlan.Check> checks = new ArrayList<>();
    LevelPlan.Check adya = null;
    for (LevelPlan.Check c : LevelPlan.checks(levels, listAppend)) {
      if (c.model() == LevelPlan.Model.AXIOMATIC) {
        checks.add(c);
      } else if (listAppend) {
        adya = c; // the strongest: its violations name the weakest level they break
      }
    }
    if (adya != null) {
      checks.add(adya);
    }
    Map<String, Integer> out = new TreeMap<>();
    for (LevelPlan.Check c : checks) {
      for (Violation v : c.batch(true).check(h).violations()) {
        if (expected.atLeast(v.weakestLevelBroken())) {
          out.merge(kind(v.anomaly().id(), v.weakestLevelBroken()), 1, Integer::sum);
        }
      }
    }
    return out;
  }

  /** @return e.g. {@code G2-item (serializable)} */
  static String kind(String anomaly, Level weakestLevelBroken) {
    return anomaly + " (" + weakestLevelBroken.cliName() + ")";
  }
}
