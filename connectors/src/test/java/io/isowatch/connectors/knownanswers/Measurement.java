package io.isowatch.connectors.knownanswers;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import io.isowatch.connectors.probe.Dialect;
import io.isowatch.connectors.probe.HistoryCollector;
import io.isowatch.connectors.probe.Probe;
import io.isowatch.connectors.probe.ProbeConfig;
import io.isowatch.connectors.probe.ProbeException;
import io.isowatch.connectors.probe.ProbeResult;
import io.isowatch.connectors.probe.ProbeWorkload;
import java.util.EnumSet;
import java.util.Set;

/**
 * One probe run of a {@link KnownAnswer} row, checked offline.
 *
 * <p>The checks are those {@code isowatch check} makes on a list-append history ({@code
 * io.isowatch.checker.LevelPlan}): Adya's phenomena ({@link Checkers#adya}, session order in the graph)
 * at serializable, which reports every anomaly the checker knows, and at the row's forbidden level;
 * plus the axiomatic read committed check (AWDIT, {@link Checkers#forLevel}).
 *
 * @param result the probe's counts
 * @param history the recorded history
 * @param found every anomaly the serializable Adya check reported
 * @param forbidden the Adya check at the row's forbidden level (its violations, verdict and, when
 *     UNKNOWN, the reason), null if the row has none
 * @param readCommitted the axiomatic read committed result
 */
public record Measurement(
    ProbeResult result,
    History history,
    Set<Anomaly> found,
    CheckResult forbidden,
    CheckResult readCommitted) {

  /**
   * Runs the probe for the row and checks the history.
   *
   * @param row the row
   * @param jdbcUrl the server
   * @param runTag distinguishes the run's keys from other runs' in the same tables
   * @param seed the sessions' random seed
   * @return the measurement
   * @throws ProbeException if the probe cannot run
   * @throws InterruptedException if interrupted
   */
  public static Measurement run(KnownAnswer row, String jdbcUrl, String runTag, long seed)
      throws ProbeException, InterruptedException {
    ProbeConfig config = new ProbeConfig(jdbcUrl, null, null, row.isolation(), ProbeWorkload.LIST_APPEND,
        row.scenario(), row.sessions(), row.keys(), row.transactions(), null, "known-answers", runTag, seed);
    HistoryCollector collector = new HistoryCollector();
    ProbeResult result = new Probe(config, Dialect.forUrl(jdbcUrl), collector).run();
    History h = collector.history();
    Set<Anomaly> found = EnumSet.noneOf(Anomaly.class);
    for (Violation v : Checkers.adya(Level.SERIALIZABLE, true).check(h).violations()) {
      found.add(v.anomaly());
    }
    CheckResult forbidden = row.forbiddenLevel() == null ? null : Checkers.adya(row.forbiddenLevel(), true).check(h);
    return new Measurement(result, h, found, forbidden,
        Checkers.forLevel(Level.READ_COMMITTED).check(h));
  }
}
