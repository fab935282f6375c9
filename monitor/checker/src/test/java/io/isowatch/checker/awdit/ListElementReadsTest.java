package io.isowatch.checker.awdit;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.EdgeType;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A list read is evidence about every element it holds (issue 16): minimal list-append histories
 * whose anomaly sits in the middle of a list or in the order of two lists, each asserting the
 * verdicts of read committed, read atomic and causal with every violation. Transaction ids are line
 * numbers from 0; keys are numbered in order of first mention.
 */
class ListElementReadsTest {
  /** @return the results of RC, RA and CC, in that order */
  private static List<CheckResult> vector(String text) {
    History h = TestHistories.parse(text);
    return List.of(new RcChecker().check(h), new RaChecker().check(h), new CcChecker().check(h));
  }

  private static List<CheckResult> everyLevel(Violation v) {
    return List.of(CheckResult.of(Level.READ_COMMITTED, List.of(v)), CheckResult.of(Level.READ_ATOMIC, List.of(v)),
        CheckResult.of(Level.CAUSAL, List.of(v)));
  }

  private static Violation basic(Anomaly a, List<Integer> txns, List<Integer> ops) {
    return new Violation(a, Level.READ_COMMITTED, new Witness(txns, ops, List.of()));
  }

  private static Edge ww(int from, int to, int key, long value, int via) {
    return new Edge(from, to, EdgeType.WW, Because.VERSION_ORDER, key, value, via);
  }

  /** The issue's example: Elle's {@code [:r 1 [1 2 3]]} after {@code [:append 1 2]} failed. */
  @Test
  void abortedElementInTheMiddleIsG1aAtEveryLevel() {
    String text = "p0: a k 1\np1: a k 2 | aborted\np2: a k 3, r k [1 2 3]";
    assertThat(vector(text)).isEqualTo(everyLevel(basic(Anomaly.ABORTED_READ, List.of(2, 1), List.of(3, 1))));
  }

  @Test
  void intermediateElementInTheMiddleIsG1b() {
    // T0 appends 1 then 2; T2 read 1 without 2 after it, but 3 of T1: T0's intermediate version
    String text = "p0: a k 1, a k 2\np1: a k 3\np2: r k [1 3]";
    assertThat(vector(text)).isEqualTo(everyLevel(basic(Anomaly.INTERMEDIATE_READ, List.of(2, 0), List.of(3, 0))));
  }

  @Test
  void runOfOneTransactionsAppendsIsNoIntermediateRead() {
    String text = "p0: a k 1, a k 2\np1: a k 3\np2: r k [1 2 3]";
    assertThat(vector(text).stream().map(CheckResult::violations).toList()).containsOnly(List.of());
  }

  @Test
  void thinAirElementInTheMiddle() {
    String text = "p0: a k 1\np1: a k 3\np2: r k [1 2 3]";
    assertThat(vector(text)).isEqualTo(everyLevel(basic(Anomaly.THIN_AIR_READ, List.of(2), List.of(2))));
  }

  @Test
  void ownAppendAfterObservedElementsIsNoOwnWriteViolation() {
    String text = "p0: a k 1\np1: a k 2, r k [1 2]";
    assertThat(vector(text).stream().map(CheckResult::violations).toList()).containsOnly(List.of());
  }

  /** Two reads order two appends both ways: G0 on one key, a cycle of version order at read committed. */
  @Test
  void twoReadsOrderingTwoAppendsBothWaysBreakReadCommitted() {
    String text = "p0: a k 1\np1: a k 2\np2: r k [1 2]\np3: r k [2 1]";
    Violation g0 = new Violation(Anomaly.COMMIT_ORDER_CYCLE, Level.READ_COMMITTED,
        new Witness(List.of(0, 1), List.of(), List.of(ww(0, 1, 0, 2, 2), ww(1, 0, 0, 1, 3))));
    assertThat(vector(text)).isEqualTo(everyLevel(g0));
  }

  /** @return per level (RC, RA, CC): the kinds and weakest levels of its violations */
  private static List<List<String>> summary(String text) {
    return vector(text).stream()
        .map(r -> r.violations().stream().map(v -> v.anomaly() + "@" + v.weakestLevelBroken()).toList())
        .toList();
  }

  /**
   * T1 (after T0 in its session, both writing y) is observed through element 1 before y is read
   * from T0: read committed forces T1 before T0 against session order. With only the last element
   * (T2, which does not write y) seen, the history passed every level.
   */
  @Test
  void observedElementFeedsReadCommitted() {
    String text = "p0: w y 1\np0: a k 1, w y 2\np2: a k 2\np3: r k [1 2], r y 1";
    String cycle = "commit-order-cycle@" + Level.READ_COMMITTED;
    assertThat(summary(text)).isEqualTo(List.of(List.of(cycle), List.of(cycle), List.of(cycle)));
  }

  /** The same with y read first: no read committed premise, a fractured read for read atomic. */
  @Test
  void observedElementFeedsReadAtomic() {
    String text = "p0: w y 1\np0: a k 1, w y 2\np2: a k 2\np3: r y 1, r k [1 2]";
    String cycle = "commit-order-cycle@" + Level.READ_ATOMIC;
    assertThat(summary(text)).isEqualTo(List.of(List.of(), List.of(cycle), List.of(cycle)));
  }
}
