package io.isowatch.enginesim.workload;

import io.isowatch.checker.history.OpKind;

/**
 * One operation a transaction will issue.
 *
 * @param kind {@link OpKind#READ}, {@link OpKind#WRITE} (registers), {@link OpKind#READ_LIST} or
 *     {@link OpKind#APPEND} (lists)
 * @param key the key's name, e.g. {@code x0}
 * @param value for a write, the value to write; for an append, the element (both unique per key,
 *     {@code >= 1}); 0 for reads, whose result the engine decides
 */
public record ProgramOp(byte kind, String key, long value) {
  /** @return a register read of {@code key} */
  public static ProgramOp read(String key) {
    return new ProgramOp(OpKind.READ, key, 0);
  }

  /** @return a register write of {@code value} to {@code key} */
  public static ProgramOp write(String key, long value) {
    return new ProgramOp(OpKind.WRITE, key, value);
  }

  /** @return a list read of {@code key} */
  public static ProgramOp readList(String key) {
    return new ProgramOp(OpKind.READ_LIST, key, 0);
  }

  /** @return an append of {@code element} to the list of {@code key} */
  public static ProgramOp append(String key, long element) {
    return new ProgramOp(OpKind.APPEND, key, element);
  }
}
