package io.isowatch.checker.witness;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.finding.Findings;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Golden sentences for transactions, each kind of edge, cycles and the basic axioms. */
class WitnessRendererTest {
  /** Found by fuzzing (issue 2): T8 must precede T7, and T7 --wr--> T8 closes a two-cycle. */
  private static final String FUZZED = String.join("\n",
      "s1 T7: w x2 1, w x0 1",
      "s2 T8: w x1 1, r x0 1, w x0 2, w x0 3",
      "s0 T9: r x2 1, r x0 3, r x0 3, r x0 1");

  private static final String REGISTERS = String.join("\n",
      "s T7: w x 1, w y 1",
      "s T8: w x 2, r y _",
      "t T9: r x 1, r z 4 | aborted",
      "u T10: r x 9 | unknown");

  private static final String LISTS = String.join("\n",
      "a T1: a 3 4",
      "b T2: a 3 5",
      "c T3: r 3 [4], r 7 []");

  @Test
  void transactionsOnOneLine() {
    History h = TestHistories.parse(REGISTERS);
    WitnessRenderer r = new WitnessRenderer(h);
    assertThat(List.of(Findings.txn(h, r, 0).line(), Findings.txn(h, r, 1).line(), Findings.txn(h, r, 2).line(),
        Findings.txn(h, r, 3).line(), Finding.Txn.initial().line())).containsExactly(
        "T7 (session s): w(x)=1 w(y)=1",
        "T8 (session s): w(x)=2 r(y)=init",
        "T9 (session t, aborted): r(x)=1 r(z)=4",
        "T10 (session u, outcome unknown): r(x)=9",
        "T_init: the initial state");
    History lists = TestHistories.parse(LISTS);
    assertThat(Findings.txn(lists, new WitnessRenderer(lists), 2).line()).isEqualTo("T3 (session c): r(3)=[4] r(7)=[]");
    assertThat(Findings.txn(lists, new WitnessRenderer(lists), 0).line()).isEqualTo("T1 (session a): append(3,4)");
  }

  @Test
  void longTransactionsShowOnlyTheWitnessKeys() {
    History h = TestHistories.parse(
        "s T1: w a 1, w b 1, r x _, w c 1, w d 1, w e 1, w f 1, w x 1, w g 1, w h 1\ns T2: w z 1");
    WitnessRenderer r = new WitnessRenderer(h);
    assertThat(Findings.txn(h, r, 0).line(Set.of("x"))).isEqualTo(
        "T1 (session s): ... r(x)=init ... w(x)=1 ... (2 of 10 operations shown)");
    assertThat(Findings.txn(h, r, 0).line(Set.of("a", "h"))).isEqualTo(
        "T1 (session s): w(a)=1 ... w(h)=1 (2 of 10 operations shown)");
    assertThat(Findings.txn(h, r, 0).line(Set.of("z"))).isEqualTo(
        "T1 (session s): (10 operations, none on the witness's keys)");
  }

  @Test
  void inferredCommitOrderEdgeForEachPremise() {
    History h = TestHistories.parse(FUZZED);
    WitnessRenderer r = new WitnessRenderer(h);
    int x = h.key("x0");
    assertThat(List.of(
        r.edge(new Edge(1, 0, EdgeType.CO, Because.READ_EARLIER, x, History.NIL, 2)),
        r.edge(new Edge(1, 0, EdgeType.CO, Because.SESSION_PREDECESSOR, x, History.NIL, 2)),
        r.edge(new Edge(1, 0, EdgeType.CO, Because.READ_FROM_WRITER, x, History.NIL, 2)),
        r.edge(new Edge(1, 0, EdgeType.CO, Because.CAUSAL_PAST, x, History.NIL, 2)))).containsExactly(
        "T8 precedes T7 in commit order because T9 read x0 from T7 after reading from T8, which also writes x0",
        "T8 precedes T7 in commit order because T8 precedes T9 in session s0 and writes x0, and T9 read x0 from T7",
        "T8 precedes T7 in commit order because T9 read from T8, which writes x0, and read x0 from T7",
        "T8 precedes T7 in commit order because T8 is in T9's causal past and writes x0, and T9 read x0 from T7");
  }

  @Test
  void observedEdges() {
    History h = TestHistories.parse(REGISTERS);
    WitnessRenderer r = new WitnessRenderer(h);
    int x = h.key("x");
    assertThat(List.of(
        r.edge(new Edge(0, 1, EdgeType.SO, Because.SESSION_ORDER, -1, History.NIL, -1)),
        r.edge(new Edge(0, 2, EdgeType.WR, Because.READS_FROM, x, 1, -1)),
        r.edge(new Edge(Witness.INIT, 1, EdgeType.WR, Because.READS_FROM, h.key("y"), History.NIL, -1)),
        r.edge(new Edge(0, 1, EdgeType.WW, Because.VERSION_ORDER, x, 2, -1)),
        r.edge(new Edge(2, 1, EdgeType.RW, Because.ANTI_DEPENDENCY, x, 2, -1)))).containsExactly(
        "T7 precedes T8 in session s",
        "T9 read x = 1 from T7",
        "T8 read y = init from T_init",
        "T8 wrote x = 2 after T7 wrote x = 1",
        "T9 read x = 1 and so did not see T8's write of 2");
  }

