package io.isowatch.cli;

import io.isowatch.checker.finding.Finding;
import io.isowatch.report.WitnessViews;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.mapping.ViolationMapping;
import java.util.ArrayList;
import java.util.List;

/**
 * A published {@link Violation} (the Avro record of the violations topic) in the words of {@link
 * TextReport}, the style of {@code isowatch check}:
 *
 * <pre>
 * violation 3f9a0c12e4b1: G2-item in history demo (weakest level broken: serializable)
 *   cycle T12 -> T13 -> T12 (2 edges)
 *   T12 (session s3): r(k1)=[.., 7] r(k4)=[.., 9] append(k1,20)
 *   T13 (session s5): r(k1)=[.., 7] r(k4)=[.., 9] append(k4,21)
 *   rw: T12 read k4 = [.., 9] and so did not see T13's append of 21
 *   rw: T13 read k1 = [.., 7] and so did not see T12's append of 20
 * </pre>
 *
 * The summary and edge sentences are the record's own (written by the monitor's {@code
 * WitnessRenderer}); list reads show their last element only, as the witness renderer does. The
 * record is read through {@link ViolationMapping#finding(Violation)}, as the violations page reads it.
 */
public final class ViolationText {
  private ViolationText() {}

  /** @return e.g. {@code violation 3f9a0c12e4b1: G2-item in history demo (weakest level broken: serializable)} */
  public static String headline(Violation v) {
    return "violation " + v.getViolationId() + ": " + WitnessViews.title(v);
  }

  /** @return the headline, then the summary, the transactions and the edges, each indented by two spaces */
  public static List<String> lines(Violation v) {
    Finding f = ViolationMapping.finding(v);
    List<String> out = new ArrayList<>();
    out.add(headline(v));
    if (f.summary() != null) {
      out.add("  " + f.summary());
    }
    for (Finding.Txn t : f.txns()) {
      out.add("  " + t.line());
    }
    for (Finding.Arrow e : f.edges()) {
      out.add("  " + e.type().id() + ": " + e.explanation());
    }
    return out;
  }
}
