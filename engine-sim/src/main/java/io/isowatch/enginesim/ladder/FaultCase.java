package io.isowatch.enginesim.ladder;

import io.isowatch.checker.Checker;
import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import io.isowatch.enginesim.engine.EngineOptions;
import io.isowatch.enginesim.engine.Engines;
import io.isowatch.enginesim.engine.Fault;
import io.isowatch.enginesim.run.Simulation;
import io.isowatch.enginesim.workload.ListAppendWorkload;
import io.isowatch.enginesim.workload.RegisterWorkload;
import io.isowatch.enginesim.workload.WorkloadSpec;

/**
 * How each {@link Fault} switch is caught: the engine it is switched on in, the workload, the
 * checker that must see it and the anomaly it must report, and the number of seeds within which it
 * must (the bound {@code docs/simulator.md} documents and {@code FaultCaseTest} asserts). Seeds run
 * as in the {@link LadderRun}: workload {@code spec.withSeed(s)}, schedule {@link
 * WorkloadSpec#scheduleSeed()}.
 */
public enum FaultCase {
  /** Fractured visibility in the read atomic store: AWDIT's commit-order cycle at read atomic. */
  FRACTURED_VISIBILITY(Fault.FRACTURED_VISIBILITY, Level.READ_ATOMIC, false, Level.READ_ATOMIC,
      Anomaly.COMMIT_ORDER_CYCLE, 10),
  /** Lost update at snapshot isolation: the Adya checker's lost update on list-append. */
  LOST_UPDATE(Fault.LOST_UPDATE, Level.SNAPSHOT_ISOLATION, true, Level.SNAPSHOT_ISOLATION,
      Anomaly.LOST_UPDATE, 10),
  /** Stale snapshot at serializable: a session misses its own write, G-single with its so edge. */
  STALE_SNAPSHOT(Fault.STALE_SNAPSHOT, Level.SERIALIZABLE, true, Level.SERIALIZABLE, Anomaly.G_SINGLE, 10),
  /** Aborted writes visible at snapshot isolation (which aborts on conflicts): G1a by AWDIT at read committed. */
  ABORTED_WRITE_VISIBLE(Fault.ABORTED_WRITE_VISIBLE, Level.SNAPSHOT_ISOLATION, false, Level.READ_COMMITTED,
      Anomaly.ABORTED_READ, 10);

  private final Fault fault;
  private final Level engineLevel;
  private final boolean listAppend;
  private final Level checkAt;
  private final Anomaly expected;
  private final int seedBound;

  FaultCase(Fault fault, Level engineLevel, boolean listAppend, Level checkAt, Anomaly expected, int seedBound) {
    this.fault = fault;
    this.engineLevel = engineLevel;
    this.listAppend = listAppend;
    this.checkAt = checkAt;
    this.expected = expected;
    this.seedBound = seedBound;
  }

  /** @return the fault switched on */
  public Fault fault() {
    return fault;
  }

  /** @return the level of the engine the fault is switched on in */
  public Level engineLevel() {
    return engineLevel;
  }

  /** @return the anomaly the checker must report */
  public Anomaly expected() {
    return expected;
  }

  /** @return the level whose checker must report it ({@code isowatch check}'s checker of that level) */
  public Level checkAt() {
    return checkAt;
  }

  /** @return within how many seeds (0, 1, ... bound-1 of {@link LadderRun#CONTENDED}) it must be caught */
  public int seedBound() {
    return seedBound;
  }

  /**
   * @param spec the workload parameters (seed ignored)
   * @param seed the seed
   * @return the history of the faulty engine at {@code seed}
   */
  public History history(WorkloadSpec spec, long seed) {
    WorkloadSpec s = spec.withSeed(seed);
    return Simulation.run(Engines.create(engineLevel, EngineOptions.DEFAULT.with(fault)),
        listAppend ? ListAppendWorkload.generate(s) : RegisterWorkload.generate(s), s.scheduleSeed());
  }

  /**
   * @param spec the workload parameters (seed ignored)
   * @param seeds how many seeds to try, from 0
   * @return the first seed whose history the checker reports {@link #expected()} for, -1 if none
   */
  public long firstCaught(WorkloadSpec spec, int seeds) {
    for (long seed = 0; seed < seeds; seed++) {
      Checker c = switch (checkAt) {
        case READ_COMMITTED, READ_ATOMIC, CAUSAL -> listAppend ? Checkers.adya(checkAt, true) : Checkers.forLevel(checkAt);
        default -> Checkers.adya(checkAt, true);
      };
      for (Violation v : c.check(history(spec, seed)).violations()) {
        if (v.anomaly() == expected) {
          return seed;
        }
      }
    }
    return -1;
  }
}
