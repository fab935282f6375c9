package io.isowatch.checker.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The polygraph checks of the window on register-only histories: when they run and what they report. */
class WindowPolygraphTest {
  private static final LevelPlan.Check SI = new LevelPlan.Check(LevelPlan.Model.POLYGRAPH, Level.SNAPSHOT_ISOLATION);
  private static final LevelPlan.Check SER = new LevelPlan.Check(LevelPlan.Model.POLYGRAPH, Level.SERIALIZABLE);

  /** T1 and T2 both read x's initial value and write it: a lost update. */
  private static List<WindowTxn> lostUpdate() {
    return List.of(
        WindowTxn.builder("T1", "s1", 0, TxnStatus.COMMITTED).read("x", History.NIL).write("x", 1).build(),
        WindowTxn.builder("T2", "s2", 1, TxnStatus.COMMITTED).read("x", History.NIL).write("x", 2).build());
  }

  /** {@code n} transactions of their own session writing a key of their own. */
  private static List<WindowTxn> fillers(int n, long time) {
    List<WindowTxn> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(WindowTxn.builder("f" + i, "s9", time + i, TxnStatus.COMMITTED).write("z", 100 + i).build());
    }
    return out;
  }

  private static List<WindowViolation> offer(WindowChecker c, List<WindowTxn> txns) {
    List<WindowViolation> out = new ArrayList<>();
    for (WindowTxn t : txns) {
      out.addAll(c.offer(t).violations());
    }
    return out;
  }

  @Test
  void aLostUpdateIsReportedWhenTheWindowIsFinishedWithItsCases() {
    WindowChecker c = new WindowChecker(WindowConfig.of(1000, 0, 0), new WindowChecker.Journal() {});
    assertThat(offer(c, lostUpdate())).isEmpty(); // K = 1000: not decided yet
    List<WindowViolation> vs = c.finish().violations();
    assertThat(vs).hasSize(1);
    WindowViolation v = vs.get(0);
    assertThat(v.check()).isEqualTo(SI);
    Finding f = v.finding();
    assertThat(f.anomaly()).isEqualTo(Anomaly.LOST_UPDATE);
    assertThat(f.level()).isEqualTo(Level.SNAPSHOT_ISOLATION);
    assertThat(f.cases()).hasSize(2);
    assertThat(f.txns()).extracting(Finding.Txn::name).containsExactlyInAnyOrder("T1", "T2");
    assertThat(v.lastSeq()).isEqualTo(1);
    // serializable re-finds it: marked, not reported again
    assertThat(c.violatedChecks()).contains(SI, SER);
  }

  @Test
  void everyKTransactionsAGenerationIsDecided() {
    WindowChecker c = new WindowChecker(WindowConfig.of(1000, 0, 0).withPolygraphEvery(2), new WindowChecker.Journal() {});
    List<WindowTxn> txns = lostUpdate();
    assertThat(c.offer(txns.get(0)).violations()).isEmpty();
    assertThat(c.offer(txns.get(1)).violations()).extracting(v -> v.finding().anomaly())
        .containsExactly(Anomaly.LOST_UPDATE);
    assertThat(c.finish().violations()).isEmpty(); // the same proof again: the same id
  }

  @Test
  void aRetiringGenerationIsDecided() {
    WindowChecker c = new WindowChecker(WindowConfig.of(4, 0, 0), new WindowChecker.Journal() {});
    List<WindowTxn> txns = new ArrayList<>(lostUpdate());
    txns.addAll(fillers(4, 2));
    assertThat(offer(c, txns)).extracting(v -> v.finding().anomaly()).containsExactly(Anomaly.LOST_UPDATE);
  }

  @Test
  void givingUpDecidesWhatWasFedSinceTheLastRun() {
    WindowChecker c = new WindowChecker(WindowConfig.of(1000, 0, 0).withWatermarks(), new WindowChecker.Journal() {});
    assertThat(offer(c, lostUpdate())).isEmpty();
    assertThat(c.advance(10, false).violations()).isEmpty();
    assertThat(c.advance(10, true).violations()).extracting(v -> v.finding().anomaly())
        .containsExactly(Anomaly.LOST_UPDATE);
    WindowChecker.Outcome again = c.advance(20, true);
    assertThat(again.violations()).isEmpty();
    assertThat(again.undecidedChecks()).isZero();
  }

  @Test
  void aRestoredCheckerDoesNotReportTheSameViolationTwice() {
    WindowConfig config = WindowConfig.of(1000, 0, 0).withPolygraphEvery(2);
    MemoryJournal journal = new MemoryJournal();
    WindowChecker first = new WindowChecker(config, journal);
    assertThat(offer(first, lostUpdate())).hasSize(1);
    WindowChecker second = journal.restore(config, first.meta());
    assertThat(offer(second, fillers(3, 2))).isEmpty();
    assertThat(second.finish().violations()).isEmpty();
    assertThat(second.violatedChecks()).contains(SI, SER);
  }

  @Test
  void aSerialRegisterHistoryDecidedAfterEveryTransactionHasNoViolation() {
    List<WindowTxn> txns = new ArrayList<>();
    long x = History.NIL;
    for (int i = 0; i < 200; i++) {
      txns.add(WindowTxn.builder("t" + i, "s" + (i % 3), i, TxnStatus.COMMITTED).read("x", x).write("x", i + 1)
          .read("y", History.NIL).build());
      x = i + 1;
    }
    WindowChecker c = new WindowChecker(WindowConfig.of(16, 0, 0).withPolygraphEvery(1), new WindowChecker.Journal() {});
    assertThat(offer(c, txns)).isEmpty();
    assertThat(c.finish().violations()).isEmpty();
    assertThat(c.violatedChecks()).isEmpty();
  }

  /** T3 and T4 read y and z initially and each writes one of them: a write skew (G2-item). */
  private static List<WindowTxn> writeSkew() {
    return List.of(
        WindowTxn.builder("T3", "s3", 0, TxnStatus.COMMITTED).read("y", History.NIL).read("z", History.NIL)
            .write("y", 1).build(),
        WindowTxn.builder("T4", "s4", 1, TxnStatus.COMMITTED).read("y", History.NIL).read("z", History.NIL)
            .write("z", 1).build());
  }

  @Test
  void belowSnapshotIsolationNoPolygraphCheckRuns() {
    WindowChecker c = new WindowChecker(WindowConfig.of(1000, 0, 0).withPolygraphEvery(1)
        .withPolygraphUpTo(Level.CAUSAL), new WindowChecker.Journal() {});
    assertThat(offer(c, lostUpdate())).isEmpty();
    assertThat(c.finish().violations()).isEmpty();
    assertThat(c.violatedChecks()).isEmpty();
  }

  @Test
  void upToSnapshotIsolationOnlyItsCheckRuns() {
    WindowConfig config = WindowConfig.of(1000, 0, 0).withPolygraphUpTo(Level.SNAPSHOT_ISOLATION);
    WindowChecker lost = new WindowChecker(config, new WindowChecker.Journal() {});
    offer(lost, lostUpdate());
    assertThat(lost.finish().violations()).extracting(v -> v.finding().anomaly())
        .containsExactly(Anomaly.LOST_UPDATE);
    assertThat(lost.violatedChecks()).containsExactly(SI);
    WindowChecker skew = new WindowChecker(config, new WindowChecker.Journal() {});
    offer(skew, writeSkew());
    assertThat(skew.finish().violations()).isEmpty(); // snapshot isolation allows it
    WindowChecker all = new WindowChecker(WindowConfig.of(1000, 0, 0), new WindowChecker.Journal() {});
    offer(all, writeSkew());
    assertThat(all.finish().violations()).extracting(v -> v.finding().anomaly())
        .containsExactly(Anomaly.G2_ITEM);
    assertThat(all.violatedChecks()).containsExactly(SER);
  }
}
