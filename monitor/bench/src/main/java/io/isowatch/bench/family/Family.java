package io.isowatch.bench.family;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The history families of the benchmark, each generating a history from one size parameter.
 *
 * <ul>
 *   <li>{@link #REGISTER}: size = transactions; {@link SerialRegisterHistories} with the standard
 *       shape (8 operations per transaction, 50 sessions).
 *   <li>{@link #WIDE_READER}: size = target operations; one reader over {@value #WIDE_READER_WRITERS}
 *       writers ({@link StaircaseHistories.Shape#wideReader}).
 *   <li>{@link #READER_GRID}: size = target operations; {@code sqrt(n)} readers over {@code sqrt(n)}
 *       writers ({@link StaircaseHistories.Shape#grid}), where the O(n^1.5) bound of read committed
 *       and read atomic is met.
 *   <li>{@link #LIST_APPEND}: size = transactions; {@link SerialListAppendHistories} with the
 *       standard shape (8 operations per transaction, 50 sessions, {@code N / 4} keys), checked by
 *       Adya's checker at snapshot isolation and serializable.
 * </ul>
 */
public enum Family {
  REGISTER,
  WIDE_READER,
  READER_GRID,
  LIST_APPEND;

  /** Writers of the {@link #WIDE_READER} family. */
  public static final int WIDE_READER_WRITERS = 8;

  /**
   * Generates this family's history of the given size.
   *
   * @param size transactions for {@link #REGISTER} and {@link #LIST_APPEND}, target operations for
   *     the others; at least 100
   * @param seed random seed (only {@link #REGISTER} and {@link #LIST_APPEND} are random)
   * @return the history
   * @throws IllegalArgumentException if {@code size} is out of range
   */
  public History generate(long size, long seed) {
    if (size < 100 || size > Integer.MAX_VALUE / SerialRegisterHistories.OPS_PER_TXN) {
      throw new IllegalArgumentException("size " + size + " out of range for family " + cliName());
    }
    switch (this) {
      case REGISTER:
        return SerialRegisterHistories.generate(SerialRegisterHistories.Shape.standard((int) size), seed);
      case WIDE_READER:
        return StaircaseHistories.generate(StaircaseHistories.Shape.wideReader(size, WIDE_READER_WRITERS));
      case READER_GRID:
        return StaircaseHistories.generate(StaircaseHistories.Shape.grid(size));
      case LIST_APPEND:
        return SerialListAppendHistories.generate(SerialListAppendHistories.Shape.standard((int) size), seed);
      default:
        throw new IllegalStateException(name());
    }
  }

  /** @return whether the size parameter counts transactions (else target operations) */
  public boolean sizedInTransactions() {
    return this == REGISTER || this == LIST_APPEND;
  }

  /**
   * @return the levels this family is checked at: read committed, read atomic and causal for the
   *     register-shaped families (AWDIT's checkers), snapshot isolation and serializable for {@link
   *     #LIST_APPEND} (Adya's checker)
   */
  public Set<Level> levels() {
    return this == LIST_APPEND
        ? EnumSet.of(Level.SNAPSHOT_ISOLATION, Level.SERIALIZABLE)
        : EnumSet.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL);
  }

  /** @return the family's name on the command line and in tables, e.g. {@code wide-reader} */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @param name a command-line name, e.g. {@code reader-grid}; case-insensitive
   * @return the family
   * @throws IllegalArgumentException naming the accepted values when {@code name} is not one
   */
  public static Family parse(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    for (Family f : values()) {
      if (f.cliName().equals(n)) {
        return f;
      }
    }
    throw new IllegalArgumentException("unknown family '" + name + "'; expected one of "
        + Arrays.stream(values()).map(Family::cliName).collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return cliName();
  }
}
