package io.isowatch.checker.polygraph;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The polygraph checker against the brute force over commit orders ({@link CommitOrderBruteForce}),
 * at snapshot isolation and serializable, with and without session order, on {@code
 * isowatch.property.tries} histories (2,000 by default; fixed seeds) from {@link
 * RegisterStoreHistories}: identical verdicts, every commit order re-verified by the definition.
 */
class PolygraphVersusBruteForcePropertyTest {
  @Test
  void verdictsEqualTheBruteForce() {
    int tries = Integer.getInteger("isowatch.property.tries", 2000);
    Map<String, Integer> seen = new TreeMap<>();
    Map<String, Integer> proofs = new TreeMap<>();
    int searched = 0;
    int conflicts = 0;
    for (long seed = 0; seed < tries; seed++) {
      History h = RegisterStoreHistories.generate(seed);
      for (boolean so : new boolean[] {true, false}) {
        StringBuilder pair = new StringBuilder(so ? "session order:" : "no session order:");
        for (Level level : new Level[] {Level.SNAPSHOT_ISOLATION, Level.SERIALIZABLE}) {
          PolygraphChecker checker = new PolygraphChecker(level, so, 10_000, 1_000_000);
          PolygraphAnswer a = checker.solve(h);
          PolygraphAnswer searchOnly = checker.pruning(false).solve(h);
          boolean expected = CommitOrderBruteForce.satisfiable(h, level, so);
          Verdict verdict = expected ? Verdict.CONSISTENT : Verdict.VIOLATED;
          assertThat(a.verdict()).as("seed %d, %s, session order %s", seed, level, so).isEqualTo(verdict);
          assertThat(searchOnly.verdict()).as("search only: seed %d, %s, session order %s", seed, level, so)
              .isEqualTo(verdict);
          if (expected) {
            assertThat(CommitOrders.verify(h, a.commitOrder(), level, so)).isNull();
            assertThat(CommitOrders.verify(h, searchOnly.commitOrder(), level, so)).isNull();
          }
          for (PolygraphAnswer answer : new PolygraphAnswer[] {a, searchOnly}) {
            if (answer.verdict() == Verdict.VIOLATED) {
              assertThat(ProofVerifier.check(h, answer.proof(), level, so))
                  .as("proof of seed %d, %s, session order %s: %s", seed, level, so, answer.proof()).isNull();
              proofs.merge(answer.proof().kind() + " core " + answer.proof().core().size(), 1, Integer::sum);
            }
          }
          searched += a.stats().searched() > 0 ? 1 : 0;
          conflicts += searchOnly.stats().conflicts() > 0 ? 1 : 0;
          pair.append(' ').append(a.verdict());
        }
        seen.merge(pair.toString(), 1, Integer::sum);
      }
    }
    System.out.println("polygraph versus brute force, " + tries + " histories: " + seen + "; pruning left"
        + " constraints to the search in " + searched + " checks; the search alone met conflicts in "
        + conflicts + "; proofs " + proofs);
    // Serializable implies snapshot isolation; each other combination is common (write skew: SI only).
    assertThat(seen).doesNotContainKeys("session order: VIOLATED CONSISTENT", "no session order: VIOLATED CONSISTENT")
        .containsKeys("session order: CONSISTENT CONSISTENT", "session order: CONSISTENT VIOLATED",
            "session order: VIOLATED VIOLATED", "no session order: CONSISTENT VIOLATED");
  }
}
