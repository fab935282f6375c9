package io.isowatch.checker.format;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The history file formats isowatch reads, with the name used on the command line ({@code
 * --format}). {@code docs/history-format.md} describes each one and the conventions chosen when
 * mapping it onto a {@link io.isowatch.checker.history.History}.
 */
public enum HistoryFormat {
  /** isowatch JSON lines, one transaction per line; the canonical format (read and write). */
  JSONL,
  /** Plume / PolySI text: one {@code r(K,V,S,T)} or {@code w(K,V,S,T)} per line (read, write). */
  PLUME,
  /** AWDIT's test format: sessions split by {@code ===}, transactions by {@code ---}. */
  AWDIT,
  /** Elle / Jepsen EDN, one operation map per line (rw-register and list-append; read, write). */
  EDN,
  /** dbcop's bincode history: a directory holding {@code history.bincode}. */
  DBCOP,
  /** Cobra's binary client logs: a directory of per-session {@code *.log} files. */
  COBRA;

  /** @return the lower-case name used by {@code --format}, e.g. {@code jsonl} */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @param name a {@link #cliName()}, case-insensitive, surrounding blanks ignored
   * @return the format
   * @throws IllegalArgumentException naming the accepted values when {@code name} is none of them
   */
  public static HistoryFormat parse(String name) {
    String wanted = name == null ? "" : name.strip();
    for (HistoryFormat f : values()) {
      if (f.cliName().equalsIgnoreCase(wanted)) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        "unknown history format '" + name + "'; expected one of " + acceptedNames());
  }

  /** @return the accepted names, comma separated: {@code jsonl, plume, awdit, edn, dbcop, cobra} */
  public static String acceptedNames() {
    return Arrays.stream(values()).map(HistoryFormat::cliName).collect(Collectors.joining(", "));
  }
}
