package io.isowatch.checker;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * Which checks decide which levels: the one definition shared by {@code isowatch check} and the
 * streaming monitor.
 *
 * <p>Two vocabularies are kept apart ({@code docs/levels.md}): read committed, read atomic and
 * causal consistency are checked axiomatically (Biswas &amp; Enea, OOPSLA 2019; AWDIT, PLDI 2025) on
 * any history; read uncommitted, snapshot isolation and serializable by Adya's phenomena (Adya, MIT
 * 1999, §4; Elle, VLDB 2020). On a list-append history read committed is also checked as Adya's PL-2,
 * since the two readings can differ.
 */
public final class LevelPlan {
  /** The vocabulary a check speaks. */
  public enum Model {
    /** Saturation-based axiomatic check (AWDIT). */
    AXIOMATIC("axiomatic"),
    /** Adya's phenomena on the dependency graph. */
    ADYA("adya");

    private final String id;

    Model(String id) {
      this.id = id;
    }

    /** @return {@code axiomatic} or {@code adya}, as printed in reports */
    public String id() {
      return id;
    }
  }

  /**
   * One check: a level in one vocabulary.
   *
   * @param model the vocabulary
   * @param level the level decided
   */
  public record Check(Model model, Level level) {
    /**
     * @param sessionOrder for Adya checks, whether {@code so} edges join the graph
     * @return a new batch checker for this check
     */
    public Checker batch(boolean sessionOrder) {
      return model == Model.AXIOMATIC ? Checkers.forLevel(level) : Checkers.adya(level, sessionOrder);
    }
  }

  private LevelPlan() {}

  /**
   * @param levels the requested levels, in order
   * @param listAppend whether the history has list-append operations (adds the PL-2 check of read
   *     committed)
   * @return the checks to run, in order: each axiomatic level once (plus PL-2 after read committed
   *     on list-append histories), each other level as an Adya check
   */
  public static List<Check> checks(List<Level> levels, boolean listAppend) {
    List<Check> out = new ArrayList<>();
    for (Level level : levels) {
      switch (level) {
        case READ_COMMITTED:
        case READ_ATOMIC:
        case CAUSAL:
          out.add(new Check(Model.AXIOMATIC, level));
          if (level == Level.READ_COMMITTED && listAppend) {
            out.add(new Check(Model.ADYA, level));
          }
          break;
        default:
          out.add(new Check(Model.ADYA, level));
      }
    }
    return out;
  }

  /** @return whether the history has an append or a list read */
  public static boolean hasListAppend(History h) {
    for (int op = 0, n = h.opCount(); op < n; op++) {
      if (h.opKind(op) == OpKind.APPEND || h.opKind(op) == OpKind.READ_LIST) {
        return true;
      }
    }
    return false;
  }
}
