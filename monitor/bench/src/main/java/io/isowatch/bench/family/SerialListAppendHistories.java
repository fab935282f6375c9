package io.isowatch.bench.family;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Large serializable list-append histories written straight into a {@link History}: the workload
 * of issue 3's benchmark rows, {@code N} committed transactions of {@value #OPS_PER_TXN} operations
 * each over {@value #SESSIONS} sessions, in the shape of Elle's list-append test (Kingsbury &amp;
 * Alvaro, VLDB 2020, §3): each operation appends an element to a key's list or reads the whole list.
 *
 * <p>The histories come from a sequential "database": transactions run one after the other, each
 * on a session drawn uniformly at random; a list read returns the key's current list (the elements
 * committed so far followed by the transaction's own earlier appends to the key, oldest first).
 * Such a history is serializable, so it is consistent at every level and a checker finds nothing.
 * Elements are unique per key (the {@code i}-th append to a key appends {@code i}, counting from 1).
 *
 * <p>A list read stores the whole list, so the history grows with the sum of the read lists'
 * lengths; the keys are many ({@link Shape#standard}: {@code N / 4}) and uniform so that lists stay
 * short (about {@code 8 * N * appendFraction / keys} elements at the end). Keys are named {@code k0
 * .. k<keys-1>} (key id = index). Generation is deterministic in the seed and takes time linear in
 * the history's size.
 */
public final class SerialListAppendHistories {
  /** Sessions of every generated history (all interned, even if some received no transaction). */
  public static final int SESSIONS = 50;

  /** Operations per transaction. */
  public static final int OPS_PER_TXN = 8;

  private SerialListAppendHistories() {}

  /**
   * Shape of a generated history.
   *
   * @param transactions number of transactions, at least 1
   * @param keys size of the key space, at least 1; keys are drawn uniformly. With {@code
   *     maxAppendsPerKey}, the number of key slots: each slot holds one live key at a time
   * @param appendFraction probability that an operation is an append, in [0, 1]
   * @param maxAppendsPerKey 0 for keys that live as long as the history; otherwise a key's list
   *     is retired once it holds this many elements, and its slot moves on to a fresh key (named
   *     {@code k<keys>}, {@code k<keys+1>}, ... in order of first use), as Elle's list-append
   *     workload and the probe's {@code --max-appends-per-key} bound a list's length; at least 0
   */
  public record Shape(int transactions, int keys, double appendFraction, int maxAppendsPerKey) {
    /**
     * @throws IllegalArgumentException if a field is out of its range
     */
    public Shape {
      if (transactions < 1 || keys < 1 || !(appendFraction >= 0 && appendFraction <= 1) || maxAppendsPerKey < 0) {
        throw new IllegalArgumentException("bad shape: " + transactions + " transactions, " + keys
            + " keys, append fraction " + appendFraction + ", at most " + maxAppendsPerKey + " appends per key");
      }
    }

    /** A shape whose keys live as long as the history ({@code maxAppendsPerKey} 0). */
    public Shape(int transactions, int keys, double appendFraction) {
      this(transactions, keys, appendFraction, 0);
    }

    /**
     * The benchmark's default shape: {@code max(1, transactions / 4)} keys, half of the operations
     * appends, so a key receives about 16 appends over the whole history.
     *
     * @param transactions number of transactions, at least 1
     * @return the shape
     */
    public static Shape standard(int transactions) {
      return new Shape(transactions, Math.max(1, transactions / 4), 0.5);
    }

    /**
     * The bounded shape: Elle's and the probe's, 1,000 key slots, half of the operations appends,
     * each list retired at {@code maxAppendsPerKey} elements, so that the transactions on a key are
     * bounded whatever the history's length.
     *
     * @param transactions number of transactions, at least 1
     * @param maxAppendsPerKey at least 1
     * @return the shape
     */
    public static Shape rotating(int transactions, int maxAppendsPerKey) {
      if (maxAppendsPerKey < 1) {
        throw new IllegalArgumentException("at most " + maxAppendsPerKey + " appends per key: give at least 1");
      }
      return new Shape(transactions, 1_000, 0.5, maxAppendsPerKey);
    }
  }

  /**
   * Generates a history.
   *
   * @param shape its shape
   * @param seed the random seed; the same seed and shape give the same history, operation for
   *     operation
   * @return a history of {@code shape.transactions()} committed transactions, {@code 8 *
   *     shape.transactions()} operations, {@value #SESSIONS} sessions and {@code shape.keys()} keys
   */
  public static History generate(Shape shape, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int slots = shape.keys();
    int max = shape.maxAppendsPerKey();
    History h = SerialRegisterHistories.interned(slots, SESSIONS);
    // the live key of each slot; key ids are History key indexes (k<id>)
    int[] slotKey = new int[slots];
    for (int k = 0; k < slots; k++) {
      slotKey[k] = k;
    }
    // committed list of key k: elements 1 .. committed[k]; a transaction's own appends follow
    long[] committed = new long[slots];
    int[] ownKey = new int[OPS_PER_TXN];
    int[] ownCount = new int[OPS_PER_TXN];
    long[] list = new long[16];
    for (int t = 0; t < shape.transactions(); t++) {
      h.beginTxn(rnd.nextInt(SESSIONS), t);
      int owned = 0;
      for (int i = 0; i < OPS_PER_TXN; i++) {
        int slot = rnd.nextInt(slots);
        boolean append = rnd.nextDouble() < shape.appendFraction();
        int key = slotKey[slot];
        int own = indexOf(ownKey, owned, key);
        int pending = own >= 0 ? ownCount[own] : 0;
        if (append && max > 0 && committed[key] + pending >= max) {
          key = h.key("k" + h.keyCount());
          slotKey[slot] = key;
          if (committed.length <= key) {
            committed = Arrays.copyOf(committed, 2 * key + 1);
          }
          own = -1;
          pending = 0;
        }
        if (append) {
          h.append(key, committed[key] + pending + 1);
          if (own < 0) {
            own = owned++;
            ownKey[own] = key;
            ownCount[own] = 0;
          }
          ownCount[own]++;
        } else {
          int length = (int) committed[key] + pending;
          if (list.length < length) {
            list = new long[Math.max(length, 2 * list.length)];
          }
          for (int e = 0; e < length; e++) {
            list[e] = e + 1;
          }
          h.readList(key, list, 0, length);
        }
      }
      h.end(TxnStatus.COMMITTED);
      for (int i = 0; i < owned; i++) {
        committed[ownKey[i]] += ownCount[i];
      }
    }
    return h;
  }

  private static int indexOf(int[] a, int n, int x) {
    for (int i = 0; i < n; i++) {
      if (a[i] == x) {
        return i;
      }
    }
    return -1;
  }
}
