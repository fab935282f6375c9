package io.isowatch.checker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules of {@link LevelVerdicts} on hand-made results, one rule per test. */
class LevelVerdictsTest {
  private static final LevelPlan.Check RC = new LevelPlan.Check(LevelPlan.Model.AXIOMATIC, Level.READ_COMMITTED);
  private static final LevelPlan.Check PL2 = new LevelPlan.Check(LevelPlan.Model.ADYA, Level.READ_COMMITTED);
  private static final LevelPlan.Check RA = new LevelPlan.Check(LevelPlan.Model.AXIOMATIC, Level.READ_ATOMIC);
  private static final LevelPlan.Check CC = new LevelPlan.Check(LevelPlan.Model.AXIOMATIC, Level.CAUSAL);
  private static final LevelPlan.Check SI = new LevelPlan.Check(LevelPlan.Model.ADYA, Level.SNAPSHOT_ISOLATION);
  private static final LevelPlan.Check SER = new LevelPlan.Check(LevelPlan.Model.ADYA, Level.SERIALIZABLE);
  private static final Violation THIN_AIR = new Violation(Anomaly.THIN_AIR_READ, Level.READ_COMMITTED,
      new Witness(List.of(0), List.of(0), List.of()));
  private static final Violation FRACTURED = new Violation(Anomaly.NON_REPEATABLE_READ, Level.READ_ATOMIC,
      new Witness(List.of(1), List.of(1, 2), List.of()));

  @Test
  void unknownOnlyWhenNothingDecidesAndNothingWeakerIsViolated() {
    LevelVerdicts v = LevelVerdicts.of(List.of(CC, SI, SER),
        List.of(ok(Level.CAUSAL), unknown(Level.SNAPSHOT_ISOLATION), unknown(Level.SERIALIZABLE)), true);
    assertThat(v.levels()).containsExactly(
        new LevelVerdicts.LevelVerdict(Level.CAUSAL, Verdict.CONSISTENT, null, null),
        new LevelVerdicts.LevelVerdict(Level.SNAPSHOT_ISOLATION, Verdict.UNKNOWN, null, "no order"),
        new LevelVerdicts.LevelVerdict(Level.SERIALIZABLE, Verdict.UNKNOWN, null, "no order"));
    assertThat(v.anyUnknown()).isTrue();
    assertThat(v.anyViolated()).isFalse();
    assertThat(v.strongestSatisfied()).isEqualTo(Level.CAUSAL);
    assertThat(v.weakestBroken()).isNull();
  }

  @Test
  void aViolationOfAWeakerLevelViolatesEveryStrongerOneAndIsCited() {
    LevelVerdicts v = LevelVerdicts.of(List.of(RC, RA, SI, SER), List.of(ok(Level.READ_COMMITTED),
        violated(Level.READ_ATOMIC, FRACTURED), unknown(Level.SNAPSHOT_ISOLATION), ok(Level.SERIALIZABLE)), true);
    LevelVerdicts.Cause cause = new LevelVerdicts.Cause(RA, FRACTURED);
    assertThat(v.levels()).containsExactly(
        new LevelVerdicts.LevelVerdict(Level.READ_COMMITTED, Verdict.CONSISTENT, null, null),
        new LevelVerdicts.LevelVerdict(Level.READ_ATOMIC, Verdict.VIOLATED, null, null),
        new LevelVerdicts.LevelVerdict(Level.SNAPSHOT_ISOLATION, Verdict.VIOLATED, cause, null),
        new LevelVerdicts.LevelVerdict(Level.SERIALIZABLE, Verdict.VIOLATED, cause, null));
    assertThat(v.strongestSatisfied()).isEqualTo(Level.READ_COMMITTED);
    assertThat(v.weakestBroken()).isEqualTo(Level.READ_ATOMIC);
  }

  @Test
  void theWeakestLevelBrokenIsCitedWhenSeveralViolationsBreakALevel() {
    LevelVerdicts v = LevelVerdicts.of(List.of(RA, SER), List.of(
        violated(Level.READ_ATOMIC, FRACTURED, THIN_AIR), ok(Level.SERIALIZABLE)), true);
    assertThat(v.of(Level.SERIALIZABLE).cause()).isEqualTo(new LevelVerdicts.Cause(RA, THIN_AIR));
  }

  /** A violation found by a check of a stronger level counts against a weaker level it breaks. */
  @Test
  void aViolationFoundAtAStrongerLevelBreaksTheWeakerLevelsItNames() {
    LevelVerdicts v = LevelVerdicts.of(List.of(RA, SER),
        List.of(ok(Level.READ_ATOMIC), violated(Level.SERIALIZABLE, THIN_AIR)), true);
    assertThat(v.of(Level.READ_ATOMIC)).isEqualTo(new LevelVerdicts.LevelVerdict(Level.READ_ATOMIC,
        Verdict.VIOLATED, new LevelVerdicts.Cause(SER, THIN_AIR), null));
  }

