package io.isowatch.checker.level;

import java.util.Locale;

/**
 * Kinds of violation a checker reports. Which level forbids which kind is in {@link ForbiddenAnomalies}.
 *
 * <p>The first group are the basic axioms of every level (Biswas &amp; Enea, OOPSLA 2019, §3;
 * AWDIT, PLDI 2025, §2); then the commit-order cycle of the saturation-based checks; then Adya's
 * phenomena on list-append histories (Adya, MIT 1999, §3–4; Elle, VLDB 2020, §4).
 */
public enum Anomaly {
  /** A read of a value that no operation in the history wrote. */
  THIN_AIR_READ("thin-air-read"),
  /** G1a: a committed transaction read a value written by an aborted one. */
  ABORTED_READ("G1a"),
  /** A read of a value its own transaction writes only later in program order. */
  FUTURE_READ("future-read"),
  /** A read of a key its own transaction wrote before, returning another transaction's value. */
  NOT_MY_OWN_WRITE("not-my-own-write"),
  /** A read of its own transaction's write of the key that is not the latest one before it. */
  NOT_MY_LAST_WRITE("not-my-last-write"),
  /** G1b: a read of a value another transaction overwrote before it committed. */
  INTERMEDIATE_READ("G1b"),
  /**
   * A transaction read one key twice with different results and no write of its own to the key
   * between: from two different writers, or (list-append) two lists that differ by more than its
   * own appends between. Fractured for read atomic; Adya's P2 / Elle's {@code :internal} when the
   * earlier operation is a read.
   */
  NON_REPEATABLE_READ("non-repeatable-read"),
  /**
   * No commit order satisfies the level's axiom: {@code so ∪ wr ∪ co'} has a cycle, where {@code
   * co'} is the saturation of the axiom (AWDIT §3–5).
   */
  COMMIT_ORDER_CYCLE("commit-order-cycle"),

  /** G0: a cycle of write-write dependencies only (dirty write). */
  G0("G0"),
  /** G1c: a cycle of write-write and write-read dependencies, at least one write-read. */
  G1C("G1c"),
  /** G-single: a cycle with exactly one anti-dependency (read skew). */
  G_SINGLE("G-single"),
  /** G-nonadjacent: two or more anti-dependencies, no two adjacent on the cycle (long fork). */
  G_NONADJACENT("G-nonadjacent"),
  /** G2-item: a cycle with two or more item anti-dependencies (write skew). */
  G2_ITEM("G2-item"),
  /** Two committed transactions read the same version of a key and both wrote it. */
  LOST_UPDATE("lost-update"),
  /** Two reads of a list key that are not prefixes of one another. */
  INCOMPATIBLE_ORDER("incompatible-order"),
  /** A list read that holds the same element twice. */
  DUPLICATE_ELEMENTS("duplicate-elements"),
  /**
   * A read that disagrees with its own transaction's earlier write of the key: a register read of
   * another value than its last write, or a list read that does not end with the appends the
   * transaction made since its last read of the key (Elle's {@code :internal} when the earlier
   * operation is a write).
   */
  INTERNAL("internal"),
  /** A committed write over a version written by an aborted transaction. */
  DIRTY_UPDATE("dirty-update");

  private final String id;

  Anomaly(String id) {
    this.id = id;
  }

  /** @return the stable name used in output and JSON, e.g. {@code G1a}, {@code thin-air-read} */
  public String id() {
    return id;
  }

  /**
   * @param id a name as returned by {@link #id()}, case-insensitive
   * @return the anomaly
   * @throws IllegalArgumentException if no anomaly has that name
   */
  public static Anomaly parse(String id) {
    for (Anomaly a : values()) {
      if (a.id.equalsIgnoreCase(id.trim()) || a.name().equals(id.trim().toUpperCase(Locale.ROOT))) {
        return a;
      }
    }
    throw new IllegalArgumentException("unknown anomaly '" + id + "'");
  }

  @Override
  public String toString() {
    return id;
  }
}
