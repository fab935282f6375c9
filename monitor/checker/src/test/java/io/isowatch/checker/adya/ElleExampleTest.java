package io.isowatch.checker.adya;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.SharedHistories;
import io.isowatch.checker.history.TestHistories;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.EdgeType;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Elle paper's example history ({@code ../shared/histories/real/elle-paper-example.edn}): a
 * G-single cycle through three transactions, so consistent with read committed and not with
 * snapshot isolation or serializable. The file has no {@code :process}, so each transaction is its
 * own session; the same history is also written out in the test notation.
 */
class ElleExampleTest {
  /** The file's four completed transactions, labelled with their Elle indices. */
  static final String PAPER_EXAMPLE = String.join("\n",
      "p0 T1: a 253 1, a 253 3, a 253 4, a 255 2, a 255 3, a 255 4, a 255 5, a 256 1, a 256 2",
      "p1 T3: a 255 8, r 253 [1 3 4]",
      "p2 T5: a 256 4, r 255 [2 3 4 5 8], r 256 [1 2 4], r 253 [1 3 4]",
      "p3 T7: a 250 10, r 253 [1 3 4], r 255 [2 3 4 5], a 256 3");

  static Violation expected(History h) {
    // T7 did not see T3's append of 8 to 255; T5 read it; T5 appended 4 to 256 before T7's 3
    return new Violation(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION, new Witness(
        List.of(3, 1, 2), List.of(17, 9, 12, 11, 18), List.of(
            new Edge(3, 1, EdgeType.RW, Because.ANTI_DEPENDENCY, h.key("255"), 8, -1),
            new Edge(1, 2, EdgeType.WR, Because.READS_FROM, h.key("255"), 8, -1),
            new Edge(2, 3, EdgeType.WW, Because.VERSION_ORDER, h.key("256"), 3, -1))));
  }

  static void assertGSingle(History h) {
    assertThat(new AdyaChecker(Level.READ_COMMITTED).check(h))
        .isEqualTo(new CheckResult(Level.READ_COMMITTED, Verdict.CONSISTENT, List.of()));
    for (Level l : List.of(Level.SNAPSHOT_ISOLATION, Level.SERIALIZABLE)) {
      assertThat(new AdyaChecker(l).check(h))
          .isEqualTo(new CheckResult(l, Verdict.VIOLATED, List.of(expected(h))));
    }
  }

  @Test
  void handEncodedExampleIsGSingle() {
    assertGSingle(TestHistories.parse(PAPER_EXAMPLE));
  }

  @Test
  void realFileIsGSingle() throws Exception {
    History h = HistoryFiles.read(SharedHistories.real("elle-paper-example.edn"), null, n -> {});
    assertThat(h.txnCount()).isEqualTo(4);
    assertGSingle(h);
  }
}
