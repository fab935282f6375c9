package io.isowatch.enginesim.workload;

import io.isowatch.checker.history.OpKind;

/**
 * One operation a transaction will issue.
 *
 * @param kind {@link OpKind#READ} or {@link OpKind#WRITE}
 * @param key the key's name, e.g. {@code x0}
 * @param value for a write, the value to write (unique per key, {@code >= 1}); 0 for a read, whose
 *     value the engine decides
 */
public record ProgramOp(byte kind, String key, long value) {
  /** @return a read of {@code key} */
  public static ProgramOp read(String key) {
    return new ProgramOp(OpKind.READ, key, 0);
  }

  /** @return a write of {@code value} to {@code key} */
  public static ProgramOp write(String key, long value) {
    return new ProgramOp(OpKind.WRITE, key, value);
  }
}
