package io.isowatch.checker.polygraph;

import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import java.util.Arrays;
import java.util.Objects;

/**
 * What {@link PolygraphChecker} decided about one level of one history.
 *
 * @param level snapshot isolation or serializable
 * @param verdict consistent, violated, or unknown
 * @param reason for {@link Verdict#UNKNOWN}, one sentence with the numbers; {@code null} otherwise
 * @param stats the counts behind the decision
 * @param commitOrder for {@link Verdict#CONSISTENT}: the committed transactions (ids of the history)
 *     in a commit order that satisfies the level's definition (checked by {@link CommitOrders#verify});
 *     empty otherwise
 * @param proof for {@link Verdict#VIOLATED}: why no commit order exists; {@code null} otherwise
 */
public record PolygraphAnswer(Level level, Verdict verdict, String reason, PolygraphChecker.Stats stats,
    int[] commitOrder, Proof proof) {
  /** Copies the array. */
  public PolygraphAnswer {
    commitOrder = commitOrder.clone();
  }

  @Override
  public int[] commitOrder() {
    return commitOrder.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PolygraphAnswer a && level == a.level && verdict == a.verdict
        && Objects.equals(reason, a.reason) && stats.equals(a.stats)
        && Arrays.equals(commitOrder, a.commitOrder) && Objects.equals(proof, a.proof);
  }

  @Override
  public int hashCode() {
    return Objects.hash(level, verdict, reason, stats, Arrays.hashCode(commitOrder), proof);
  }

  static PolygraphAnswer unknown(Level level, String reason, PolygraphChecker.Stats stats) {
    return new PolygraphAnswer(level, Verdict.UNKNOWN, reason, stats, new int[0], null);
  }

  static PolygraphAnswer violated(Level level, Proof proof, PolygraphChecker.Stats stats) {
    return new PolygraphAnswer(level, Verdict.VIOLATED, null, stats, new int[0], proof);
  }

  static PolygraphAnswer consistent(Level level, int[] order, PolygraphChecker.Stats stats) {
    return new PolygraphAnswer(level, Verdict.CONSISTENT, null, stats, order, null);
  }
}
