package io.isowatch.enginesim.engine;

import java.util.EnumSet;
import java.util.Set;

/**
 * How to build an engine besides its level.
 *
 * @param faults deliberate bugs to switch on, empty for a correct engine; an unmodifiable copy is kept
 * @param replicas number of replicas of the replicated stores (read atomic, causal), {@code >= 1};
 *     session {@code s} is bound to replica {@code s % replicas}; ignored by the single-copy engines
 */
public record EngineOptions(Set<Fault> faults, int replicas) {
  /**
   * No faults, 4 replicas: one per session for the usual 4-session workloads, the most asynchronous
   * setting, where a read atomic store shows causality violations most often (two replicas already
   * show one through session order, three through a third party's read).
   */
  public static final EngineOptions DEFAULT = new EngineOptions(Set.of(), 4);

  /**
   * @throws IllegalArgumentException if {@code replicas < 1}
   * @throws NullPointerException if {@code faults} is null
   */
  public EngineOptions {
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
    }
    faults = faults.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(faults));
  }

  /** @return these options with {@code fault} switched on as well */
  public EngineOptions with(Fault fault) {
    EnumSet<Fault> f = faults.isEmpty() ? EnumSet.noneOf(Fault.class) : EnumSet.copyOf(faults);
    f.add(fault);
    return new EngineOptions(f, replicas);
  }

  /** @return these options with {@code n} replicas */
  public EngineOptions withReplicas(int n) {
    return new EngineOptions(faults, n);
  }

  /** @return whether {@code fault} is switched on */
  public boolean has(Fault fault) {
    return faults.contains(fault);
  }
}
