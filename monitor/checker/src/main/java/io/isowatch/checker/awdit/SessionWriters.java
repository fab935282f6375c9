package io.isowatch.checker.awdit;

import java.util.Arrays;

/**
 * The transactions of one session that write one key, in session order: their positions in the
 * session and their ids, on two int arrays. {@link #lastBefore} searches from a cursor left where
 * the previous search ended (exponential then binary search), so the mostly increasing bounds of a
 * pass in topological order cost O(1) amortised each, and any bound at most O(log n).
 */
final class SessionWriters {
  final int session;
  private int[] index = new int[2];
  private int[] txn = new int[2];
  private int size;
  private int cursor;

  SessionWriters(int session) {
    this.session = session;
  }

  /** Appends a writer; positions must increase. */
  void add(int sessionIndex, int t) {
    if (size == index.length) {
      index = Arrays.copyOf(index, size * 2);
      txn = Arrays.copyOf(txn, size * 2);
    }
    index[size] = sessionIndex;
    txn[size] = t;
    size++;
  }

  /** @return the session position of the last writer appended */
  int lastIndex() {
    return index[size - 1];
  }

  /** @return the last writer appended */
  int last() {
    return txn[size - 1];
  }

  /**
   * @param bound a session position
   * @return the last writer whose position is below {@code bound}, or -1 if none
   */
  int lastBefore(int bound) {
    int c = Math.min(cursor, size - 1);
    int lo;
    int hi;
    if (index[c] < bound) {
      // answer at or after c: gallop forward
      int step = 1;
      lo = c;
      hi = c + 1;
      while (hi < size && index[hi] < bound) {
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
      while (lo >= 0 && index[lo] >= bound) {
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
    // invariant: index[lo] < bound (or lo == -1); find the last such position in [lo, hi]
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (index[mid] < bound) {
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
    return txn[lo];
  }
}
