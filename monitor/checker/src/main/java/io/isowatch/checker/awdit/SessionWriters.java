package io.isowatch.checker.awdit;

import java.util.Arrays;

/**
 * The transactions of one session that write one key, in session order: their positions in the
 * session and their ids, interleaved on one int array. {@link #lastBefore} searches from a cursor left where
 * the previous search ended (exponential then binary search), so the mostly increasing bounds of a
 * pass in topological order cost O(1) amortised each, and any bound at most O(log n).
 */
final class SessionWriters {
  /** Interleaved: at 2i the session position of writer i, at 2i+1 its transaction id. */
  private int[] entries = new int[4];
  private int size;
  private int cursor;

  /** Appends a writer; positions must increase. */
  void add(int sessionIndex, int t) {
    if (2 * size == entries.length) {
      entries = Arrays.copyOf(entries, 4 * size);
    }
    entries[2 * size] = sessionIndex;
    entries[2 * size + 1] = t;
    size++;
  }

  private int index(int i) {
    return entries[2 * i];
  }

  /**
   * @param bound a session position
   * @return the last writer whose position is below {@code bound}, or -1 if none
   */
  int lastBefore(int bound) {
    int c = Math.min(cursor, size - 1);
    int lo;
    int hi;
    if (index(c) < bound) {
      // answer at or after c: gallop forward
      int step = 1;
      lo = c;
      hi = c + 1;
      while (hi < size && index(hi) < bound) {
        lo = hi;
        step <<= 1;
        hi = Math.min(size, lo + step);
      }
      hi = Math.min(hi, size) - 1;
    } else {
      // answer before c: gallop backward
      int step = 1;
      hi = c - 1;
      lo = c - 1;
      while (lo >= 0 && index(lo) >= bound) {
        hi = lo - 1;
        step <<= 1;
        lo = c - step;
      }
      if (lo < 0) {
        lo = -1;
      }
      if (hi < lo) {
        hi = lo;
      }
    }
    // invariant: index(lo) < bound (or lo == -1); find the last such position in [lo, hi]
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (index(mid) < bound) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    if (lo < 0) {
      cursor = 0;
      return -1;
    }
    cursor = lo;
    return entries[2 * lo + 1];
  }
}
