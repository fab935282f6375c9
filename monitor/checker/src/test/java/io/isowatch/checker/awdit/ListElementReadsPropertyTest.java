package io.isowatch.checker.awdit;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.reference.HistoryText;
import io.isowatch.checker.reference.PermissiveHistories;
import io.isowatch.checker.reference.PermissiveListHistories;
import io.isowatch.checker.reference.ReferenceChecker;
import io.isowatch.checker.reference.ReferenceGraph;
import io.isowatch.checker.witness.CheckResult;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The fast per-element checks agree with the slow literal transcription of the list translation
 * ({@link ReferenceChecker}, element by element) on random list-append histories where anomalies in
 * the middle of lists and lists in contradictory orders are common ({@link
 * PermissiveListHistories}): at read committed, read atomic and causal, the batch checker has the
 * reference's verdict and set of anomaly kinds, the incremental checker the batch checker's (within
 * them when a transaction of unknown outcome is read from: {@link BatchVersusIncrementalTest}), and
 * every edge of both checkers' cycle witnesses (the {@code ww} version orders included) holds in the
 * reference graph. About 5 s for the 1,500 tries.
 */
class ListElementReadsPropertyTest {
  private static final Level[] LEVELS = {Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL};

  @Property(tries = 1500)
  void fastElementReadsAgreeWithTheLiteralReference(@ForAll long seed) {
    History h = PermissiveListHistories.generate(seed);
    for (Level level : LEVELS) {
      CheckResult fast = FastVersusReferenceTest.fast(level).check(h);
      String vsReference = SeedRuns.difference("reference", new ReferenceChecker(level).check(h), "fast", fast);
      assertThat(vsReference).withFailMessage("%s\n%s", vsReference, HistoryText.of(h)).isNull();
      CheckResult incremental = BatchVersusIncrementalTest.incremental(h, level, BatchVersusIncrementalTest.historyOrder(h));
      String vsIncremental = PermissiveHistories.hasReadUnknownOutcome(h)
          ? SeedRuns.excess("batch", fast, "incremental", incremental)
          : SeedRuns.difference("batch", fast, "incremental", incremental);
      assertThat(vsIncremental).withFailMessage("%s\n%s", vsIncremental, HistoryText.of(h)).isNull();
      ReferenceGraph graph = new ReferenceChecker(level).graph(h);
      for (CheckResult r : List.of(fast, incremental)) {
        String witness = WitnessValidityTest.problem(level, graph, r.violations());
        assertThat(witness).withFailMessage("%s\n%s", witness, HistoryText.of(h)).isNull();
      }
    }
  }
}
