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
    assertThat(m.result().committed()).as(where + ": committed").isEqualTo(row.transactions());
    assertThat(m.result().unknown()).as(where + ": unknown outcomes").isZero();
    assertThat(m.found()).as(where + ": anomalies found").containsAll(row.mustFind());
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
    if (row.mustAbort()) {
      assertThat(m.result().aborted()).as(where + ": aborted").isPositive();
    }
  }
}
