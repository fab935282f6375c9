package io.isowatch.enginesim.workload;

import java.util.Random;

/**
 * How a generated operation chooses its key among {@code keys} keys {@code 0 .. keys-1}.
 *
 * <p>{@link #ZIPF} is the Zipf law with exponent 1 (YCSB's "zipfian" request distribution, Cooper et
 * al., SoCC 2010, §4.1): key {@code k} is drawn with probability proportional to {@code 1/(k+1)},
 * so key 0 is the hot key. Sampling is by inverse transform on the cumulative weights, one {@link
 * Random#nextDouble()} per draw, O(keys).
 */
public enum KeyDistribution {
  /** Every key equally likely: one {@link Random#nextInt(int)} per draw. */
  UNIFORM,
  /** Key {@code k} with probability proportional to {@code 1/(k+1)}. */
  ZIPF;

  /**
   * @param rnd the workload's generator
   * @param keys number of keys, {@code >= 1}
   * @return a key number in {@code [0, keys)}
   */
  public int pick(Random rnd, int keys) {
    if (this == UNIFORM) {
      return rnd.nextInt(keys);
    }
    double total = 0;
    for (int k = 0; k < keys; k++) {
      total += 1.0 / (k + 1);
    }
    double u = rnd.nextDouble() * total;
    double acc = 0;
    for (int k = 0; k < keys; k++) {
      acc += 1.0 / (k + 1);
      if (u < acc) {
        return k;
      }
    }
    return keys - 1;
  }
}
