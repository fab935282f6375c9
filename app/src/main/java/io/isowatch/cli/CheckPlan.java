package io.isowatch.cli;

import io.isowatch.checker.Checker;
import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Which checkers {@code isowatch check} runs for the requested levels, and the ladder read off
 * their verdicts. The level-to-check choice is {@link LevelPlan}'s, shared with the streaming
 * monitor.
 *
 * <p>Two vocabularies are kept apart (docs/levels.md): read committed, read atomic and causal
 * consistency are checked axiomatically (AWDIT) on any history; read uncommitted, snapshot
 * isolation and serializable by Adya's phenomena. On a list-append history read committed is also
 * checked as Adya's PL-2, reported on its own line, since the two readings can differ.
 */
final class CheckPlan {
  /** The checks for a list-append history with every level: the whole ladder. */
  static final List<Level> LADDER = List.of(Level.values());

  /**
   * One checker and the vocabulary it speaks.
   *
   * @param model {@code axiomatic} (Biswas &amp; Enea; AWDIT) or {@code adya} (Adya 1999; Elle)
   * @param checker the checker
   */
  record Check(String model, Checker checker) {
    /** @return how the level is named in reports: the level, qualified when it is Adya's PL-2 */
    String label() {
      Level l = checker.level();
      return l == Level.READ_COMMITTED && model.equals(ADYA) ? l.cliName() + " (Adya PL-2)" : l.cliName();
    }
  }

  static final String AXIOMATIC = LevelPlan.Model.AXIOMATIC.id();
  static final String ADYA = LevelPlan.Model.ADYA.id();

  private CheckPlan() {}

  /**
   * @param levels the requested levels, in order
   * @param sessionOrder whether Adya's graph includes session order
   * @param history the loaded history (list-append ops add the PL-2 check of read committed)
   * @return the checks to run, in order
   */
  static List<Check> checks(List<Level> levels, boolean sessionOrder, History history) {
    List<Check> out = new ArrayList<>();
    for (LevelPlan.Check c : LevelPlan.checks(levels, LevelPlan.hasListAppend(history))) {
      out.add(new Check(c.model().id(), c.batch(sessionOrder)));
    }
    return out;
  }

  /**
   * The ladder RU ⊂ RC ⊂ RA ⊂ CC ⊂ SI ⊂ SER read off the outcomes: a level is satisfied when every
   * check of it is consistent, broken when one is violated.
   *
   * @param strongestSatisfied the strongest level such that it and every weaker level checked are
   *     satisfied, or null if the weakest checked is not
   * @param weakestBroken the weakest level broken, or null if none
   */
  record LadderPosition(Level strongestSatisfied, Level weakestBroken) {
    static LadderPosition of(List<CheckReport.LevelOutcome> outcomes) {
      Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
      for (CheckReport.LevelOutcome o : outcomes) {
        Verdict v = o.result().verdict();
        verdicts.merge(o.result().level(), v, LadderPosition::worse);
      }
      Level satisfied = null;
      boolean stillSatisfied = true;
      Level broken = null;
      for (Map.Entry<Level, Verdict> e : verdicts.entrySet()) {
        if (stillSatisfied && e.getValue() == Verdict.CONSISTENT) {
          satisfied = e.getKey();
        } else {
          stillSatisfied = false;
        }
        if (broken == null && e.getValue() == Verdict.VIOLATED) {
          broken = e.getKey();
        }
      }
      return new LadderPosition(satisfied, broken);
    }

    private static Verdict worse(Verdict a, Verdict b) {
      if (a == Verdict.VIOLATED || b == Verdict.VIOLATED) {
        return Verdict.VIOLATED;
      }
      return a == Verdict.UNKNOWN || b == Verdict.UNKNOWN ? Verdict.UNKNOWN : Verdict.CONSISTENT;
    }

    /** @return e.g. {@code ladder: strongest level satisfied: causal; weakest level broken: snapshot-isolation} */
    String line() {
      return "ladder: strongest level satisfied: " + (strongestSatisfied == null ? "none" : strongestSatisfied.cliName())
          + "; weakest level broken: " + (weakestBroken == null ? "none" : weakestBroken.cliName());
    }
  }
}
