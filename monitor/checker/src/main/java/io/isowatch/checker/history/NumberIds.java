package io.isowatch.checker.history;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.util.Arrays;

/**
 * A map from numbers named in a history file (keys, transactions) to non-negative ints, for readers
 * that meet each number in the file's order: numbers in {@code [0, dense)} are an array index,
 * grown by doubling up to {@code dense}, the others go to a hash table. Files number their keys and
 * transactions 0, 1, 2, ..., and at 10^6 of them the hash table's probes missed the caches where the
 * array's stores, in the file's order, did not (docs/PERFORMANCE.md, "issue 20, fourth part").
 * Memory: 4 bytes per number up to the largest below {@code dense} that was put. Not thread-safe.
 */
public final class NumberIds {
  /** Per number below {@link #dense}: its value + 1, 0 if absent. */
  private int[] byIndex = new int[0];
  private long dense;
  private final Long2IntOpenHashMap byHash = new Long2IntOpenHashMap();

  /** An empty map with no array range ({@link #denseBelow} sets one). */
  public NumberIds() {
    byHash.defaultReturnValue(-1);
  }

  /**
   * Lets the numbers {@code 0..limit-1} be indexed by the array, if nothing was put yet (so that a
   * number always takes one path); later calls change nothing.
   *
   * @param limit at least 0; at most {@code Integer.MAX_VALUE - 8} is used
   */
  public void denseBelow(long limit) {
    if (byIndex.length == 0 && byHash.isEmpty()) {
      dense = Math.max(dense, Math.min(limit, Integer.MAX_VALUE - 8));
    }
  }

  /**
   * Maps {@code number} to {@code value} unless it is mapped.
   *
   * @param value at least 0
   * @return the value it had, or -1 if it was absent (and now maps to {@code value})
   */
  public int putIfAbsent(long number, int value) {
    if (number < 0 || number >= dense) {
      return byHash.putIfAbsent(number, value);
    }
    int i = (int) number;
    if (i >= byIndex.length) {
      long grown = Math.max(i + 1L, 2L * byIndex.length + 16);
      byIndex = Arrays.copyOf(byIndex, (int) Math.min(grown, dense));
    }
    int prior = byIndex[i] - 1;
    if (prior < 0) {
      byIndex[i] = value + 1;
    }
    return prior;
  }
}
