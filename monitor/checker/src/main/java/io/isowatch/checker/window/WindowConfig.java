package io.isowatch.checker.window;

import io.isowatch.checker.level.Level;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The window checker's bounds, and the clock its read grace runs on.
 *
 * @param windowTransactions W: a generation retires once it holds W transactions and a new one
 *     starts every W/2 (at least 2)
 * @param windowTimeMicros T: a new generation also starts once the youngest spans T/2 of event time,
 *     microseconds; 0 for no time bound
 * @param readGraceMicros how long (event time, microseconds) a transaction whose read has no known
 *     writer is held, past its end time, before the read clock may declare the writer absent; 0 to
 *     declare it at once
 * @param evictedWrites how many fingerprints of evicted writes are remembered, so that reads of old
 *     values of cold keys are recognised as having a writer (8 bytes each, in memory and in the
 *     store)
 * @param readClock what the read grace is measured against ({@link ReadClock})
 * @param polygraphEvery K: on register-only histories, each generation runs the polygraph checks
 *     (snapshot isolation and serializable) every K transactions fed to it, besides when it retires
 *     and when the window is finished or gives up; 0 for only those ({@link Generations})
 * @param families which families of checks the generations run ({@link CheckFamily}); all of them
 *     unless the caller spreads a history's checking over several checkers
 * @param polygraphUpTo the strongest level whose polygraph check runs: {@link Level#SERIALIZABLE}
 *     (the default) runs both, snapshot isolation only that one, a weaker level neither. The
 *     streaming monitor passes the history's expected level: a polygraph violation of a stronger
 *     level would only be counted (stronger-level-only), at a cost of about 100 times the axiomatic
 *     checks per transaction (docs/PERFORMANCE.md)
 */
public record WindowConfig(int windowTransactions, long windowTimeMicros, long readGraceMicros, int evictedWrites,
    ReadClock readClock, int polygraphEvery, Set<CheckFamily> families, Level polygraphUpTo) {
  /** How many evicted-write fingerprints are kept per window transaction by {@link #of}. */
  public static final int EVICTED_WRITES_PER_TXN = 4;

  /** What the read grace is measured against. */
  public enum ReadClock {
    /**
     * The largest end time offered (or given to {@link WindowChecker#advance(long)}): right for one
     * source that delivers transactions in about end-time order (a file, a test, one partition),
     * where a writer later than the grace will not come.
     */
    END_TIMES,
    /**
     * Only the low watermark given to {@link WindowChecker#advance(long, boolean)}: the least progress
     * of every source that could still deliver a writer (the streaming monitor, whose input is merged
     * from several partitions that progress at different speeds).
     */
    WATERMARKS
  }

  /**
   * @throws IllegalArgumentException for W below 2 or a negative bound
   * @throws NullPointerException for a null clock, families or level
   */
  public WindowConfig {
    if (windowTransactions < 2) {
      throw new IllegalArgumentException("window must hold at least 2 transactions, got " + windowTransactions);
    }
    if (windowTimeMicros < 0 || readGraceMicros < 0 || evictedWrites < 0 || polygraphEvery < 0) {
      throw new IllegalArgumentException("bounds must not be negative");
    }
    Objects.requireNonNull(readClock, "readClock");
    Objects.requireNonNull(polygraphUpTo, "polygraphUpTo");
    families = Collections.unmodifiableSet(EnumSet.copyOf(Objects.requireNonNull(families, "families")));
  }

  /**
   * A config running every family of checks.
   *
   * @throws IllegalArgumentException as the canonical constructor
   */
  public WindowConfig(int windowTransactions, long windowTimeMicros, long readGraceMicros, int evictedWrites,
      ReadClock readClock, int polygraphEvery) {
    this(windowTransactions, windowTimeMicros, readGraceMicros, evictedWrites, readClock, polygraphEvery,
        CheckFamily.all(), Level.SERIALIZABLE);
  }

  /**
   * A config running the polygraph checks every {@link #defaultPolygraphEvery} transactions.
   *
   * @throws IllegalArgumentException as the canonical constructor
   */
  public WindowConfig(int windowTransactions, long windowTimeMicros, long readGraceMicros, int evictedWrites,
      ReadClock readClock) {
    this(windowTransactions, windowTimeMicros, readGraceMicros, evictedWrites, readClock,
        defaultPolygraphEvery(windowTransactions));
  }

  /**
   * A config whose read grace runs on {@link ReadClock#END_TIMES}.
   *
   * @throws IllegalArgumentException as the canonical constructor
   */
  public WindowConfig(int windowTransactions, long windowTimeMicros, long readGraceMicros, int evictedWrites) {
    this(windowTransactions, windowTimeMicros, readGraceMicros, evictedWrites, ReadClock.END_TIMES);
  }

  /**
   * @return a config remembering {@value #EVICTED_WRITES_PER_TXN} × W evicted writes, its read grace
   *     on {@link ReadClock#END_TIMES}
   * @throws IllegalArgumentException as the constructor
   */
  public static WindowConfig of(int windowTransactions, long windowTimeMicros, long readGraceMicros) {
    long evicted = Math.min(Integer.MAX_VALUE, (long) EVICTED_WRITES_PER_TXN * windowTransactions);
    return new WindowConfig(windowTransactions, windowTimeMicros, readGraceMicros, (int) evicted);
  }

  /** @return this config with its read grace on {@link ReadClock#WATERMARKS} */
  public WindowConfig withWatermarks() {
    return new WindowConfig(windowTransactions, windowTimeMicros, readGraceMicros, evictedWrites,
        ReadClock.WATERMARKS, polygraphEvery, families, polygraphUpTo);
  }

  /**
   * @param k transactions fed to a generation between its polygraph runs; 0 for only at retirement,
   *     finish and give-up
   * @return this config with {@link #polygraphEvery} {@code k}
   * @throws IllegalArgumentException for a negative {@code k}
   */
  public WindowConfig withPolygraphEvery(int k) {
    return new WindowConfig(windowTransactions, windowTimeMicros, readGraceMicros, evictedWrites, readClock, k,
        families, polygraphUpTo);
  }

  /**
   * @param only the families of checks to run (not empty)
   * @return this config running only those
   * @throws IllegalArgumentException for no family
   */
  public WindowConfig withFamilies(Set<CheckFamily> only) {
    if (only.isEmpty()) {
      throw new IllegalArgumentException("a window checker must run at least one family of checks");
    }
    return new WindowConfig(windowTransactions, windowTimeMicros, readGraceMicros, evictedWrites, readClock,
        polygraphEvery, only, polygraphUpTo);
  }

  /**
   * @param level the strongest level whose polygraph check should run (a history's expected level)
   * @return this config with {@link #polygraphUpTo} {@code level}
   * @throws NullPointerException for a null level
   */
  public WindowConfig withPolygraphUpTo(Level level) {
    return new WindowConfig(windowTransactions, windowTimeMicros, readGraceMicros, evictedWrites, readClock,
        polygraphEvery, families, level);
  }

  /**
   * @param windowTransactions W
   * @return the default K, max(1000, W/4): a generation of W transactions is decided about four
   *     times before it retires, and one of a window under 1000 transactions only when it retires
   */
  public static int defaultPolygraphEvery(int windowTransactions) {
    return Math.max(1000, windowTransactions / 4);
  }
}
