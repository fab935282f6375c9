package io.isowatch.checker.window;

/**
 * The window checker's bounds.
 *
 * @param windowTransactions W: a generation retires once it holds W transactions and a new one
 *     starts every W/2 (at least 2)
 * @param windowTimeMicros T: a new generation also starts once the youngest spans T/2 of event time,
 *     microseconds; 0 for no time bound
 * @param readGraceMicros how long (event time, microseconds) a transaction whose read has no known
 *     writer is held before the read is reported as unresolved; 0 to report at once
 * @param evictedWrites how many fingerprints of evicted writes are remembered, so that reads of old
 *     values of cold keys are recognised as having a writer (8 bytes each, in memory and in the
 *     store)
 */
public record WindowConfig(int windowTransactions, long windowTimeMicros, long readGraceMicros, int evictedWrites) {
  /** How many evicted-write fingerprints are kept per window transaction by {@link #of}. */
  public static final int EVICTED_WRITES_PER_TXN = 4;

  /** @throws IllegalArgumentException for W below 2 or a negative bound */
  public WindowConfig {
    if (windowTransactions < 2) {
      throw new IllegalArgumentException("window must hold at least 2 transactions, got " + windowTransactions);
    }
    if (windowTimeMicros < 0 || readGraceMicros < 0 || evictedWrites < 0) {
      throw new IllegalArgumentException("bounds must not be negative");
    }
  }

  /**
   * @return a config remembering {@value #EVICTED_WRITES_PER_TXN} × W evicted writes
   * @throws IllegalArgumentException as the constructor
   */
  public static WindowConfig of(int windowTransactions, long windowTimeMicros, long readGraceMicros) {
    long evicted = Math.min(Integer.MAX_VALUE, (long) EVICTED_WRITES_PER_TXN * windowTransactions);
    return new WindowConfig(windowTransactions, windowTimeMicros, readGraceMicros, (int) evicted);
  }
}
