package io.isowatch.connectors.probe;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The probe's data model (Elle, Kingsbury &amp; Alvaro, VLDB 2020, §3): list-append, whose reads
 * reveal each key's version order so that {@code ww} and {@code rw} are observable and Adya's
 * phenomena can be checked; or rw-register, whose reads reveal only {@code wr}.
 */
public enum ProbeWorkload {
  LIST_APPEND,
  RW_REGISTER;

  /** @return the command-line name, e.g. {@code list-append} */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @param name a {@link #cliName()}, case-insensitive, {@code _} allowed
   * @return the workload
   * @throws IllegalArgumentException naming the accepted names
   */
  public static ProbeWorkload parse(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT).replace('_', '-');
    for (ProbeWorkload w : values()) {
      if (w.cliName().equals(n)) {
        return w;
      }
    }
    throw new IllegalArgumentException("unknown workload '" + name + "'; expected one of "
        + Arrays.stream(values()).map(ProbeWorkload::cliName).collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return cliName();
  }
}
