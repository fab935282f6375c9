package io.isowatch.checker.history;

import java.util.Arrays;

/**
 * Which operation wrote a value to a key: an open-addressing hash table from {@code (key, value)}
 * to an operation id, on one primitive array (16 bytes per slot, load factor at most 3/4: at most
 * 1/2 made the table of the one-reader file, 4.5 million writes, 256 MiB instead of 128).
 *
 * <p>Values are unique per key, so the pair names at most one write; that is what makes {@code wr}
 * observable (Biswas &amp; Enea, OOPSLA 2019, §2).
 *
 * <p>Layout: slot {@code i} is {@code slots[2i]}, the value, and {@code slots[2i+1]}, the key in
 * the high and the operation in the low 32 bits ({@link #EMPTY} when free), so that a probe reads
 * one cache line: the table of a history of 10^6 transactions is far larger than the caches, and
 * its lookups (one per write while reading, one per read while checking) were dominated by misses.
 */
public final class WriteIndex {
  private static final long EMPTY = -1L;

  private long[] slots = emptySlots(16);
  private int size;

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
   * @param key a key id
   * @param value a value written to it
   * @return the operation that wrote {@code value} to {@code key}, or -1 if none did (yet)
   */
  public int writerOf(int key, long value) {
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

  /**
   * Indexes {@code op} as the writer of {@code value} to {@code key} unless another operation is,
   * in one probe sequence.
   *
   * @return the operation already indexed for the pair (nothing changed), or -1 (then {@code op} is)
   */
  int putIfAbsent(int key, long value, int op) {
    if (4L * (size + 1) > 3L * (slots.length >> 1)) {
      grow();
    }
    long[] a = slots;
    int mask = (a.length >> 1) - 1;
    int i = slot(key, value, mask);
    for (long ko; (ko = a[2 * i + 1]) != EMPTY; i = (i + 1) & mask) {
      if ((int) (ko >>> 32) == key && a[2 * i] == value) {
        return (int) ko;
      }
    }
    a[2 * i] = value;
    a[2 * i + 1] = keyAndOp(key, op);
    size++;
    return -1;
  }

  /** Makes room for {@code writes} entries in all, at load factor 3/4, without growing on the way. */
  void reserve(int writes) {
    int capacity = slots.length >> 1;
    while (4L * writes > 3L * capacity && capacity < 1 << 29) {
      capacity <<= 1;
    }
    if (capacity > slots.length >> 1) {
      rehash(capacity);
    }
  }

  private void grow() {
    rehash(slots.length); // twice the capacity: slots.length / 2 before
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
