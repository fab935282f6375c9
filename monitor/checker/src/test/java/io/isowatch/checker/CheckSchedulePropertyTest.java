package io.isowatch.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.reference.HistoryText;
import io.isowatch.checker.reference.PermissiveListHistories;
import io.isowatch.checker.reference.SmallRegisterHistories;
import io.isowatch.checker.witness.CheckResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link CheckSchedule} gives, check by check, the result of running each check alone, on {@code
 * isowatch.property.tries} register histories and as many list-append histories (2,000 by default,
 * fixed seeds): in particular an axiomatic check it does not run because a stronger one found the
 * history consistent ({@link LevelPlan#implies}) would have found it consistent, with no violation.
 * The histories are the ones {@code VerdictVectorPropertyTest} compares with the definitions.
 */
class CheckSchedulePropertyTest {
  private static final int TRIES = Integer.getInteger("isowatch.property.tries", 2000);

  @Test
  void registerHistoriesGetTheResultsOfEachCheckAlone() {
    Map<String, Integer> implied = new TreeMap<>();
    for (long seed = 0; seed < TRIES; seed++) {
      compare(SmallRegisterHistories.generate(seed), "register seed " + seed, implied);
    }
    System.out.println("implied checks, " + TRIES + " register histories: " + implied);
    assertThat(implied).containsKeys("read-uncommitted", "read-committed", "read-atomic");
  }

  @Test
  void listAppendHistoriesGetTheResultsOfEachCheckAlone() {
    Map<String, Integer> implied = new TreeMap<>();
    for (long seed = 0; seed < TRIES; seed++) {
      compare(PermissiveListHistories.generate(seed), "list seed " + seed, implied);
    }
    System.out.println("implied checks, " + TRIES + " list-append histories: " + implied);
    assertThat(implied).containsKeys("read-committed", "read-atomic");
  }

  @Test
  void aViolatedStrongerCheckImpliesNothing() {
    LevelPlan.Check rc = new LevelPlan.Check(LevelPlan.Model.AXIOMATIC, Level.READ_COMMITTED);
    LevelPlan.Check ra = new LevelPlan.Check(LevelPlan.Model.AXIOMATIC, Level.READ_ATOMIC);
    LevelPlan.Check cc = new LevelPlan.Check(LevelPlan.Model.AXIOMATIC, Level.CAUSAL);
    LevelPlan.Check pl2 = new LevelPlan.Check(LevelPlan.Model.ADYA, Level.READ_COMMITTED);
    LevelPlan.Check pl1 = new LevelPlan.Check(LevelPlan.Model.ADYA, Level.READ_UNCOMMITTED);
    for (boolean listAppend : new boolean[] {false, true}) {
      assertThat(LevelPlan.implies(cc, rc, listAppend)).isTrue();
      assertThat(LevelPlan.implies(cc, ra, listAppend)).isTrue();
      assertThat(LevelPlan.implies(ra, rc, listAppend)).isTrue();
      assertThat(LevelPlan.implies(rc, ra, listAppend)).isFalse();
      assertThat(LevelPlan.implies(rc, rc, listAppend)).isFalse();
      assertThat(LevelPlan.implies(cc, pl2, listAppend)).isFalse();
      assertThat(LevelPlan.implies(pl1, rc, listAppend)).isFalse();
    }
    assertThat(LevelPlan.implies(rc, pl1, false)).isTrue();
    assertThat(LevelPlan.implies(rc, pl1, true)).isFalse();
  }

  /**
   * A check that runs out of heap, here the polygraph's on the second lane beside an axiomatic one,
   * is named in the error that comes out of the schedule, which carries the heap's own error.
   */
  @Test
  void aCheckThatRunsOutOfHeapIsNamed() {
    History h = SmallRegisterHistories.generate(1);
    LevelPlan.Check rc = new LevelPlan.Check(LevelPlan.Model.AXIOMATIC, Level.READ_COMMITTED);
    LevelPlan.Check si = new LevelPlan.Check(LevelPlan.Model.POLYGRAPH, Level.SNAPSHOT_ISOLATION);
    OutOfMemoryError heap = new OutOfMemoryError("Java heap space");
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> CheckSchedule.run(h, List.of(rc, si),
        c -> c == si ? new Checker() {
          @Override
          public Level level() {
            return si.level();
          }

          @Override
          public CheckResult check(History history) {
            throw heap;
          }
        } : c.batch(true), o -> { }));
    assertThat(thrown).isInstanceOf(CheckSchedule.CheckOutOfMemoryError.class)
        .hasMessage("out of memory in the snapshot-isolation (polygraph) check")
        .hasCause(heap);
    assertThat(((CheckSchedule.CheckOutOfMemoryError) thrown).check()).isEqualTo(si);
  }

  private static void compare(History h, String name, Map<String, Integer> implied) {
    List<LevelPlan.Check> checks = LevelPlan.checks(List.of(Level.values()), LevelPlan.hasListAppend(h));
    List<CheckSchedule.Outcome> outcomes = CheckSchedule.run(h, checks, c -> c.batch(true), o -> { });
    assertThat(outcomes).hasSize(checks.size());
    for (int i = 0; i < checks.size(); i++) {
      LevelPlan.Check c = checks.get(i);
      CheckSchedule.Outcome o = outcomes.get(i);
      CheckResult alone = c.batch(true).check(h);
      String text = name + ", " + c.label() + ":\n" + HistoryText.of(h);
      assertThat(o.check()).isEqualTo(c);
      assertThat(o.result().verdict()).as(text).isEqualTo(alone.verdict());
      assertThat(o.result().violations()).as(text).isEqualTo(alone.violations());
      assertThat(o.result().reason()).as(text).isEqualTo(alone.reason());
      if (o.impliedBy() != null) {
        assertThat(LevelPlan.implies(o.impliedBy(), c, LevelPlan.hasListAppend(h))).as(text).isTrue();
        assertThat(alone.verdict()).as(text).isEqualTo(Verdict.CONSISTENT);
        implied.merge(c.level().cliName(), 1, Integer::sum);
      }
    }
  }
}