  @Test
  void aConsistentStrongerLevelDecidesAnUnknownWeakerOne() {
    LevelVerdicts v = LevelVerdicts.of(List.of(SI, SER),
        List.of(unknown(Level.SNAPSHOT_ISOLATION), ok(Level.SERIALIZABLE)), true);
    assertThat(v.of(Level.SNAPSHOT_ISOLATION)).isEqualTo(new LevelVerdicts.LevelVerdict(
        Level.SNAPSHOT_ISOLATION, Verdict.CONSISTENT, null, "because serializable is, which implies it"));
    assertThat(v.strongestSatisfied()).isEqualTo(Level.SERIALIZABLE);
  }

  /** Adya's plain levels (no session order) do not contain read atomic, which is defined with it. */
  @Test
  void withoutSessionOrderAnAxiomaticViolationDoesNotBreakAnAdyaOnlyLevel() {
    List<LevelPlan.Check> checks = List.of(RA, SER);
    List<CheckResult> results = List.of(violated(Level.READ_ATOMIC, FRACTURED), ok(Level.SERIALIZABLE));
    assertThat(LevelVerdicts.of(checks, results, false).of(Level.SERIALIZABLE).verdict()).isEqualTo(Verdict.CONSISTENT);
    assertThat(LevelVerdicts.of(checks, results, true).of(Level.SERIALIZABLE).verdict()).isEqualTo(Verdict.VIOLATED);
  }

  /** The level's primary line carries the level's verdict; PL-2's line is detail: its own verdict. */
  @Test
  void theTwoReadingsOfReadCommittedShareTheLevelButKeepTheirOwnLines() {
    Violation g1a = new Violation(Anomaly.ABORTED_READ, Level.READ_COMMITTED,
        new Witness(List.of(2, 1), List.of(3, 1), List.of()));
    LevelVerdicts pl2Only = LevelVerdicts.of(List.of(RC, PL2),
        List.of(ok(Level.READ_COMMITTED), violated(Level.READ_COMMITTED, g1a)), true);
    assertThat(pl2Only.of(Level.READ_COMMITTED).verdict()).isEqualTo(Verdict.VIOLATED);
    assertThat(pl2Only.lines()).extracting(LevelVerdicts.Line::verdict, LevelVerdicts.Line::cause).containsExactly(
        tuple(Verdict.VIOLATED, new LevelVerdicts.Cause(PL2, g1a)),
        tuple(Verdict.VIOLATED, null));
    LevelVerdicts axiomaticOnly = LevelVerdicts.of(List.of(RC, PL2),
        List.of(violated(Level.READ_COMMITTED, THIN_AIR), ok(Level.READ_COMMITTED)), true);
    assertThat(axiomaticOnly.lines()).extracting(LevelVerdicts.Line::verdict)
        .containsExactly(Verdict.VIOLATED, Verdict.CONSISTENT);
  }

  /** Checks of weaker levels not asked count against the levels asked and get no line. */
  @Test
  void supportingChecksOfWeakerLevelsCountButAreNotReported() {
    assertThat(LevelVerdicts.supporting(List.of(Level.SERIALIZABLE), false)).containsExactly(
        new LevelPlan.Check(LevelPlan.Model.ADYA, Level.READ_UNCOMMITTED), RC, RA, CC, SI,
        new LevelPlan.Check(LevelPlan.Model.POLYGRAPH, Level.SNAPSHOT_ISOLATION));
    assertThat(LevelVerdicts.supporting(List.of(Level.READ_COMMITTED, Level.CAUSAL), true))
        .containsExactly(new LevelPlan.Check(LevelPlan.Model.ADYA, Level.READ_UNCOMMITTED), RA);
    LevelVerdicts v = LevelVerdicts.of(List.of(SER), List.of(unknown(Level.SERIALIZABLE)),
        List.of(RA), List.of(violated(Level.READ_ATOMIC, FRACTURED)), true);
    assertThat(v.levels()).containsExactly(new LevelVerdicts.LevelVerdict(Level.SERIALIZABLE, Verdict.VIOLATED,
        new LevelVerdicts.Cause(RA, FRACTURED), null));
    assertThat(v.lines()).extracting(LevelVerdicts.Line::check).containsExactly(SER);
  }

  private static CheckResult ok(Level level) {
    return CheckResult.of(level, List.of());
  }

  private static CheckResult unknown(Level level) {
    return new CheckResult(level, Verdict.UNKNOWN, List.of(), "no order");
  }

  private static CheckResult violated(Level level, Violation... vs) {
    return CheckResult.of(level, List.of(vs));
  }
}
