package io.isowatch.enginesim.workload;

import java.util.List;

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
    return RegisterWorkload.programs(spec,
        (key, read, next) -> read ? ProgramOp.readList(key) : ProgramOp.append(key, next));
  }
}
