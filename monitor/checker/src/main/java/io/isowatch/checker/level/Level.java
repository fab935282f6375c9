package io.isowatch.checker.level;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Isolation and consistency levels, weakest first: the ladder RU ⊂ RC ⊂ RA ⊂ CC ⊂ SI ⊂ SER.
 *
 * <p>Read committed, read atomic and causal consistency are meant in the axiomatic sense of Biswas
 * &amp; Enea (OOPSLA 2019) as checked by AWDIT (Møldrup &amp; Pavlogiannis, PLDI 2025); read
 * uncommitted, snapshot isolation and serializable in Adya's sense (PL-1, PL-SI, PL-3; Adya, MIT
 * 1999, §4) as checked on list-append histories. {@link ForbiddenAnomalies} says what each level forbids.
 */
public enum Level {
  READ_UNCOMMITTED,
  READ_COMMITTED,
  READ_ATOMIC,
  CAUSAL,
  SNAPSHOT_ISOLATION,
  SERIALIZABLE;

  /** @return the level's name on the command line and in JSON, e.g. {@code read-committed} */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** @return whether this level is at least as strong as {@code other} on the ladder */
  public boolean atLeast(Level other) {
    return compareTo(other) >= 0;
  }

  /**
   * Parses a command-line name.
   *
   * @param name e.g. {@code read-committed}, {@code causal}; case-insensitive, {@code _} allowed
   * @return the level
   * @throws IllegalArgumentException naming the accepted values when {@code name} is not one
   */
  public static Level parse(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    for (Level l : values()) {
      if (l.cliName().equals(n)) {
        return l;
      }
    }
    throw new IllegalArgumentException(
        "unknown level '" + name + "'; expected one of "
            + Arrays.stream(values()).map(Level::cliName).collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return cliName();
  }
}
