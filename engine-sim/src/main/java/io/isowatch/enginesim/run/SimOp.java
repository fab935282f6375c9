package io.isowatch.enginesim.run;

import java.util.List;

/**
 * One operation of a completed simulated transaction, as its client saw it.
 *
 * @param kind what the operation did
 * @param key the key's name, e.g. {@code x0}
 * @param value {@link Kind#READ}: the value read, {@code null} for the key's initial value; {@link
 *     Kind#WRITE}: the value written; {@link Kind#APPEND}: the element appended; {@link
 *     Kind#READ_LIST}: {@code null}
 * @param list {@link Kind#READ_LIST}: the elements read, oldest first (empty for the initial list);
 *     otherwise empty. Unmodifiable.
 */
public record SimOp(Kind kind, String key, Long value, List<Long> list) {
  /** The four operations of the rw-register and list-append workloads. */
  public enum Kind {
    /** Register read. */
    READ,
    /** Register write. */
    WRITE,
    /** Append of one element to a key's list. */
    APPEND,
    /** Read of a key's whole list. */
    READ_LIST
  }

  /** Copies {@code list} so the record is immutable. */
  public SimOp {
    list = List.copyOf(list);
  }
}
