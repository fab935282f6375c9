package io.isowatch.enginesim.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The list-append workload (Elle, Kingsbury &amp; Alvaro, VLDB 2020, §3): every session runs {@code
 * txnsPerSession} transactions of {@code opsPerTxn} operations; each operation reads a key's whole
 * list with probability {@code readRatio}, otherwise appends an element to it, on a key chosen by
 * {@link WorkloadSpec#distribution()}. Elements are unique per key: the appends to key {@code x}
 * carry {@code 1, 2, 3, ...} in the order they were generated. A list read reveals the version order
 * of its key up to that point, which is what lets the Adya checker recover ww and rw dependencies.
 *
 * <p>Deterministic: {@link java.util.Random} seeded with {@link WorkloadSpec#seed()}, drawn in the
 * same order as {@link RegisterWorkload}, so the two workloads of one spec touch the same keys in
 * the same places. Cost: O(sessions × txnsPerSession × opsPerTxn × keys) with Zipf keys, without
 * the {@code keys} factor when uniform.
 */
public final class ListAppendWorkload {
  private ListAppendWorkload() {}

  /**
   * @return per session (index {@code i} is session {@code s<i>}), its transactions in session order,
   *     each a list of {@code opsPerTxn} {@link ProgramOp#readList} / {@link ProgramOp#append}
   *     operations in program order
   */
  public static List<List<List<ProgramOp>>> generate(WorkloadSpec spec) {
    Random rnd = new Random(spec.seed());
    long[] nextElement = new long[spec.keys()];
    List<List<List<ProgramOp>>> sessions = new ArrayList<>(spec.sessions());
    for (int s = 0; s < spec.sessions(); s++) {
      List<List<ProgramOp>> txns = new ArrayList<>(spec.txnsPerSession());
      for (int t = 0; t < spec.txnsPerSession(); t++) {
        List<ProgramOp> ops = new ArrayList<>(spec.opsPerTxn());
        for (int o = 0; o < spec.opsPerTxn(); o++) {
          boolean read = rnd.nextDouble() < spec.readRatio();
          int k = spec.distribution().pick(rnd, spec.keys());
          String key = RegisterWorkload.keyName(k);
          ops.add(read ? ProgramOp.readList(key) : ProgramOp.append(key, ++nextElement[k]));
        }
        txns.add(List.copyOf(ops));
      }
      sessions.add(List.copyOf(txns));
    }
    return List.copyOf(sessions);
  }
}
