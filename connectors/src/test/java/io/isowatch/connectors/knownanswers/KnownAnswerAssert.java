package io.isowatch.connectors.knownanswers;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.Violation;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/** The assertions of one known-answer row on one measurement. */
final class KnownAnswerAssert {
  private KnownAnswerAssert() {}

  /**
   * Asserts: exactly the row's number of transactions committed and none unknown; every anomaly the
   * row must find was found; none it must not find was; the row's forbidden level is consistent; the
   * axiomatic read committed check is consistent; and aborts happened if the row needs them.
   */
  static void holds(KnownAnswer row, Measurement m) {
    String where = row.label() + " (" + m.result() + ")";
    assertThat(m.found()).as(where + ": anomalies found").containsAll(row.mustFind());
    if (row.mustAbort()) {
      assertThat(m.result().aborted()).as(where + ": aborted").isPositive();
    }
    holdsNever(row, m);
  }

  /** One run of a row: a seed to the measurement. */
  interface Run {
    /** @return the measurement of the run with this seed */
    Measurement with(long seed) throws Exception;
  }

  /**
   * Whether an anomaly (or an abort) shows depends on how the sessions interleave, which the
   * machine's load changes: on an idle machine a 200-transaction run may finish before two sessions
   * overlap. So what the row must show may take several runs: up to {@code runs}, with seeds {@code
   * firstSeed}, {@code firstSeed + 1}, ... Every run must hold everything else ({@link #holdsNever}):
   * what the row must never show is asserted on each.
   *
   * @throws AssertionError if a run shows what it must not, or no run shows what it must
   */
  static void holdsWithin(KnownAnswer row, int runs, long firstSeed, Run run) throws Exception {
    Measurement last = null;
    for (int i = 0; i < runs; i++) {
      last = run.with(firstSeed + i);
      holdsNever(row, last);
      if (showsWhatItMust(row, last)) {
        return;
      }
    }
    holds(row, last);
  }

  private static boolean showsWhatItMust(KnownAnswer row, Measurement m) {
    return m.found().containsAll(row.mustFind()) && (!row.mustAbort() || m.result().aborted() > 0);
  }

  /** Everything but what the row must show (its anomalies, its aborts). */
  private static void holdsNever(KnownAnswer row, Measurement m) {
    String where = row.label() + " (" + m.result() + ")";
    assertThat(m.result().committed()).as(where + ": committed").isEqualTo(row.transactions());
    assertThat(m.result().unknown()).as(where + ": unknown outcomes").isZero();
    Set<Anomaly> unwanted = EnumSet.copyOf(m.found().isEmpty() ? EnumSet.noneOf(Anomaly.class) : m.found());
    unwanted.retainAll(row.mustNotFind());
    assertThat(unwanted).as(where + ": anomalies that must not be found").isEmpty();
    if (row.forbiddenLevel() != null) {
      assertThat(m.forbidden().violations().stream().map(Violation::anomaly).map(Anomaly::id)
          .collect(Collectors.toList())).as(where + ": violations of " + row.forbiddenLevel()).isEmpty();
      assertThat(m.forbidden().verdict())
          .as(where + ": verdict at " + row.forbiddenLevel() + " (" + m.forbidden().reason() + ")")
          .isEqualTo(Verdict.CONSISTENT);
    }
    assertThat(m.readCommitted().verdict()).as(where + ": axiomatic read committed").isEqualTo(Verdict.CONSISTENT);
  }
}
