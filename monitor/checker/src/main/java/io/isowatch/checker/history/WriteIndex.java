package io.isowatch.checker.history;

import java.util.Arrays;

/**
 * Which operation wrote a value to a key. Values are unique per key, so the pair names at most one
 * write; that is what makes {@code wr} observable (Biswas &amp; Enea, OOPSLA 2019, §2).
 *
 * <p>Two tiers, each pair in at most one of them:
 *
 * <ul>
 *   <li><b>Per key, an array indexed by value</b> ({@code byValue[key][value]} = operation + 1, 0
 *       when none), for the values most histories write: small non-negative numbers, per key a
 *       counter (the benchmark's and the simulator's registers, Elle's appends, Plume's files).
 *       A value goes there when it lies within the key's array or below {@value #SLACK} plus four
 *       times the key's writes already there; an array is at least doubled when it grows, so it
 *       holds fewer than 8 slots per write plus 32 however the values fall. A key's writes sit
 *       side by side: at 10^5 transactions of the whole-process benchmark (400,000 writes to 10^4
 *       keys) the arrays hold at most 3.2 MiB where the hash table held 16, and the look-ups (one
 *       per write while reading, one per read while checking), mostly cache misses, went from 27 %
 *       to 17 % of {@code check --level read-committed}'s samples (docs/PERFORMANCE.md, "issue 20,
 *       fifth part").
 *   <li><b>An open-addressing hash table</b> from {@code (key, value)} to the operation for the
 *       others (negative, large or sparse values: Cobra's and dbcop's), on one primitive array (16
 *       bytes per slot, load factor at most 3/4). Slot {@code i} is {@code slots[2i]}, the value,
 *       and {@code slots[2i+1]}, the key in the high and the operation in the low 32 bits ({@link
 *       #EMPTY} when free), so that a probe reads one cache line.
 * </ul>
 *
 * <p>A key's array only grows, and a value goes to the table only when it lies beyond the key's
 * array at that moment; a pair is therefore looked up in the array if it lies within, then, if the
 * table holds anything, in the table (where a value that lay beyond the array before it grew is).
 */
public final class WriteIndex {
  private static final long EMPTY = -1L;
  /** Values below this go to a key's array whatever its writes; see the class comment. */
  static final int SLACK = 16;

  /** {@code byValue[key]}: the key's array, operation + 1 by value; null before its first write. */
  private int[][] byValue = new int[16][];
  /** {@code inArray[key]}: the writes to the key held in its array. */
  private int[] inArray = new int[16];
  private int size;

  private long[] slots = emptySlots(16);
  private int inTable;
  /** Writes a reader expects ({@link #reserve}); the table is sized for those left at its first. */
  private int expected;

  WriteIndex() {}

  private static long[] emptySlots(int capacity) {
    long[] a = new long[2 * capacity];
    Arrays.fill(a, EMPTY);
    return a;
  }

  private static int slot(int key, long value, int mask) {
    long h = (value ^ ((long) key << 40 | (long) key >>> 24)) * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  private static long keyAndOp(int key, int op) {
    return (long) key << 32 | (op & 0xFFFFFFFFL);
  }

  /**
   * @param key a key id (any int: an id no write used finds nothing)
   * @param value a value written to it
   * @return the operation that wrote {@code value} to {@code key}, or -1 if none did (yet)
   */
  public int writerOf(int key, long value) {
    int[][] b = byValue;
    int[] a;
    if (value >= 0 && key >= 0 && key < b.length && (a = b[key]) != null && value < a.length) {
      int op = a[(int) value] - 1;
      if (op >= 0) {
        return op;
      }
    }
    return inTable == 0 ? -1 : tableGet(key, value);
  }

  /**
   * Indexes {@code op} as the writer of {@code value} to {@code key} unless another operation is.
   *
   * @param key a key id, at least 0
   * @param value the value written
   * @param op the writing operation, at least 0
   * @return the operation already indexed for the pair (nothing changed), or -1 (then {@code op} is)
   */
  int putIfAbsent(int key, long value, int op) {
    int prior = writerOf(key, value);
    if (prior >= 0) {
      return prior;
    }
    boolean known = key < byValue.length;
    int[] a = known ? byValue[key] : null;
    if (value >= 0 && (a != null && value < a.length
        || value < SLACK + 4L * (known ? inArray[key] : 0))) {
      int v = (int) value;
      if (a == null || v >= a.length) {
        a = grown(key, a, v);
      }
      a[v] = op + 1;
      inArray[key]++;
    } else {
      tablePut(key, value, op);
    }
    size++;
    return -1;
  }

  /** The key's array made long enough for {@code v}: at least doubled, so growth costs O(1) a write. */
  private int[] grown(int key, int[] a, int v) {
    if (key >= byValue.length) {
      int n = Math.max(key + 1, 2 * byValue.length);
      byValue = Arrays.copyOf(byValue, n);
      inArray = Arrays.copyOf(inArray, n);
    }
    int length = Math.max(v + 1, a == null ? 4 : 2 * a.length);
    int[] grown = a == null ? new int[length] : Arrays.copyOf(a, length);
    byValue[key] = grown;
    return grown;
  }

  private int tableGet(int key, long value) {
    long[] a = slots;
    int mask = (a.length >> 1) - 1;
    for (int i = slot(key, value, mask); ; i = (i + 1) & mask) {
      long ko = a[2 * i + 1];
      if (ko == EMPTY) {
        return -1;
      }
      if ((int) (ko >>> 32) == key && a[2 * i] == value) {
        return (int) ko;
      }
    }
  }

  private void tablePut(int key, long value, int op) {
    if (inTable == 0 && expected > size) {
      ensureTable(expected - size);
    }
    if (4L * (inTable + 1) > 3L * (slots.length >> 1)) {
      rehash(slots.length); // twice the capacity: slots.length / 2 before
    }
    long[] a = slots;
    int mask = (a.length >> 1) - 1;
    int i = slot(key, value, mask);
    while (a[2 * i + 1] != EMPTY) {
      i = (i + 1) & mask;
    }
    a[2 * i] = value;
    a[2 * i + 1] = keyAndOp(key, op);
    inTable++;
  }

  /**
   * A hint: about {@code writes} writes will be indexed. The table is not made then but at its
   * first write, for the writes still expected: a history whose values fill the arrays never needs
   * it, and one whose values do not (Cobra's, dbcop's) shows it within its first writes.
   *
   * @param writes writes expected in all, at least 0
   */
  void reserve(int writes) {
    expected = Math.max(expected, writes);
  }

  /** Makes the table hold {@code writes} entries at load factor 3/4 without growing on the way. */
  private void ensureTable(int writes) {
    int capacity = slots.length >> 1;
    while (4L * writes > 3L * capacity && capacity < 1 << 29) {
      capacity <<= 1;
    }
    if (capacity > slots.length >> 1) {
      rehash(capacity);
    }
  }

  private void rehash(int capacity) {
    long[] old = slots;
    long[] a = emptySlots(capacity);
    int mask = capacity - 1;
    for (int j = 1; j < old.length; j += 2) {
      long ko = old[j];
      if (ko != EMPTY) {
        long value = old[j - 1];
        int i = slot((int) (ko >>> 32), value, mask);
        while (a[2 * i + 1] != EMPTY) {
          i = (i + 1) & mask;
        }
        a[2 * i] = value;
        a[2 * i + 1] = ko;
      }
    }
    slots = a;
  }

  /** @return the number of writes indexed */
  public int size() {
    return size;
  }
}
