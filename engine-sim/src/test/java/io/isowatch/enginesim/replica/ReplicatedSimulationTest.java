package io.isowatch.enginesim.replica;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.awdit.CcChecker;
import io.isowatch.checker.awdit.RaChecker;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.enginesim.engine.EngineOptions;
import io.isowatch.enginesim.engine.Engines;
import io.isowatch.enginesim.run.HistoryText;
import io.isowatch.enginesim.run.Simulation;
import io.isowatch.enginesim.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;

/** The replicated stores driven by {@link Simulation}, whose scheduler also picks delivery steps. */
class ReplicatedSimulationTest {
  /** 4 sessions on 6 keys, 70% reads: enough reads for the checker to see what each replica had. */
  private static WorkloadSpec contended(long seed) {
    return new WorkloadSpec(4, 6, 6, 4, 0.7, seed);
  }

  @Test
  void readAtomicRunsAreReadAtomicAndCausalRunsAreCausal() {
    int raBreaksCausal = 0;
    for (long seed = 0; seed < 150; seed++) {
      History ra = Simulation.run(Engines.create(Level.READ_ATOMIC), contended(seed));
      History cc = Simulation.run(Engines.create(Level.CAUSAL), contended(seed));

      assertThat(new RaChecker().check(ra).verdict()).as("seed %d", seed).isEqualTo(Verdict.CONSISTENT);
      assertThat(new CcChecker().check(cc).verdict()).as("seed %d", seed).isEqualTo(Verdict.CONSISTENT);
      raBreaksCausal += new CcChecker().check(ra).verdict() == Verdict.VIOLATED ? 1 : 0;
    }
    // read atomic allows causality violations, and the default 4 replicas show some
    assertThat(raBreaksCausal).isEqualTo(29);
  }

  @Test
  void theSameSeedGivesTheSameHistory() {
    for (Level level : new Level[] {Level.READ_ATOMIC, Level.CAUSAL}) {
      String a = HistoryText.render(Simulation.run(Engines.create(level, EngineOptions.DEFAULT), contended(5)));
      String b = HistoryText.render(Simulation.run(Engines.create(level, EngineOptions.DEFAULT), contended(5)));
      assertThat(b).isEqualTo(a);
    }
  }
}
