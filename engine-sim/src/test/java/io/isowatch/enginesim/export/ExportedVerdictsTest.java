package io.isowatch.enginesim.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import io.isowatch.enginesim.ladder.LadderRun;
import io.isowatch.enginesim.ladder.Rung;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Histories exported from the ladder read back through {@link HistoryFiles} (as {@code isowatch
 * check} reads them) and get the verdicts the simulated history got: Plume text from the RC, RA and
 * CC rungs at read committed, read atomic and causal; EDN from the SI rung, G2-item at serializable.
 */
class ExportedVerdictsTest {
  @TempDir Path dir;

  private static final List<Level> AXIOMATIC = List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL);

  private static List<Anomaly> anomalies(CheckResult r) {
    return r.violations().stream().map(Violation::anomaly).toList();
  }

  @Test
  void plumeTextFromTheRcRaAndCcRungsGetsTheSameVerdicts() throws Exception {
    // the seed where each rung shows its weakness, and seed 10
    long[][] seeds = {{0, 10}, {3, 10}, {0, 10}};
    Rung[] rungs = {Rung.RC, Rung.RA, Rung.CC};
    int violated = 0;
    for (int i = 0; i < rungs.length; i++) {
      for (long seed : seeds[i]) {
        History simulated = LadderRun.history(rungs[i], LadderRun.CONTENDED, seed);
        List<Path> files = SimExport.writeAll(simulated, dir, rungs[i] + "-" + seed);
        assertThat(files).extracting(p -> p.getFileName().toString())
            .containsExactly(rungs[i] + "-" + seed + ".jsonl", rungs[i] + "-" + seed + ".plume.txt");
        History read = HistoryFiles.read(files.get(1), null, null);
        assertThat(HistoryFiles.detect(files.get(1))).isEqualTo(HistoryFormat.PLUME);
        for (Level level : AXIOMATIC) {
          CheckResult before = Checkers.forLevel(level).check(simulated);
          CheckResult after = Checkers.forLevel(level).check(read);
          assertThat(after.verdict()).as("%s seed %d at %s", rungs[i], seed, level).isEqualTo(before.verdict());
          assertThat(anomalies(after)).isEqualTo(anomalies(before));
          violated += after.violations().isEmpty() ? 0 : 1;
        }
      }
    }
    // RC at seed 0 breaks read atomic and causal; RA at seed 3 breaks causal; CC at seed 0 breaks none
    // of the three (its lost update is a snapshot isolation anomaly); plus what seed 10 shows
    assertThat(violated).isEqualTo(5);
  }

  @Test
  void ednOfTheSnapshotIsolationRungIsG2ItemForTheListAppendChecker() throws Exception {
    History simulated = LadderRun.history(Rung.SI, LadderRun.CONTENDED, 0);
    List<Path> files = SimExport.writeAll(simulated, dir, "si-0");
    assertThat(files.get(1).getFileName().toString()).isEqualTo("si-0.edn");

    History read = HistoryFiles.read(files.get(1), null, null);
    CheckResult serializable = Checkers.adya(Level.SERIALIZABLE, true).check(read);
    CheckResult si = Checkers.adya(Level.SNAPSHOT_ISOLATION, true).check(read);

    assertThat(HistoryFiles.detect(files.get(1))).isEqualTo(HistoryFormat.EDN);
    assertThat(anomalies(serializable)).contains(Anomaly.G2_ITEM).containsOnly(Anomaly.G2_ITEM);
    assertThat(si.violations()).isEmpty();
  }
}
