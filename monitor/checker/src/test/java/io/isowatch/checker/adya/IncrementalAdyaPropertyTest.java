package io.isowatch.checker.adya;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.reference.PermissiveHistories;
import io.isowatch.checker.reference.PermissiveListHistories;
import io.isowatch.checker.reference.WriteSkewHistories;
import io.isowatch.checker.witness.Violation;
import java.util.LinkedHashSet;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The incremental Adya check against the batch analysis, prefix by prefix: after accepting
 * transactions {@code 0..i}, the identities it has reported are exactly those the batch analysis
 * reports on some prefix {@code 0..j}, {@code j <= i} (what the former per-prefix re-analysis
 * reported), on list-append histories with every list anomaly common ({@link
 * PermissiveListHistories}) and on mixed register and list histories ({@link PermissiveHistories}),
 * at each Adya level, with and without session order; after {@link IncrementalAdya#finish()}, also
 * the batch analysis's thin-air reads. Also on write-skew histories ({@link WriteSkewHistories}),
 * where many cycles are open at once, each leaving a pending edge, their spans overlapping in the
 * order, and key rotation removes and redraws edges inside them.
 */
class IncrementalAdyaPropertyTest {
  private static final Level[] LEVELS =
      {Level.READ_UNCOMMITTED, Level.READ_COMMITTED, Level.SNAPSHOT_ISOLATION, Level.SERIALIZABLE};

  @Property(tries = 1500)
  void listHistoriesReportWhatTheBatchReportsOnEachPrefix(@ForAll long seed) {
    History h = PermissiveListHistories.generate(seed);
    for (Level level : LEVELS) {
      assertPrefixes(h, level, true, seed);
      assertPrefixes(h, level, false, seed);
    }
  }

  @Property(tries = 600)
  void mixedHistoriesReportWhatTheBatchReportsOnEachPrefix(@ForAll long seed) {
    History h = PermissiveHistories.generate(seed);
    assertPrefixes(h, Level.SERIALIZABLE, true, seed);
    assertPrefixes(h, Level.READ_COMMITTED, false, seed);
  }

  @Property(tries = 300)
  void writeSkewHistoriesReportWhatTheBatchReportsOnEachPrefix(@ForAll long seed, @ForAll boolean disjoint,
      @ForAll @IntRange(min = 1, max = 30) int rounds) {
    History h = WriteSkewHistories.generate(seed, rounds, disjoint).history();
    assertPrefixes(h, Level.SERIALIZABLE, true, seed);
    assertPrefixes(h, Level.SERIALIZABLE, false, seed);
    assertPrefixes(h, Level.SNAPSHOT_ISOLATION, true, seed);
  }

  private static void assertPrefixes(History h, Level level, boolean so, long seed) {
    IncrementalAdya inc = new IncrementalAdya(h, level, so);
    Set<Violation.Identity> expected = new LinkedHashSet<>();
    Set<Violation.Identity> actual = new LinkedHashSet<>();
    for (int t = 0; t < h.txnCount(); t++) {
      for (Violation v : inc.accept(t)) {
        assertThat(actual.add(v.identity())).as("seed %d: reported twice: %s", seed, v).isTrue();
      }
      for (Violation v : AdyaAnalysis.run(new Scope(h, t + 1), level, so, false).violations()) {
        expected.add(v.identity());
      }
      assertThat(actual).as("seed %d, %s, so %s, after T%d", seed, level, so, t)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
    inc.finish().forEach(v -> actual.add(v.identity()));
    AdyaAnalysis.run(new Scope(h, h.txnCount()), level, so, true).violations().forEach(v -> expected.add(v.identity()));
    assertThat(actual).as("seed %d, %s, so %s, finished", seed, level, so).containsExactlyInAnyOrderElementsOf(expected);
  }
}
