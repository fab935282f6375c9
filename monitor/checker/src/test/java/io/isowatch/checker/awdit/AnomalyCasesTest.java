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
 * One minimal history per anomaly kind of {@code notes/semantics.md} §3–§4, the two read
 * committed cases, a read-atomic-only and a causal-only violation: each asserts the whole verdict
 * vector (read committed, read atomic, causal) with every violation's kind, weakest level broken
 * and witness. Transaction ids are line numbers from 0; INIT is {@link Witness#INIT}.
 */
class AnomalyCasesTest {
  private static final int INIT = Witness.INIT;
  private static final long NIL = History.NIL;

  /** @return the results of RC, RA and CC, in that order */
  private static List<CheckResult> vector(String text) {
    History h = TestHistories.parse(text);
    return List.of(new RcChecker().check(h), new RaChecker().check(h), new CcChecker().check(h));
  }

  private static List<CheckResult> expect(List<Violation> rc, List<Violation> ra, List<Violation> cc) {
    return List.of(CheckResult.of(Level.READ_COMMITTED, rc), CheckResult.of(Level.READ_ATOMIC, ra),
        CheckResult.of(Level.CAUSAL, cc));
  }

  private static List<CheckResult> everyLevel(Violation v) {
    return expect(List.of(v), List.of(v), List.of(v));
  }

  private static Violation basic(Anomaly a, List<Integer> txns, List<Integer> ops) {
    return new Violation(a, Level.READ_COMMITTED, new Witness(txns, ops, List.of()));
  }

  private static Violation cycle(Level weakest, Edge... edges) {
    List<Integer> txns = new java.util.ArrayList<>();
    for (Edge e : edges) {
      txns.add(e.from());
    }
    return new Violation(Anomaly.COMMIT_ORDER_CYCLE, weakest, new Witness(txns, List.of(), List.of(edges)));
  }

  private static Edge so(int from, int to) {
    return new Edge(from, to, EdgeType.SO, Because.SESSION_ORDER, -1, NIL, -1);
  }

  private static Edge wr(int from, int to, int key, long value) {
    return new Edge(from, to, EdgeType.WR, Because.READS_FROM, key, value, -1);
  }

  private static Edge co(int from, int to, Because why, int key, int via) {
    return new Edge(from, to, EdgeType.CO, why, key, NIL, via);
  }

  @Test
  void thinAirRead() {
    assertThat(vector("s1 T1: r x 5")).isEqualTo(everyLevel(basic(Anomaly.THIN_AIR_READ, List.of(0), List.of(0))));
  }

  @Test
  void abortedReadG1a() {
    assertThat(vector("s1 T1: w x 1 | aborted\ns2 T2: r x 1"))
        .isEqualTo(everyLevel(basic(Anomaly.ABORTED_READ, List.of(1, 0), List.of(1, 0))));
  }

  @Test
  void futureRead() {
    assertThat(vector("s1 T1: r x 1, w x 1"))
        .isEqualTo(everyLevel(basic(Anomaly.FUTURE_READ, List.of(0), List.of(0, 1))));
  }

  @Test
  void notMyOwnWriteReadingAnotherTransaction() {
    assertThat(vector("s1 T1: w x 1\ns2 T2: w x 2, r x 1"))
        .isEqualTo(everyLevel(basic(Anomaly.NOT_MY_OWN_WRITE, List.of(1, 0), List.of(2, 1, 0))));
  }

  @Test
  void notMyOwnWriteReadingTheInitialValue() {
    assertThat(vector("s1 T1: w x 1, r x _"))
        .isEqualTo(everyLevel(basic(Anomaly.NOT_MY_OWN_WRITE, List.of(0), List.of(1, 0))));
  }

  @Test
  void notMyLastWrite() {
    assertThat(vector("s1 T1: w x 1, w x 2, r x 1"))
        .isEqualTo(everyLevel(basic(Anomaly.NOT_MY_LAST_WRITE, List.of(0), List.of(2, 1, 0))));
  }

  @Test
  void intermediateReadG1b() {
    assertThat(vector("s1 T1: w x 1, w x 2\ns2 T2: r x 1"))
        .isEqualTo(everyLevel(basic(Anomaly.INTERMEDIATE_READ, List.of(1, 0), List.of(2, 0))));
  }

  @Test
  void intermediateReadOfAList() {
    assertThat(vector("s1 T1: a k 1, a k 2\ns2 T2: r k [1]"))
        .isEqualTo(everyLevel(basic(Anomaly.INTERMEDIATE_READ, List.of(1, 0), List.of(2, 0))));
  }

  @Test
  void nonRepeatableReadBreaksReadAtomicOnly() {
    Violation nonRepeatable = new Violation(Anomaly.NON_REPEATABLE_READ, Level.READ_ATOMIC,
        new Witness(List.of(1, INIT, 0), List.of(1, 2), List.of()));
    Violation cycle = cycle(Level.READ_ATOMIC, so(INIT, 0), co(0, INIT, Because.READ_FROM_WRITER, 0, 1));
    assertThat(vector("s1 T1: w x 1\ns2 T2: r x _, r x 1"))
        .isEqualTo(expect(List.of(), List.of(nonRepeatable, cycle), List.of(nonRepeatable, cycle)));
  }

  /** The two-slot case: T3 reads y, x, x from T2, then x from T1; T1 so T2. */
  @Test
  void twoSlotCaseIsACycleOfT1AndT2() {
    Violation cycle = cycle(Level.READ_COMMITTED, so(0, 1), co(1, 0, Because.READ_EARLIER, 0, 2));
    Violation nonRepeatable = new Violation(Anomaly.NON_REPEATABLE_READ, Level.READ_ATOMIC,
        new Witness(List.of(2, 1, 0), List.of(4, 6), List.of()));
    assertThat(vector("s1 T1: w x 1\ns1 T2: w y 2, w x 2\ns2 T3: r y 2, r x 2, r x 2, r x 1"))
        .isEqualTo(expect(List.of(cycle), List.of(nonRepeatable, cycle), List.of(nonRepeatable, cycle)));
  }

  /** The fuzzed case: T8 must precede T7 in co, and T7 --wr--> T8 closes the cycle. */
  @Test
  void fuzzedCaseIsACycleOfT7AndT8() {
    Violation cycle = cycle(Level.READ_COMMITTED, wr(0, 1, 1, 1), co(1, 0, Because.READ_EARLIER, 1, 2));
    Violation nonRepeatable = new Violation(Anomaly.NON_REPEATABLE_READ, Level.READ_ATOMIC,
        new Witness(List.of(2, 1, 0), List.of(7, 9), List.of()));
    assertThat(vector(String.join("\n",
        "s1 T7: w x2 1, w x0 1",
        "s2 T8: w x1 1, r x0 1, w x0 2, w x0 3",
        "s0 T9: r x2 1, r x0 3, r x0 3, r x0 1")))
        .isEqualTo(expect(List.of(cycle), List.of(nonRepeatable, cycle), List.of(nonRepeatable, cycle)));
  }

  /** Fractured read: T2 sees T1's x but T0's y, so T1 and T0 must each precede the other. */
  @Test
  void fracturedReadIsConsistentAtReadCommittedOnly() {
    Edge t0BeforeT1 = co(0, 1, Because.READ_EARLIER, 0, 2);
    Edge t1BeforeT0 = co(1, 0, Because.READ_FROM_WRITER, 1, 2);
    assertThat(vector("s0 T0: w x 0, w y 0\ns1 T1: w x 1, w y 1\ns2 T2: r y 0, r x 1"))
        .isEqualTo(expect(List.of(), List.of(cycle(Level.READ_ATOMIC, t0BeforeT1, t1BeforeT0)),
            List.of(cycle(Level.READ_ATOMIC, t1BeforeT0, t0BeforeT1))));
  }

  /**
   * T3 sees T2, which saw T1, yet reads x from T1's session predecessor T0; the witness carries the
   * wr path T1 -> T2 -> T3 that puts T1 in T3's causal past.
   */
  @Test
  void staleReadAfterCausalChainBreaksCausalOnly() {
    Violation causal = new Violation(Anomaly.COMMIT_ORDER_CYCLE, Level.CAUSAL, new Witness(List.of(0, 1),
        List.of(), List.of(so(0, 1), co(1, 0, Because.CAUSAL_PAST, 0, 3)),
        List.of(wr(1, 2, 0, 1), wr(2, 3, 1, 1))));
    assertThat(vector("s1 T0: w x 0\ns1 T1: w x 1\ns2 T2: r x 1, w y 1\ns3 T3: r y 1, r x 0"))
        .isEqualTo(expect(List.of(), List.of(), List.of(causal)));
  }
}
