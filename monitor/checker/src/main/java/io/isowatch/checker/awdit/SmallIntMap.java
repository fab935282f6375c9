package io.isowatch.checker.awdit;

import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.util.Arrays;

/**
 * An int-to-int map for the tables of the checkers that hold a handful of entries: the
 * per-transaction scratch tables (keys or writers of one transaction), emptied once per transaction,
 * and read atomic's per-key table of the sessions writing the key. Up to {@value #LINEAR} entries it
 * is two small arrays searched linearly (no hashing, and {@link #clear()} costs
 * O(1) where a hash table's costs its capacity); past that it moves every entry to a hash table, so
 * a wide transaction (10^6 operations) still costs O(1) per operation ({@link #clear()} keeps a
 * table of moderate size for the next wide transaction and drops a large one).
 *
 * <p>Absent keys map to the {@code missing} value given at construction. As a set, {@link #add} and
 * {@link #contains} store and test the value 0. Not thread-safe.
 */
final class SmallIntMap {
  /** Entries kept in the linear arrays before the map moves to a hash table. */
  static final int LINEAR = 16;

  private final int missing;
  /** Grown by doubling up to {@link #LINEAR}, so that a map per key (read atomic) stays small. */
  private int[] keys = new int[2];
  private int[] values = new int[2];
  private int size;
  /** Entries above which a spilled hash table is dropped at {@link #clear()} rather than kept for reuse. */
  static final int KEEP_AT_MOST = 1024;

  /** All entries once there are more than {@link #LINEAR}; null before. */
  private Int2IntOpenHashMap spill;
  /** A cleared hash table kept for the next spill, so that wide transactions do not regrow one each. */
  private Int2IntOpenHashMap spare;

  /** @param missing what {@link #get} returns for an absent key */
  SmallIntMap(int missing) {
    this.missing = missing;
  }

  /** @return the value of {@code key}, or the missing value */
  int get(int key) {
    if (spill != null) {
      return spill.get(key);
    }
    for (int i = 0; i < size; i++) {
      if (keys[i] == key) {
        return values[i];
      }
    }
    return missing;
  }

  /** Maps {@code key} to {@code value}, replacing any earlier value. */
  void put(int key, int value) {
    if (spill != null) {
      spill.put(key, value);
      return;
    }
    for (int i = 0; i < size; i++) {
      if (keys[i] == key) {
        values[i] = value;
        return;
      }
    }
    append(key, value);
  }

  /**
   * Maps {@code key} to {@code value} unless it is present.
   *
   * @return the value it had, or the missing value if it was absent (and is now mapped)
   */
  int putIfAbsent(int key, int value) {
    if (spill != null) {
      return spill.putIfAbsent(key, value);
    }
    for (int i = 0; i < size; i++) {
      if (keys[i] == key) {
        return values[i];
      }
    }
    append(key, value);
    return missing;
  }

  /** As a set: adds {@code key} (with value 0). @return whether it was absent */
  boolean add(int key) {
    int before = size();
    putIfAbsent(key, 0);
    return size() > before;
  }

  /** As a set: @return whether {@code key} is present */
  boolean contains(int key) {
    if (spill != null) {
      return spill.containsKey(key);
    }
    for (int i = 0; i < size; i++) {
      if (keys[i] == key) {
        return true;
      }
    }
    return false;
  }

  /** @return the number of entries */
  int size() {
    return spill != null ? spill.size() : size;
  }

  /**
   * Removes every entry: O(1) in linear mode. A hash table is set aside for the next spill, emptied
   * then (its capacity, paid by a map that holds more than {@value #LINEAR} entries again), unless
   * it held more than {@value #KEEP_AT_MOST} entries: then it is dropped, so that the maps after one
   * wide transaction (10^6 operations) do not pay for its size.
   */
  void clear() {
    size = 0;
    if (spill != null) {
      spare = spill.size() > KEEP_AT_MOST ? null : spill;
      spill = null;
    }
  }

  private void append(int key, int value) {
    if (size < LINEAR) {
      if (size == keys.length) {
        keys = Arrays.copyOf(keys, 2 * size);
        values = Arrays.copyOf(values, 2 * size);
      }
      keys[size] = key;
      values[size] = value;
      size++;
      return;
    }
    if (spare != null) {
      spill = spare;
      spare = null;
      spill.clear();
    } else {
      spill = new Int2IntOpenHashMap(4 * LINEAR);
      spill.defaultReturnValue(missing);
    }
    for (int i = 0; i < size; i++) {
      spill.put(keys[i], values[i]);
    }
    spill.put(key, value);
  }
}
