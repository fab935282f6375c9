package io.isowatch.report;

import io.isowatch.checker.finding.Findings;
import io.isowatch.checker.history.History;
import io.isowatch.checker.witness.WitnessRenderer;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.mapping.ViolationMapping;
import java.util.List;

/**
 * Builds {@link WitnessView}s from the two places a witness comes from: the offline checker's
 * {@link io.isowatch.checker.witness.Violation} over a {@link History} ({@link Findings#of(History,
 * io.isowatch.checker.witness.Violation)}, words by {@link WitnessRenderer}), and the Avro {@link
 * Violation} the monitor publishes on the violations topic ({@link ViolationMapping#finding}, whose
 * edge sentences the monitor's {@link WitnessRenderer} wrote before publishing). Only the title and
 * facts are written here.
 */
public final class WitnessViews {
  private WitnessViews() {}

  /**
   * @param h the history the violation was found in
   * @param v the violation
   * @param id the view's id, e.g. {@code v3}
   * @param title its title line
   * @return the view of {@link Findings#of(History, io.isowatch.checker.witness.Violation)}, no facts
   */
  public static WitnessView of(History h, io.isowatch.checker.witness.Violation v, String id, String title) {
    return new WitnessView(id, title, List.of(), Findings.of(h, v));
  }

  /**
   * @param v a violation record of the violations topic
   * @return its witness: id the violation id; title {@code G2-item in history demo (weakest level
   *     broken: serializable)}; facts the detection time and the window; the finding {@link
   *     ViolationMapping#finding} reads
   */
  public static WitnessView of(Violation v) {
    List<String> facts = List.of(
        "found at event time " + v.getDetectedAt(),
        "window: " + v.getWindow().getTransactions() + " transactions, event times "
            + v.getWindow().getStartTime() + " to " + v.getWindow().getEndTime());
    return new WitnessView(v.getViolationId(), title(v), facts, ViolationMapping.finding(v));
  }

  /** @return e.g. {@code G2-item in history demo (weakest level broken: serializable)} */
  public static String title(Violation v) {
    return v.getAnomaly() + " in history " + v.getHistoryId() + " (weakest level broken: " + level(v) + ")";
  }

  /** @return the weakest level a violation record breaks, command-line name, e.g. {@code serializable} */
  public static String level(Violation v) {
    return ViolationMapping.level(v).cliName();
  }
}
