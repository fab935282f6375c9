package io.isowatch.stream.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.Violation;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The offline checker convicts the generator: exactly its injected write skews, nothing else. */
class WriteSkewWorkloadTest {
  @Test
  void serializableFindsExactlyOneG2ItemPerInjectedWriteSkew() {
    WriteSkewWorkload.Generated run = WriteSkewWorkload.generate(500, 6, 8, 50, 7);
    History h = run.history();
    assertThat(h.txnCount()).isBetween(500, 502);
    CheckResult result = Checkers.adya(Level.SERIALIZABLE, true).check(h);
    assertThat(result.verdict()).isEqualTo(Verdict.VIOLATED);
    Set<String> found = result.violations().stream()
        .map(v -> v.anomaly().id() + " " + labels(h, v)).collect(Collectors.toCollection(TreeSet::new));
    Set<String> injected = run.skews().stream()
        .map(p -> "G2-item [" + p[0] + ", " + p[1] + "]").collect(Collectors.toCollection(TreeSet::new));
    assertThat(run.skews()).hasSize(9);
    assertThat(found).isEqualTo(injected);
    assertThat(result.violations()).hasSize(run.skews().size())
        .allSatisfy(v -> assertThat(v.anomaly()).isEqualTo(Anomaly.G2_ITEM));
  }

  @Test
  void snapshotIsolationAllowsTheRun() {
    History h = WriteSkewWorkload.generate(500, 6, 8, 50, 7).history();
    assertThat(Checkers.adya(Level.SNAPSHOT_ISOLATION, true).check(h).verdict()).isEqualTo(Verdict.CONSISTENT);
  }

  @Test
  void withoutSkewsTheRunIsSerializable() {
    WriteSkewWorkload.Generated run = WriteSkewWorkload.generate(300, 4, 8, Integer.MAX_VALUE, 3);
    assertThat(run.skews()).isEmpty();
    assertThat(Checkers.adya(Level.SERIALIZABLE, true).check(run.history()).verdict())
        .isEqualTo(Verdict.CONSISTENT);
  }

  /** @return the labels of the witness cycle's transactions, sorted, e.g. {@code [12, 13]} */
  static List<Long> labels(History h, Violation v) {
    return v.witness().edges().stream().map(Edge::from).map(h::label).sorted().distinct().toList();
  }
}
