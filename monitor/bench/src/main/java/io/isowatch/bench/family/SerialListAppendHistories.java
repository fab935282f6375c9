package io.isowatch.bench.family;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
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
   * @param keys size of the key space, at least 1; keys are drawn uniformly
   * @param appendFraction probability that an operation is an append, in [0, 1]
   */
  public record Shape(int transactions, int keys, double appendFraction) {
    /**
     * @throws IllegalArgumentException if a field is out of its range
     */
    public Shape {
      if (transactions < 1 || keys < 1 || !(appendFraction >= 0 && appendFraction <= 1)) {
        throw new IllegalArgumentException("bad shape: " + transactions + " transactions, " + keys
            + " keys, append fraction " + appendFraction);
      }
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
    int keys = shape.keys();
    History h = SerialRegisterHistories.interned(keys, SESSIONS);
    // committed list of key k: elements 1 .. committed[k]; a transaction's own appends follow
    long[] committed = new long[keys];
    int[] ownKey = new int[OPS_PER_TXN];
    int[] ownCount = new int[OPS_PER_TXN];
    long[] list = new long[16];
    for (int t = 0; t < shape.transactions(); t++) {
      h.beginTxn(rnd.nextInt(SESSIONS), t);
      int owned = 0;
      for (int i = 0; i < OPS_PER_TXN; i++) {
        int key = rnd.nextInt(keys);
        int own = indexOf(ownKey, owned, key);
        int pending = own >= 0 ? ownCount[own] : 0;
        if (rnd.nextDouble() < shape.appendFraction()) {
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
