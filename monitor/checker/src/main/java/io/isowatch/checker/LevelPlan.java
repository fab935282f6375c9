package io.isowatch.checker;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.polygraph.PolygraphChecker;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Which checks decide which levels: the one table, read by {@code isowatch check} (which checks it
 * runs and how its report names them), by the batch checkers (which levels each accepts), by the
 * streaming monitor's window checker (which incremental checkers it keeps) and by {@code
 * docs/levels.md}.
 *
 * <table>
 *   <caption>The table ({@link #checks})</caption>
 *   <tr><th>level</th><th>decided by</th><th>on</th></tr>
 *   <tr><td>read uncommitted</td><td>Adya PL-1</td><td>every history</td></tr>
 *   <tr><td>read committed</td><td>axiomatic; Adya PL-2</td><td>every history; list-append only</td></tr>
 *   <tr><td>read atomic</td><td>axiomatic</td><td>every history</td></tr>
 *   <tr><td>causal</td><td>axiomatic</td><td>every history</td></tr>
 *   <tr><td>snapshot isolation</td><td>Adya PL-SI; polygraph</td><td>every history; register only</td></tr>
 *   <tr><td>serializable</td><td>Adya PL-3; polygraph</td><td>every history; register only</td></tr>
 * </table>
 *
 * <p>Two vocabularies share the ladder ({@code docs/levels.md}): read committed, read atomic and
 * causal consistency are checked axiomatically (Biswas &amp; Enea, OOPSLA 2019; AWDIT, PLDI 2025) on
 * any history; read uncommitted, snapshot isolation and serializable by Adya's phenomena (Adya, MIT
 * 1999, §4; Elle, VLDB 2020). On a list-append history read committed is also checked as Adya's
 * PL-2, since the two readings can differ. On a register-only history, whose reads reveal only part
 * of the version order, snapshot isolation and serializable are also decided by the polygraph
 * solver ({@link io.isowatch.checker.polygraph.PolygraphChecker}: PolySI, VLDB 2023; Cobra, OSDI
 * 2020), which searches the orders the reads leave open. The first check of a level is its
 * <i>primary</i> one, whose
 * report line carries the level's verdict ({@link LevelVerdicts}). The window checker keeps one
 * incremental checker per axiomatic row and, once list-append operations appear, one Adya checker at
 * serializable whose violations each name the weakest level they break, which covers every Adya row;
 * on register-only histories it runs no Adya check but the polygraph rows, on each generation at chosen points ({@link
 * io.isowatch.checker.window.WindowChecker}).
 */
public final class LevelPlan {
  /** The vocabulary a check speaks. */
  public enum Model {
    /** Saturation-based axiomatic check (AWDIT). */
    AXIOMATIC("axiomatic"),
    /** Adya's phenomena on the dependency graph. */
    ADYA("adya"),
    /** A search over the version orders of register keys (the polygraph solver). */
    POLYGRAPH("polygraph");

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
      return batch(sessionOrder, PolygraphChecker.DEFAULT_MAX_CONFLICTS);
    }

    /**
     * @param sessionOrder for Adya and polygraph checks, whether session order is required
     * @param solverBudget for polygraph checks, the search's budget in conflicts
     * @return a new batch checker for this check
     */
    public Checker batch(boolean sessionOrder, long solverBudget) {
      return switch (model) {
        case AXIOMATIC -> Checkers.axiomatic(level);
        case ADYA -> Checkers.adya(level, sessionOrder);
        case POLYGRAPH -> Checkers.polygraph(level, sessionOrder, solverBudget);
      };
    }

    /**
     * @return how reports name the check: the level, e.g. {@code causal}, qualified when it is not
     *     the level's primary check ({@code read-committed (Adya PL-2)})
     */
    public String label() {
      if (primary(this)) {
        return level.cliName();
      }
      return level.cliName() + (model == Model.POLYGRAPH ? " (polygraph)" : " (Adya PL-2)");
    }
  }

  /** Which histories a row's check runs on. */
  private enum Runs {
    /** Every history. */
    EVERY,
    /** Histories with list-append operations. */
    LIST_APPEND,
    /** Histories with no list-append operation. */
    REGISTER
  }

  /**
   * One row of the table.
   *
   * @param check the check
   * @param runs which histories it runs on
   */
  private record Row(Check check, Runs runs) {
    boolean runsOn(boolean listAppend) {
      return runs == Runs.EVERY || (runs == Runs.LIST_APPEND) == listAppend;
    }
  }

  /** The table, weakest level first; within a level the primary check first. */
  private static final List<Row> TABLE = List.of(
      // Adya 1999, §4.1: PL-1 forbids G0; on list-append the graph comes from the reads (Elle §4).
      new Row(new Check(Model.ADYA, Level.READ_UNCOMMITTED), Runs.EVERY),
      // Biswas & Enea 2019, §3 (the read committed axiom), decided by AWDIT's saturation (§4).
      new Row(new Check(Model.AXIOMATIC, Level.READ_COMMITTED), Runs.EVERY),
      // Adya 1999, §4.2: PL-2 (G1a, G1b, G1c); only list reads reveal the ww edges it needs.
      new Row(new Check(Model.ADYA, Level.READ_COMMITTED), Runs.LIST_APPEND),
      // Biswas & Enea 2019, §3 (read atomic); AWDIT §5.
      new Row(new Check(Model.AXIOMATIC, Level.READ_ATOMIC), Runs.EVERY),
      // Biswas & Enea 2019, §3 (causal consistency); AWDIT §6.
      new Row(new Check(Model.AXIOMATIC, Level.CAUSAL), Runs.EVERY),
      // Adya 1999, §4.3 (PL-SI); Cerone & Gotsman, PODC 2016 (G-nonadjacent). UNKNOWN on registers
      // whose version order the reads do not reveal.
      new Row(new Check(Model.ADYA, Level.SNAPSHOT_ISOLATION), Runs.EVERY),
      // PolySI (Huang et al., VLDB 2023, §3-4): some version order makes (so ∪ wr ∪ ww) ; rw? acyclic
      // (Cerone & Gotsman, PODC 2016, Theorem 9); decided where Adya's leaves it unknown.
      new Row(new Check(Model.POLYGRAPH, Level.SNAPSHOT_ISOLATION), Runs.REGISTER),
      // Adya 1999, §4.4 (PL-3).
      new Row(new Check(Model.ADYA, Level.SERIALIZABLE), Runs.EVERY),
      // Cobra (Tan et al., OSDI 2020, §3): some version order makes so ∪ wr ∪ ww ∪ rw acyclic.
      new Row(new Check(Model.POLYGRAPH, Level.SERIALIZABLE), Runs.REGISTER));

  private LevelPlan() {}

  /**
   * @param levels the requested levels, in order
   * @param listAppend whether the history has list-append operations (adds the PL-2 check of read
   *     committed; without, the polygraph checks of snapshot isolation and serializable)
   * @return the checks to run, in order: each level's rows of the table, its primary check first
   */
  public static List<Check> checks(List<Level> levels, boolean listAppend) {
    List<Check> out = new ArrayList<>();
    for (Level level : levels) {
      for (Row row : TABLE) {
        if (row.check().level() == level && row.runsOn(listAppend)) {
          out.add(row.check());
        }
      }
    }
    return out;
  }

  /**
   * Whether a history that {@code stronger} finds consistent is consistent at {@code weaker} too,
   * so that {@code weaker} need not run ({@link CheckSchedule}). Two cases:
   *
   * <ul>
   *   <li>both axiomatic, {@code weaker} of a weaker level: read committed, read atomic and causal
   *       consistency share the basic axioms, and each one's commit order axiom has a premise
   *       contained in the next stronger one's (Biswas &amp; Enea, OOPSLA 2019, §3), so a commit
   *       order satisfying the stronger satisfies the weaker;
   *   <li>{@code stronger} axiomatic, {@code weaker} Adya's read uncommitted (PL-1), on a history
   *       without list-append operations: PL-1 forbids G0, a cycle of {@code ww} (and {@code so})
   *       edges (Adya, MIT 1999, §4.1), and on register keys the only {@code ww} edges drawn are
   *       the initial value before every version and writes-follow-reads ({@code
   *       adya.RegisterVersions}; Elle, VLDB 2020, §5), each of which runs along a {@code wr} edge
   *       or from the initial state. Every axiomatic level's commit order contains {@code so} and
   *       {@code wr} (Biswas &amp; Enea §3), so a history it finds consistent has a total order
   *       containing every edge PL-1's graph holds: no G0. On list keys the version order comes
   *       from the reads' element order, which the axiomatic check reads differently, so no
   *       implication is claimed there.
   * </ul>
   *
   * {@code CheckSchedulePropertyTest} runs every check both ways on register and list-append
   * histories and finds the same results.
   *
   * @param listAppend whether the history has list-append operations ({@link #hasListAppend})
   * @return whether {@code stronger}'s consistency implies {@code weaker}'s
   */
  public static boolean implies(Check stronger, Check weaker, boolean listAppend) {
    if (stronger.model() != Model.AXIOMATIC) {
      return false;
    }
    if (weaker.model() == Model.AXIOMATIC) {
      return weaker.level().compareTo(stronger.level()) < 0;
    }
    return weaker.model() == Model.ADYA && weaker.level() == Level.READ_UNCOMMITTED && !listAppend;
  }

  /** @return whether {@code check} is the first row of its level, the one that names the level */
  public static boolean primary(Check check) {
    for (Row row : TABLE) {
      if (row.check().level() == check.level()) {
        return row.check().equals(check);
      }
    }
    return false;
  }

  /** @return the levels {@code model} has a row for */
  public static Set<Level> decidedBy(Model model) {
    Set<Level> out = EnumSet.noneOf(Level.class);
    for (Row row : TABLE) {
      if (row.check().model() == model) {
        out.add(row.check().level());
      }
    }
    return out;
  }

  /**
   * @return {@code level} if {@code model} decides it
   * @throws IllegalArgumentException naming the levels the model decides, if it does not
   */
  public static Level requireDecided(Model model, Level level) {
    Set<Level> decided = decidedBy(model);
    if (!decided.contains(level)) {
      throw new IllegalArgumentException("the " + model.id() + " checks decide "
          + decided.stream().map(Level::cliName).toList() + ", not " + level);
    }
    return level;
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
