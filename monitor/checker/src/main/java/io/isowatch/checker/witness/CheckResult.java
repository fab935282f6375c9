package io.isowatch.checker.witness;

import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import java.util.List;

/**
 * Outcome of checking one history at one level.
 *
 * @param level the level checked
 * @param verdict {@link Verdict#VIOLATED} iff {@code violations} is non-empty, unless the check
 *     could not finish ({@link Verdict#UNKNOWN})
 * @param violations every violation found, basic-axiom ones first, then cycles (one per strongly
 *     connected component of the saturated graph)
 * @param reason for {@link Verdict#UNKNOWN}, one sentence saying why the check could not decide;
 *     null otherwise
 * @param commitOrder for a {@link Verdict#CONSISTENT} verdict of a check that finds one (the
 *     polygraph), the committed transactions' ids in a commit order that satisfies the level's
 *     definition; empty otherwise
 */
public record CheckResult(Level level, Verdict verdict, List<Violation> violations, String reason,
    List<Integer> commitOrder) {
  /** Copies the lists so that the result is immutable. */
  public CheckResult {
    violations = List.copyOf(violations);
    commitOrder = List.copyOf(commitOrder);
  }

  /** A result without a commit order. */
  public CheckResult(Level level, Verdict verdict, List<Violation> violations, String reason) {
    this(level, verdict, violations, reason, List.of());
  }

  /** A result without a reason (a decided verdict). */
  public CheckResult(Level level, Verdict verdict, List<Violation> violations) {
    this(level, verdict, violations, null);
  }

  /**
   * @return a result with verdict {@link Verdict#CONSISTENT} when {@code violations} is empty and
   *     {@link Verdict#VIOLATED} otherwise
   */
  public static CheckResult of(Level level, List<Violation> violations) {
    return new CheckResult(level, violations.isEmpty() ? Verdict.CONSISTENT : Verdict.VIOLATED, violations);
  }
}
