package io.isowatch.checker.polygraph;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.finding.Findings;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The words of the polygraph's witnesses on the two register anomalies every user meets: a lost
 * update (not snapshot isolation) and a write skew (snapshot isolation, not serializable).
 */
class PolygraphWitnessTest {
  private static final long INIT = History.NIL;

  /** s1 T1: r x _, w x 1; s2 T2: r x _, w x 2. */
  private static History lostUpdate() {
    History h = new History();
    int x = h.key("x");
    h.beginTxn(h.session("s1"), 1);
    h.read(x, INIT);
    h.write(x, 1);
    h.end(TxnStatus.COMMITTED);
    h.beginTxn(h.session("s2"), 2);
    h.read(x, INIT);
    h.write(x, 2);
    h.end(TxnStatus.COMMITTED);
    return h;
  }

  /** s1 T1: r x _, r y _, w x 1; s2 T2: r x _, r y _, w y 2. */
  private static History writeSkew() {
    History h = new History();
    int x = h.key("x");
    int y = h.key("y");
    h.beginTxn(h.session("s1"), 1);
    h.read(x, INIT);
    h.read(y, INIT);
    h.write(x, 1);
    h.end(TxnStatus.COMMITTED);
    h.beginTxn(h.session("s2"), 2);
    h.read(x, INIT);
    h.read(y, INIT);
    h.write(y, 2);
    h.end(TxnStatus.COMMITTED);
    return h;
  }

  private static List<String> words(History h, Level level) {
    CheckResult r = new PolygraphChecker(level).check(h);
    assertThat(r.verdict()).isEqualTo(Verdict.VIOLATED);
    assertThat(r.violations()).hasSize(1);
    var v = r.violations().get(0);
    List<String> out = new java.util.ArrayList<>();
    out.add(v.anomaly().id() + ", weakest level broken: " + v.weakestLevelBroken().cliName());
    out.addAll(Findings.of(h, v).lines());
    return out;
  }

  @Test
  void aLostUpdateIsShownByTheTwoOrdersOfItsWriters() {
    assertThat(words(lostUpdate(), Level.SNAPSHOT_ISOLATION)).containsExactly(
        "lost-update, weakest level broken: snapshot-isolation",
        "no order of the writes of T1 and T2 avoids a cycle (2 cases)",
        "T1 (session s1): r(x)=init w(x)=1",
        "T2 (session s2): r(x)=init w(x)=2",
        "case 1 of 2: if T1's writes come before T2's: cycle T1 -> T2 -> T1",
        "  ww: this case puts T2's write of x = 2 after T1's write of x = 1",
        "  rw: T2 read x = init and so did not see T1's write of 1",
        "case 2 of 2: if T2's writes come before T1's: cycle T2 -> T1 -> T2",
        "  ww: this case puts T1's write of x = 1 after T2's write of x = 2",
        "  rw: T1 read x = init and so did not see T2's write of 2");
  }

  @Test
  void aWriteSkewIsSnapshotIsolationButNotSerializable() {
    assertThat(new PolygraphChecker(Level.SNAPSHOT_ISOLATION).check(writeSkew()).verdict())
        .isEqualTo(Verdict.CONSISTENT);
    assertThat(words(writeSkew(), Level.SERIALIZABLE)).containsExactly(
        "G2-item, weakest level broken: serializable",
        "cycle T1 -> T2 -> T1 (2 edges)",
        "T1 (session s1): r(x)=init r(y)=init w(x)=1",
        "T2 (session s2): r(x)=init r(y)=init w(y)=2",
        "rw: T1 read y = init and so did not see T2's write of 2",
        "rw: T2 read x = init and so did not see T1's write of 1");
  }

  /**
   * Three read-modify-writes of x in a chain: the three pairs of writers hold 8 constraint edges (each
   * pair's two ww edges, and an rw edge from each reader of the earlier write but the later writer:
   * T2 -> T1 when T2 goes first, T1's reader T2 -> T3 when T1 precedes T3), counted before they are made.
   */
  @Test
  void theConstraintsAreCountedAgainstTheBudgetBeforeTheyAreMade() {
    History h = new History();
    int x = h.key("x");
    long seen = INIT;
    for (int t = 1; t <= 3; t++) {
      h.beginTxn(h.session("s" + t), t);
      h.read(x, seen);
      h.write(x, t);
      h.end(TxnStatus.COMMITTED);
      seen = t;
    }
    CheckResult refused = new PolygraphChecker(Level.SERIALIZABLE, true, 100, 7).check(h);
    assertThat(refused.verdict()).isEqualTo(Verdict.UNKNOWN);
    assertThat(refused.reason()).isEqualTo("the polygraph's constraints would hold 8 edges, more than its budget of 7");
    assertThat(new PolygraphChecker(Level.SERIALIZABLE, true, 100, 8).check(h).verdict()).isEqualTo(Verdict.CONSISTENT);
  }
}
