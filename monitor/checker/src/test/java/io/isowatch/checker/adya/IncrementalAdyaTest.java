package io.isowatch.checker.adya;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The incremental form reports each violation once, when the transaction completing it arrives. */
class IncrementalAdyaTest {
  private static List<List<Violation>> stream(String text, Level level) {
    History h = TestHistories.parse(text);
    IncrementalAdya inc = new IncrementalAdya(h, level, true);
    List<List<Violation>> out = new ArrayList<>();
    for (int t = 0; t < h.txnCount(); t++) {
      out.add(inc.accept(t));
    }
    out.add(inc.finish());
    return out;
  }

  @Test
  void elleExampleCycleAppearsWithItsLastTransaction() {
    History h = TestHistories.parse(ElleExampleTest.PAPER_EXAMPLE);
    assertThat(stream(ElleExampleTest.PAPER_EXAMPLE, Level.SERIALIZABLE))
        .containsExactly(List.of(), List.of(), List.of(), List.of(ElleExampleTest.expected(h)), List.of());
  }

  @Test
  void abortedWriterArrivingAfterItsReaderIsReportedThen() {
    String text = "s2 T2: r x [1]\ns1 T1: a x 1 | aborted";
    Violation g1a = new Violation(Anomaly.ABORTED_READ, Level.READ_COMMITTED,
        new Witness(List.of(0, 1), List.of(0, 1), List.of()));
    assertThat(stream(text, Level.READ_COMMITTED)).containsExactly(List.of(), List.of(g1a), List.of());
  }

  @Test
  void thinAirReadWaitsForTheEndOfTheStream() {
    Violation thin = new Violation(Anomaly.THIN_AIR_READ, Level.READ_COMMITTED,
        new Witness(List.of(0), List.of(0), List.of()));
    assertThat(stream("s1 T1: r x [5]", Level.READ_COMMITTED)).containsExactly(List.of(), List.of(thin));
  }

  @Test
  void aLongerReadDoesNotRepeatAnIncompatibleOrder() {
    String text = String.join("\n",
        "s1 T1: a x 1",
        "s2 T2: a x 2",
        "s3 T3: r x [1]",
        "s4 T4: r x [2]",
        "s5 T5: r x [1 2]");
    Violation first = new Violation(Anomaly.INCOMPATIBLE_ORDER, Level.READ_COMMITTED,
        new Witness(List.of(3, 2), List.of(3, 2), List.of()));
    assertThat(stream(text, Level.READ_COMMITTED))
        .containsExactly(List.of(), List.of(), List.of(), List.of(first), List.of(), List.of());
  }
}
