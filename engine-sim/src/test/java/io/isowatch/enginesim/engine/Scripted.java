package io.isowatch.enginesim.engine;

import java.util.ArrayDeque;
import java.util.random.RandomGenerator;

/**
 * A generator whose {@code nextInt(bound)} answers are given in advance, for hand-scheduled
 * delivery in tests.
 */
public final class Scripted implements RandomGenerator {
  private final ArrayDeque<Integer> picks = new ArrayDeque<>();

  /** @param picks the answers of successive {@code nextInt(bound)} calls */
  public Scripted(int... picks) {
    for (int p : picks) {
      this.picks.add(p);
    }
  }

  /** @throws IllegalStateException if the script is used up or a pick is out of {@code [0, bound)} */
  @Override
  public int nextInt(int bound) {
    Integer p = picks.poll();
    if (p == null || p >= bound) {
      throw new IllegalStateException("scripted pick " + p + " for bound " + bound);
    }
    return p;
  }

  /** @throws UnsupportedOperationException always: only {@code nextInt(bound)} is scripted */
  @Override
  public long nextLong() {
    throw new UnsupportedOperationException("only nextInt(bound) is scripted");
  }
}
