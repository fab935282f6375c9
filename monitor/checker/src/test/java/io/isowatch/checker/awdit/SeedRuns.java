package io.isowatch.checker.awdit;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.reference.HistoryShrinker;
import io.isowatch.checker.reference.HistoryText;
import io.isowatch.checker.reference.PermissiveHistories;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Runs a comparison over the permissive histories of seeds {@code 0..TRIES-1} and collects the
 * disagreements, each minimised by {@link HistoryShrinker} and printed in the test notation so that
 * it can be pasted into a unit test.
 *
 * <p>{@code TRIES} is the system property {@code isowatch.property.tries} (the root pom passes 2000
 * to surefire). The documented long run, 20,000 histories per level and property:
 * {@code mvn -pl monitor/checker test -Disowatch.property.tries=20000
 * -Dtest='FastVersusReferenceTest,BatchVersusIncrementalTest,WitnessValidityTest,PermissiveHistoriesTest'}.
 */
final class SeedRuns {
  /** Histories per level and property. */
  static final int TRIES = Integer.getInteger("isowatch.property.tries", 2000);
  /** Distinct minimised disagreements kept for the failure message. */
  static final int EXAMPLES = 5;

  /**
   * @param tries histories compared
   * @param failing seeds whose history showed a disagreement
   * @param examples up to {@link #EXAMPLES} disagreements with distinct minimised histories, each
   *     as its seed, the disagreement and the history in the test notation
   */
  record Outcome(int tries, int failing, List<String> examples) {
    @Override
    public String toString() {
      return failing + " of " + tries + " histories disagree; minimised:\n\n" + String.join("\n\n", examples);
    }
  }

  private SeedRuns() {}

  /**
   * @param compare a description of how the two sides disagree on a history, or {@code null} when
   *     they agree; an exception thrown by a checker is caught and counts as a disagreement
   * @return the outcome over seeds {@code 0..TRIES-1}
   */
  static Outcome run(Function<History, String> compare) {
    int failing = 0;
    Map<String, String> examples = new LinkedHashMap<>();
    for (int seed = 0; seed < TRIES; seed++) {
      History h = PermissiveHistories.generate(seed);
      if (safely(compare, h) == null) {
        continue;
      }
      failing++;
      if (examples.size() < EXAMPLES) {
        String small = HistoryShrinker.minimise(HistoryText.of(h), text -> {
          History candidate;
          try {
            candidate = TestHistories.parse(text);
          } catch (IllegalArgumentException e) {
            return false;
          }
          return safely(compare, candidate) != null;
        });
        examples.putIfAbsent(small, "seed " + seed + ": " + safely(compare, TestHistories.parse(small)) + "\n" + small);
      }
    }
    return new Outcome(TRIES, failing, new ArrayList<>(examples.values()));
  }

  private static String safely(Function<History, String> compare, History h) {
    try {
      return compare.apply(h);
    } catch (RuntimeException e) {
      return "threw " + e;
    }
  }

  /** @return the set of anomaly kinds among the result's violations */
  static Set<Anomaly> kinds(CheckResult r) {
    Set<Anomaly> out = EnumSet.noneOf(Anomaly.class);
    for (Violation v : r.violations()) {
      out.add(v.anomaly());
    }
    return out;
  }

  /**
   * @return {@code null} when both results have the same verdict and the same set of anomaly kinds,
   *     otherwise both sides in words
   */
  static String difference(String expectedName, CheckResult expected, String gotName, CheckResult got) {
    if (expected.verdict() == got.verdict() && kinds(expected).equals(kinds(got))) {
      return null;
    }
    return expected.level() + ": " + expectedName + " " + expected.verdict() + " " + kinds(expected)
        + ", " + gotName + " " + got.verdict() + " " + kinds(got);
  }

  /**
   * The comparison where {@code got} may find less than {@code expected}, never more: an incremental
   * checker against the batch one on a history with a transaction of unknown outcome that is read
   * from ({@link PermissiveHistories#hasReadUnknownOutcome}).
   *
   * @return a description of what {@code got} finds beyond {@code expected} (violated where
   *     {@code expected} is not, or an anomaly kind {@code expected} lacks), or {@code null}
   */
  static String excess(String expectedName, CheckResult expected, String gotName, CheckResult got) {
    boolean verdictWithin = got.verdict() != Verdict.VIOLATED || expected.verdict() == Verdict.VIOLATED;
    if (verdictWithin && kinds(expected).containsAll(kinds(got))) {
      return null;
    }
    return expected.level() + ": " + gotName + " finds more than " + expectedName + ": " + expectedName + " "
        + expected.verdict() + " " + kinds(expected) + ", " + gotName + " " + got.verdict() + " " + kinds(got);
  }
}
