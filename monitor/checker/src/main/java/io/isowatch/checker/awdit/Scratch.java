package io.isowatch.checker.awdit;

import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

/**
 * Emptying the per-transaction hash tables the checkers reuse. fastutil's {@code clear()} costs the
 * table's capacity, so after one wide transaction (10^6 operations) every later small one would pay
 * for it; a table that held many entries is shrunk back instead.
 */
final class Scratch {
  /** Entries above which a cleared table is also shrunk. */
  static final int SHRINK_ABOVE = 1024;

  private Scratch() {}

  static void reset(Int2IntOpenHashMap m) {
    boolean big = m.size() > SHRINK_ABOVE;
    m.clear();
    if (big) {
      m.trim();
    }
  }

  static void reset(IntOpenHashSet s) {
    boolean big = s.size() > SHRINK_ABOVE;
    s.clear();
    if (big) {
      s.trim();
    }
  }
}
