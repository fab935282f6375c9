package io.isowatch.enginesim.engine;

import io.isowatch.checker.level.Level;
import io.isowatch.enginesim.replica.ReplicatedStore;

/**
 * The factory of engines, one per rung of the ladder: read uncommitted, read committed, snapshot
 * isolation and serializable are {@link MvccEngine} at that level; read atomic and causal are the
 * {@link ReplicatedStore} at that level ({@link EngineOptions#replicas()} replicas).
 */
public final class Engines {
  private Engines() {}

  /** @return a fresh engine at {@code level} with {@link EngineOptions#DEFAULT} */
  public static IsolationEngine create(Level level) {
    return create(level, EngineOptions.DEFAULT);
  }

  /**
   * @return a fresh engine at {@code level}
   * @throws IllegalArgumentException if {@link Fault#LOST_UPDATE} is asked for a level other than
   *     snapshot isolation (see the fault)
   */
  public static IsolationEngine create(Level level, EngineOptions options) {
    switch (level) {
      case READ_ATOMIC:
      case CAUSAL:
        return new ReplicatedStore(level, options.replicas(), options.faults());
      default:
        return new MvccEngine(level, options.faults());
    }
  }
}
