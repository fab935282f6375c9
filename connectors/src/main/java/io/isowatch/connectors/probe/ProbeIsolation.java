package io.isowatch.connectors.probe;

import java.sql.Connection;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The isolation level the probe's sessions ask the database for, through JDBC. */
public enum ProbeIsolation {
  READ_COMMITTED(Connection.TRANSACTION_READ_COMMITTED),
  REPEATABLE_READ(Connection.TRANSACTION_REPEATABLE_READ),
  SERIALIZABLE(Connection.TRANSACTION_SERIALIZABLE);

  private final int jdbcLevel;

  ProbeIsolation(int jdbcLevel) {
    this.jdbcLevel = jdbcLevel;
  }

  /** @return the {@link Connection}{@code .TRANSACTION_*} constant */
  public int jdbcLevel() {
    return jdbcLevel;
  }

  /** @return the command-line name, e.g. {@code repeatable-read} */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @param name a {@link #cliName()}, case-insensitive, {@code _} allowed
   * @return the level
   * @throws IllegalArgumentException naming the accepted names
   */
  public static ProbeIsolation parse(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT).replace('_', '-');
    for (ProbeIsolation i : values()) {
      if (i.cliName().equals(n)) {
        return i;
      }
    }
    throw new IllegalArgumentException("unknown isolation '" + name + "'; expected one of "
        + Arrays.stream(values()).map(ProbeIsolation::cliName).collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return cliName();
  }
}