  @Test
  void listAppendEdges() {
    History h = TestHistories.parse(LISTS);
    WitnessRenderer r = new WitnessRenderer(h);
    int k = h.key("3");
    assertThat(List.of(
        r.edge(new Edge(0, 1, EdgeType.WW, Because.VERSION_ORDER, k, 5, -1)),
        r.edge(new Edge(2, 1, EdgeType.RW, Because.ANTI_DEPENDENCY, k, 5, -1), List.of(4, 1)),
        r.edge(new Edge(0, 2, EdgeType.WR, Because.READS_FROM, k, 4, -1)))).containsExactly(
        "T2 appended 5 to key 3 after T1 appended 4",
        "T3 read key 3 = [4] and so did not see T2's append of 5",
        "T3 read T1's append of 4 to key 3");
  }

  @Test
  void readCommittedCycleInWords() {
    History h = TestHistories.parse(FUZZED);
    Violation v = Checkers.forLevel(Level.READ_COMMITTED).check(h).violations().get(0);
    assertThat(Findings.of(h, v).lines()).containsExactly(
        "cycle T7 -> T8 -> T7 (2 edges, 1 inferred commit order)",
        "T7 (session s1): w(x2)=1 w(x0)=1",
        "T8 (session s2): w(x1)=1 r(x0)=1 w(x0)=2 w(x0)=3",
        "T9 (session s0): r(x2)=1 r(x0)=3 r(x0)=3 r(x0)=1",
        "wr: T8 read x0 = 1 from T7",
        "co: T8 precedes T7 in commit order because T9 read x0 from T7 after reading from T8, which also writes x0");
  }

  @Test
  void basicAxiomsInOneSentence() {
    History h = TestHistories.parse(String.join("\n",
        "s1 T1: w x 1, w y 1, w y 2",
        "s1 T2: w x 2 | aborted",
        "s2 T3: r x 9",
        "s2 T4: r x 2",
        "s2 T5: r y 1",
        "s2 T6: r x 1, r x _",
        "s3 T7: w x 7, r x 1",
        "s3 T8: r z 5, w z 5",
        "s3 T9: w z 6, w z 7, r z 6"));
    List<String> sentences = Checkers.forLevel(Level.READ_ATOMIC).check(h).violations().stream()
        .filter(v -> v.witness().edges().isEmpty())
        .map(v -> v.anomaly().id() + ": " + new WitnessRenderer(h).summary(v))
        .toList();
    // the checker's order of violations is its own business; the sentences are ours
    assertThat(sentences).containsExactlyInAnyOrder(
        "thin-air-read: T3 read x = 9, which no transaction wrote",
        "G1a: T4 read x = 2 from T2, which aborted",
        "G1b: T5 read y = 1 from T1, which later overwrote it with w(y)=2",
        "non-repeatable-read: T6 read x twice with different results: x = 1 from T1, then x = init from T_init",
        "not-my-own-write: T7 read x = 1 from T1 after its own w(x)=7",
        "future-read: T8 read z = 5, which it writes only later itself",
        "not-my-last-write: T9 read its own z = 6 after overwriting it with w(z)=7");
  }

  @Test
  void listAnomaliesWithoutCycle() {
    History h = TestHistories.parse(String.join("\n",
        "a T1: r 3 [], a 3 4",
        "b T2: r 3 [], a 3 5",
        "c T3: r 3 [4 5 4]"));
    WitnessRenderer r = new WitnessRenderer(h);
    assertThat(List.of(
        r.summary(new Violation(Anomaly.LOST_UPDATE, Level.SNAPSHOT_ISOLATION,
            new Witness(List.of(0, 1), List.of(0, 1, 2, 3), List.of()))),
        r.summary(new Violation(Anomaly.DUPLICATE_ELEMENTS, Level.READ_UNCOMMITTED,
            new Witness(List.of(2), List.of(4), List.of()))),
        r.summary(new Violation(Anomaly.INCOMPATIBLE_ORDER, Level.READ_UNCOMMITTED,
            new Witness(List.of(2, 0), List.of(4, 0), List.of()))),
        r.summary(new Violation(Anomaly.G0, Level.READ_UNCOMMITTED,
            new Witness(List.of(0), List.of(), List.of()))))).containsExactly(
        "T1 and T2 both read key 3 = [] and then wrote it (T1 append(3,4), T2 append(3,5)), so one update is lost",
        "T3 read key 3 = [4, 5, 4], which holds an element twice",
        "T3 read key 3 = [4, 5, 4] and T1 read key 3 = []; neither is a prefix of the other",
        "G0 in T1");
  }
}
