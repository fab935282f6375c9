package io.isowatch.checker.awdit;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.Checker;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.reference.ReferenceChecker;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fast AWDIT checkers agree with the literal transcription of {@code notes/semantics.md} on
 * {@link SeedRuns#TRIES} permissive histories per level: same verdict and same set of anomaly
 * kinds. The 20,000-history run is documented in {@link SeedRuns}.
 */
class FastVersusReferenceTest {
  static Checker fast(Level level) {
    switch (level) {
      case READ_COMMITTED:
        return new RcChecker();
      case READ_ATOMIC:
        return new RaChecker();
      case CAUSAL:
        return new CcChecker();
      default:
        throw new IllegalArgumentException("no fast checker for " + level);
    }
  }

  @ParameterizedTest
  @EnumSource(value = Level.class, names = {"READ_COMMITTED", "READ_ATOMIC", "CAUSAL"})
  void fastCheckerAgreesWithReference(Level level) {
    Checker fast = fast(level);
    ReferenceChecker reference = new ReferenceChecker(level);
    SeedRuns.Outcome outcome = SeedRuns.run(
        h -> SeedRuns.difference("reference", reference.check(h), "fast", fast.check(h)));
    assertThat(outcome.failing()).withFailMessage("%s", outcome).isEqualTo(0);
  }
}
