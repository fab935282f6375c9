package io.isowatch.enginesim.ladder;

import io.isowatch.checker.Checker;
import io.isowatch.checker.Checkers;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.enginesim.engine.Engines;
import io.isowatch.enginesim.engine.IsolationEngine;
import io.isowatch.enginesim.workload.ListAppendWorkload;
import io.isowatch.enginesim.workload.ProgramOp;
import io.isowatch.enginesim.workload.RegisterWorkload;
import io.isowatch.enginesim.workload.WorkloadSpec;
import java.util.List;
import java.util.Set;

/**
 * One rung of the ladder RU ⊂ RC ⊂ RA ⊂ CC ⊂ SI ⊂ SER: the engine at that level ({@link Engines}:
 * the MVCC engine for RU, RC, SI, SER; the replicated stores for RA, CC), the workload it runs, the
 * checker that decides its own level, and the checker of the next rung with the anomalies that show
 * the rung is no stronger.
 *
 * <p>Checkers are those {@code isowatch check} runs ({@code io.isowatch.checker.LevelPlan}): read
 * committed, read atomic and causal by AWDIT (Biswas &amp; Enea, OOPSLA 2019) on rw-register
 * histories; read uncommitted, snapshot isolation and serializable by Adya's phenomena (Adya, MIT
 * 1999) with session order; snapshot isolation and serializable run list-append, where list reads
 * reveal the version order; read uncommitted runs rw-register (see {@link #RU}).
 *
 * <p>The register rungs {@link #SI_REGISTER} and {@link #SER_REGISTER} run the same two engines on
 * rw-register, where no read reveals the version order: their snapshot isolation and serializable
 * are decided by the polygraph ({@code Checkers.polygraph}: PolySI, VLDB 2023; Cobra, OSDI 2020),
 * with session order. They follow the ladder in {@link #values()} and print with the labels {@code
 * SI} and {@code SER} ({@link #label()}); the workload column tells them apart.
 */
public enum Rung {
  /**
   * Read uncommitted, on registers: the MVCC engine shows lists without uncommitted appends (see
   * {@code LevelPolicy#dirtyReads}), so only register reads can be dirty. Admits G1 (G1a aborted
   * read, G1b intermediate read, G1c) by AWDIT at read committed.
   */
  RU(Level.READ_UNCOMMITTED, false, Level.READ_COMMITTED,
      Set.of(Anomaly.ABORTED_READ, Anomaly.INTERMEDIATE_READ, Anomaly.G1C)),
  /**
   * Read committed; admits a fractured read: AWDIT's commit-order cycle at read atomic (a transaction
   * saw one write of another transaction and missed a second one).
   */
  RC(Level.READ_COMMITTED, false, Level.READ_ATOMIC, Set.of(Anomaly.COMMIT_ORDER_CYCLE)),
  /** Read atomic; admits a causality violation (AWDIT's commit-order cycle at causal). */
  RA(Level.READ_ATOMIC, false, Level.CAUSAL, Set.of(Anomaly.COMMIT_ORDER_CYCLE)),
  /** Causal consistency; admits lost update or G-single (Adya at snapshot isolation). */
  CC(Level.CAUSAL, false, Level.SNAPSHOT_ISOLATION, Set.of(Anomaly.LOST_UPDATE, Anomaly.G_SINGLE)),
  /** Snapshot isolation; admits G2-item (write skew). */
  SI(Level.SNAPSHOT_ISOLATION, true, Level.SERIALIZABLE, Set.of(Anomaly.G2_ITEM)),
  /** Serializable (SSI); the top: admits nothing. */
  SER(Level.SERIALIZABLE, true, null, Set.of()),
  /** Snapshot isolation on rw-register; admits G2-item (write skew), found by the polygraph. */
  SI_REGISTER(Level.SNAPSHOT_ISOLATION, false, Level.SERIALIZABLE, Set.of(Anomaly.G2_ITEM)),
  /** Serializable (SSI) on rw-register; the top: admits nothing. */
  SER_REGISTER(Level.SERIALIZABLE, false, null, Set.of());

  private final Level level;
  private final boolean listAppend;
  private final Level next;
  private final Set<Anomaly> admits;

  Rung(Level level, boolean listAppend, Level next, Set<Anomaly> admits) {
    this.level = level;
    this.listAppend = listAppend;
    this.next = next;
    this.admits = admits;
  }

  /** @return the level the rung's engine guarantees */
  public Level level() {
    return level;
  }

  /** @return whether the rung runs the list-append workload (otherwise rw-register) */
  public boolean listAppend() {
    return listAppend;
  }

  /** @return the rung's name in the museum's table: {@code SI} and {@code SER} for the register rungs */
  public String label() {
    return switch (this) {
      case SI_REGISTER -> SI.label();
      case SER_REGISTER -> SER.label();
      default -> name();
    };
  }

  /** @return the next rung's level, null for {@link #SER} and {@link #SER_REGISTER} */
  public Level next() {
    return next;
  }

  /** @return the anomalies of the next level's checker that show this rung is weaker; empty at the top */
  public Set<Anomaly> admits() {
    return admits;
  }

  /** @return a fresh engine at this rung's level, default options */
  public IsolationEngine engine() {
    return Engines.create(level);
  }

  /** @return {@code mvcc} or {@code replicated} */
  public String engineName() {
    return level == Level.READ_ATOMIC || level == Level.CAUSAL ? "replicated" : "mvcc";
  }

  /** @return {@code list-append} or {@code rw-register} */
  public String workloadName() {
    return listAppend ? "list-append" : "rw-register";
  }

  /** @return the programs of this rung's workload for {@code spec} */
  public List<List<List<ProgramOp>>> programs(WorkloadSpec spec) {
    return listAppend ? ListAppendWorkload.generate(spec) : RegisterWorkload.generate(spec);
  }

  /** @return a new checker of this rung's own level, as {@code isowatch check} picks it */
  public Checker soundnessChecker() {
    return checker(level);
  }

  /** @return a new checker of the next rung's level; null for {@link #SER} and {@link #SER_REGISTER} */
  public Checker nextChecker() {
    return next == null ? null : checker(next);
  }

  private Checker checker(Level l) {
    if (this == SI_REGISTER || this == SER_REGISTER) {
      return Checkers.polygraph(l, true);
    }
    return switch (l) {
      case READ_COMMITTED -> listAppend ? Checkers.adya(l, true) : Checkers.forLevel(l);
      case READ_ATOMIC, CAUSAL -> Checkers.forLevel(l);
      default -> Checkers.adya(l, true);
    };
  }
}
