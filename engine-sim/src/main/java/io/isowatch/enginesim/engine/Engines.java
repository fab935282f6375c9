package io.isowatch.enginesim.engine;

import io.isowatch.checker.level.Level;

/**
 * The factory of engines, one per rung of the ladder: read uncommitted, read committed, snapshot
 * isolation and serializable are {@link MvccEngine} at that level; read atomic and causal are the
 * replicated stores of {@code io.isowatch.enginesim.replica}.
 */
public final class Engines {
  private Engines() {}

  /** @return a fresh engine at {@code level} with {@link EngineOptions#DEFAULT} */
  public static IsolationEngine create(Level level) {
    return create(level, EngineOptions.DEFAULT);
  }

  /**
   * @return a fresh engine at {@code level}
   * @throws IllegalArgumentException if a fault in {@code options} does not apply to {@code level}
   *     (see {@link Fault})
   */
  public static IsolationEngine create(Level level, EngineOptions options) {
    throw new UnsupportedOperationException("engine for " + level + " not yet built");
  }
}
