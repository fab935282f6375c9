package io.isowatch.checker.level;

/**
 * Three-valued outcome of a check, as in porcupine: a timeout or an incomplete window is {@link
 * #UNKNOWN}, never a pass.
 */
public enum Verdict {
  CONSISTENT,
  VIOLATED,
  UNKNOWN
}
