package io.isowatch.checker.reference;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TestHistories;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Arbitrary;
import org.junit.jupiter.api.Test;

/**
 * The generator is deterministic, prints to text that parses back to the same history, and makes
 * every anomaly of {@code notes/semantics.md} §3–§5 and every verdict vector that the levels allow
 * (RC ⊆ RA ⊆ CC violations) occur over the property-test seeds.
 */
class PermissiveHistoriesTest {
  /** Histories per run: system property {@code isowatch.property.tries}, 2000 by default. */
  static final int TRIES = Integer.getInteger("isowatch.property.tries", 2000);

  /** The anomaly kinds of semantics.md §3–§5 that the generator must produce. */
  static final Set<Anomaly> KINDS = EnumSet.of(Anomaly.THIN_AIR_READ, Anomaly.ABORTED_READ,
      Anomaly.FUTURE_READ, Anomaly.NOT_MY_OWN_WRITE, Anomaly.NOT_MY_LAST_WRITE,
      Anomaly.INTERMEDIATE_READ, Anomaly.NON_REPEATABLE_READ, Anomaly.COMMIT_ORDER_CYCLE);

  @Test
  void equalSeedsGiveEqualHistories() {
    assertThat(HistoryText.of(PermissiveHistories.generate(42)))
        .isEqualTo(HistoryText.of(PermissiveHistories.generate(42)));
  }

  @Provide
  Arbitrary<History> histories() {
    return PermissiveHistories.histories();
  }

  @Property(tries = 300)
  void textParsesBackToTheSameHistory(@ForAll("histories") History h) {
    String text = HistoryText.of(h);
    assertThat(HistoryText.of(TestHistories.parse(text))).isEqualTo(text);
  }

  @Test
  void everyAnomalyKindAndVerdictVectorOccurs() {
    Map<Level, Map<Anomaly, Integer>> seen = new EnumMap<>(Level.class);
    Map<String, Integer> vectors = new TreeMap<>();
    List<Level> levels = List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL);
    for (int seed = 0; seed < TRIES; seed++) {
      History h = PermissiveHistories.generate(seed);
      StringBuilder vector = new StringBuilder();
      for (Level level : levels) {
        CheckResult r = new ReferenceChecker(level).check(h);
        vector.append(r.verdict() == Verdict.CONSISTENT ? " ok " : " bad");
        Set<Anomaly> kinds = EnumSet.noneOf(Anomaly.class);
        for (Violation v : r.violations()) {
          kinds.add(v.anomaly());
        }
        for (Anomaly a : kinds) {
          seen.computeIfAbsent(level, l -> new EnumMap<>(Anomaly.class)).merge(a, 1, Integer::sum);
        }
      }
      vectors.merge(vector.toString(), 1, Integer::sum);
    }
    StringBuilder table = new StringBuilder("histories with each anomaly kind, of " + TRIES + " seeds\n");
    table.append(String.format("%-22s %8s %8s %8s%n", "kind", "RC", "RA", "CC"));
    for (Anomaly a : KINDS) {
      table.append(String.format("%-22s", a.id()));
      for (Level level : levels) {
        table.append(String.format(" %8d", seen.getOrDefault(level, Map.of()).getOrDefault(a, 0)));
      }
      table.append('\n');
    }
    table.append("verdict vectors  RC  RA  CC\n");
    vectors.forEach((v, n) -> table.append(String.format("               %s %6d%n", v, n)));
    System.out.print(table);
    assertThat(seen.get(Level.CAUSAL).keySet()).as(table.toString()).containsAll(KINDS);
    assertThat(vectors.keySet()).as(table.toString())
        .containsExactlyInAnyOrder(" ok  ok  ok ", " ok  ok  bad", " ok  bad bad", " bad bad bad");
  }
}
