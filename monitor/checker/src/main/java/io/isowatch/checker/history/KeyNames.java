package io.isowatch.checker.history;

import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.Arrays;

/**
 * A history's keys: names interned to dense ids {@code 0..count()-1}, in the order they first
 * appear.
 *
 * <p>Keys named by a number (Plume, AWDIT, EDN integers) are interned by that number and their
 * decimal names are made only when asked for ({@link #name}): a file of 10^6 keys spent a third of
 * its load making and hashing those strings (docs/PERFORMANCE.md, "issue 20, fourth part"). A name
 * that is a number in canonical decimal form ({@code Long.toString} of a number of at most 18
 * digits) and that number are one key; numbers of 19 digits are keyed by their string on both paths.
 * Numbers are looked up in {@link NumberIds}: an array below the operation count {@link #reserve}
 * gives, a hash table for the rest. Not thread-safe.
 */
final class KeyNames {
  /** Numbers of 19 digits (at least this in magnitude) name their keys by their string. */
  private static final long MAX_NUMBER_KEY = 1_000_000_000_000_000_000L;
  /** The largest array {@link #reserve} lets the numbers index: 2^26 keys, 256 MiB. */
  private static final int MAX_DENSE = 1 << 26;

  /** Keys named by anything but a number in canonical form, name -> id. */
  private final Object2IntOpenHashMap<String> byName = new Object2IntOpenHashMap<>();
  /** Keys named by a number, number -> id. */
  private final NumberIds byNumber = new NumberIds();
  /**
   * Per id the name, or null for a key named by a number and never by its string (see {@link
   * #numbers}). The window asks for names once per operation ({@code Generation}), so a name given
   * as a string is kept.
   */
  private final ObjectArrayList<String> names = new ObjectArrayList<>();
  /** Per id named by a number, the number. */
  private long[] numbers = new long[16];

  KeyNames() {
    byName.defaultReturnValue(-1);
  }

  /**
   * Before the first key named by a number: lets the numbers {@code 0..expected-1} be indexed by an
   * array (grown as they come, up to 2^26). Later calls change nothing, so that a number always
   * takes one path ({@link NumberIds#denseBelow}).
   *
   * @param expected operations the history expects, a bound on its keys
   */
  void reserve(int expected) {
    byNumber.denseBelow(Math.min(expected, MAX_DENSE));
  }

  /** @see History#key(String) */
  int key(String name) {
    if (isCanonicalNumber(name)) {
      int id = key(Long.parseLong(name));
      if (names.get(id) == null) {
        names.set(id, name); // kept, so that name() returns it without making one per call
      }
      return id;
    }
    int id = byName.getInt(name);
    if (id < 0) {
      id = names.size();
      byName.put(name, id);
      names.add(name);
    }
    return id;
  }

  /** @see History#key(long) */
  int key(long number) {
    if (number <= -MAX_NUMBER_KEY || number >= MAX_NUMBER_KEY) {
      return key(Long.toString(number));
    }
    int id = byNumber.putIfAbsent(number, names.size());
    return id >= 0 ? id : newNumberKey(number);
  }

  /** @return the number of keys */
  int count() {
    return names.size();
  }

  /**
   * @return the key's name: the string it was interned by, or its number in decimal
   * @throws IndexOutOfBoundsException if the id is not a key's
   */
  String name(int key) {
    String name = names.get(key);
    return name != null ? name : Long.toString(numbers[key]);
  }

  private int newNumberKey(long number) {
    int id = names.size();
    names.add(null);
    if (id >= numbers.length) {
      numbers = Arrays.copyOf(numbers, Math.max(id + 1, 2 * numbers.length));
    }
    numbers[id] = number;
    return id;
  }

  /** @return whether {@code name} is {@code Long.toString} of a number of at most 18 digits */
  private static boolean isCanonicalNumber(String name) {
    int n = name.length();
    int start = n > 1 && name.charAt(0) == '-' ? 1 : 0;
    if (n == start || n - start > 18 || (name.charAt(start) == '0' && (n - start > 1 || start == 1))) {
      return false;
    }
    for (int i = start; i < n; i++) {
      char c = name.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }
}
