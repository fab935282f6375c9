package io.isowatch.enginesim.workload;

/**
 * Parameters of a generated workload (rw-register: {@link RegisterWorkload}; list-append: {@link
 * ListAppendWorkload}).
 *
 * @param sessions number of sessions, {@code >= 1}; named {@code s0 .. s<sessions-1>}
 * @param keys number of keys, {@code >= 1}; named {@code x0 .. x<keys-1>}
 * @param txnsPerSession transactions each session runs, {@code >= 1}
 * @param opsPerTxn operations per transaction, {@code >= 1}
 * @param readRatio probability that an operation is a read, in {@code [0, 1]}
 * @param seed decides the workload, and (through {@link #scheduleSeed()}) the interleaving
 * @param distribution how each operation picks its key
 */
public record WorkloadSpec(
    int sessions, int keys, int txnsPerSession, int opsPerTxn, double readRatio, long seed,
    KeyDistribution distribution) {

  /**
   * Checks the parameters.
   *
   * @throws IllegalArgumentException naming the first parameter out of range
   * @throws NullPointerException if {@code distribution} is null
   */
  public WorkloadSpec {
    requireAtLeastOne("sessions", sessions);
    requireAtLeastOne("keys", keys);
    requireAtLeastOne("txnsPerSession", txnsPerSession);
    requireAtLeastOne("opsPerTxn", opsPerTxn);
    if (!(readRatio >= 0 && readRatio <= 1)) {
      throw new IllegalArgumentException("readRatio must be in [0, 1], was " + readRatio);
    }
    if (distribution == null) {
      throw new NullPointerException("distribution");
    }
  }

  /** The same parameters with keys chosen uniformly ({@link KeyDistribution#UNIFORM}). */
  public WorkloadSpec(int sessions, int keys, int txnsPerSession, int opsPerTxn, double readRatio, long seed) {
    this(sessions, keys, txnsPerSession, opsPerTxn, readRatio, seed, KeyDistribution.UNIFORM);
  }

  /** @return these parameters with another seed */
  public WorkloadSpec withSeed(long newSeed) {
    return new WorkloadSpec(sessions, keys, txnsPerSession, opsPerTxn, readRatio, newSeed, distribution);
  }

  /** @return the seed of the schedule, derived from {@link #seed()} so that one number decides a run */
  public long scheduleSeed() {
    return ~seed;
  }

  private static void requireAtLeastOne(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be at least 1, was " + value);
    }
  }
}
