package io.isowatch.schemas;

import java.time.Instant;

/**
 * The records' event times: Avro {@code timestamp-micros} fields are {@link Instant}s in Java, and
 * the checkers and watermarks count microseconds since the epoch (UTC) in a {@code long}.
 */
public final class EventTimes {
  private EventTimes() {}

  /**
   * @param t an instant; every {@code timestamp-micros} field decoded by Avro fits
   * @return {@code t} as microseconds since the epoch, sub-microsecond digits dropped
   * @throws ArithmeticException if {@code t} is outside the range of {@code long} microseconds
   */
  public static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
  }

  /**
   * @param micros microseconds since the epoch, any {@code long}
   * @return that instant
   */
  public static Instant instant(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
  }
}
