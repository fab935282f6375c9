package io.isowatch.enginesim.workload;

/**
 * Parameters of a generated workload.
 *
 * @param sessions number of sessions, {@code >= 1}; named {@code s0 .. s<sessions-1>}
 * @param keys number of keys, {@code >= 1}; named {@code x0 .. x<keys-1>}, chosen uniformly
 * @param txnsPerSession transactions each session runs, {@code >= 1}
 * @param opsPerTxn operations per transaction, {@code >= 1}
 * @param readRatio probability that an operation is a read, in {@code [0, 1]}
 * @param seed decides the workload, and (through {@link #scheduleSeed()}) the interleaving
 */
public record WorkloadSpec(
    int sessions, int keys, int txnsPerSession, int opsPerTxn, double readRatio, long seed) {

  /**
   * Checks the parameters.
   *
   * @throws IllegalArgumentException naming the first parameter out of range
   */
  public WorkloadSpec {
    requireAtLeastOne("sessions", sessions);
    requireAtLeastOne("keys", keys);
    requireAtLeastOne("txnsPerSession", txnsPerSession);
    requireAtLeastOne("opsPerTxn", opsPerTxn);
    if (!(readRatio >= 0 && readRatio <= 1)) {
      throw new IllegalArgumentException("readRatio must be in [0, 1], was " + readRatio);
    }
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
