package io.isowatch.checker.history;

import java.util.Arrays;

/**
 * Which operation wrote a value to a key: an open-addressing hash table from {@code (key, value)}
 * to an operation id, on primitive arrays (12 bytes per slot, load factor at most 1/2).
 *
 * <p>Values are unique per key, so the pair names at most one write; that is what makes {@code wr}
 * observable (Biswas &amp; Enea, OOPSLA 2019, §2).
 */
public final class WriteIndex {
  private int[] keys = new int[16];
  private long[] values = new long[16];
  private int[] ops = filled(16);
  private int size;

  WriteIndex() {}

  private static int[] filled(int n) {
    int[] a = new int[n];
    Arrays.fill(a, -1);
    return a;
  }

  private static int slot(int key, long value, int mask) {
    long h = value * 0x9E3779B97F4A7C15L + key * 0xC2B2AE3D27D4EB4FL;
    return (int) (h ^ (h >>> 29)) & mask;
  }

  /**
   * @param key a key id
   * @param value a value written to it
   * @return the operation that wrote {@code value} to {@code key}, or -1 if none did (yet)
   */
  public int writerOf(int key, long value) {
    int mask = ops.length - 1;
    for (int i = slot(key, value, mask); ; i = (i + 1) & mask) {
      int op = ops[i];
      if (op < 0) {
        return -1;
      }
      if (keys[i] == key && values[i] == value) {
        return op;
      }
    }
  }

  void put(int key, long value, int op) {
    if (2 * (size + 1) > ops.length) {
      grow();
    }
    insert(key, value, op);
    size++;
  }

  private void insert(int key, long value, int op) {
    int mask = ops.length - 1;
    int i = slot(key, value, mask);
    while (ops[i] >= 0) {
      i = (i + 1) & mask;
    }
    keys[i] = key;
    values[i] = value;
    ops[i] = op;
  }

  private void grow() {
    int[] oldKeys = keys;
    long[] oldValues = values;
    int[] oldOps = ops;
    int n = oldOps.length * 2;
    keys = new int[n];
    values = new long[n];
    ops = filled(n);
    for (int i = 0; i < oldOps.length; i++) {
      if (oldOps[i] >= 0) {
        insert(oldKeys[i], oldValues[i], oldOps[i]);
      }
    }
  }

  /** @return the number of writes indexed */
  public int size() {
    return size;
  }
}
