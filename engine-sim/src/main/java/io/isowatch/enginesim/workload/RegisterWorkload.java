package io.isowatch.enginesim.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The rw-register workload: every session runs {@code txnsPerSession} transactions of {@code
 * opsPerTxn} operations; each operation reads with probability {@code readRatio}, otherwise writes,
 * on a key chosen by {@link WorkloadSpec#distribution()}. Written values are unique per key: the writes of key {@code x} carry
 * {@code 1, 2, 3, ...} in the order they were generated (session by session), whatever the schedule
 * later does with them.
 *
 * <p>Deterministic: {@link java.util.Random} (whose algorithm the Java SE specification fixes) seeded
 * with {@link WorkloadSpec#seed()}. Cost: O(sessions × txnsPerSession × opsPerTxn).
 */
public final class RegisterWorkload {
  private RegisterWorkload() {}

  /**
   * @return per session (index {@code i} is session {@code s<i>}), its transactions in session order,
   *     each a list of {@code opsPerTxn} operations in program order
   */
  public static List<List<List<ProgramOp>>> generate(WorkloadSpec spec) {
    return programs(spec, (key, read, next) -> read ? ProgramOp.read(key) : ProgramOp.write(key, next));
  }

  /** Makes one operation of a generated program. */
  @FunctionalInterface
  interface OpMaker {
    /**
     * @param key the key's name
     * @param read whether the operation reads
     * @param next for a write, the key's next unique value (1, 2, ...); 0 for a read
     * @return the operation
     */
    ProgramOp make(String key, boolean read, long next);
  }

  /**
   * The random programs of a spec, shared by the register and list-append workloads so that both
   * draw the same keys in the same places.
   *
   * @return per session its transactions in session order, each {@code opsPerTxn} operations
   */
  static List<List<List<ProgramOp>>> programs(WorkloadSpec spec, OpMaker maker) {
    Random rnd = new Random(spec.seed());
    long[] next = new long[spec.keys()];
    List<List<List<ProgramOp>>> sessions = new ArrayList<>(spec.sessions());
    for (int s = 0; s < spec.sessions(); s++) {
      List<List<ProgramOp>> txns = new ArrayList<>(spec.txnsPerSession());
      for (int t = 0; t < spec.txnsPerSession(); t++) {
        List<ProgramOp> ops = new ArrayList<>(spec.opsPerTxn());
        for (int o = 0; o < spec.opsPerTxn(); o++) {
          boolean read = rnd.nextDouble() < spec.readRatio();
          int k = spec.distribution().pick(rnd, spec.keys());
          ops.add(maker.make(keyName(k), read, read ? 0 : ++next[k]));
        }
        txns.add(List.copyOf(ops));
      }
      sessions.add(List.copyOf(txns));
    }
    return List.copyOf(sessions);
  }

  /** @return the name of key number {@code k}: {@code x<k>} */
  public static String keyName(int k) {
    return "x" + k;
  }

  /** @return the name of session number {@code s}: {@code s<s>} */
  public static String sessionName(int s) {
    return "s" + s;
  }
}
