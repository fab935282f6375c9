package io.isowatch.report;

import io.isowatch.checker.finding.Finding;
import java.util.List;

/**
 * A witness ready to be drawn: a {@link Finding} with what its page adds, whichever side found it
 * ({@link WitnessViews#of(io.isowatch.checker.history.History, io.isowatch.checker.witness.Violation,
 * String, String)} for {@code isowatch check}, {@link WitnessViews#of(io.isowatch.schemas.Violation)} for a violation the
 * monitor published). {@link WitnessSvg}, {@link HtmlPage} and {@link DotWriter} read only this, so
 * the offline report and the monitor's violations page draw a witness the same way.
 *
 * @param id identifies the witness on its page and in links: the violation id, or {@code v1},
 *     {@code v2} ... in a check report; any characters (escaped where written)
 * @param title one line naming the anomaly and the weakest level broken
 * @param facts further lines shown under the title (history, detection time, window), may be empty
 * @param finding the violation: summary, transactions, edges and support edges
 */
public record WitnessView(String id, String title, List<String> facts, Finding finding) {
  /** Copies the list. */
  public WitnessView {
    facts = List.copyOf(facts);
  }
}
