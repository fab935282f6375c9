package io.isowatch.checker;

import io.isowatch.checker.adya.AdyaChecker;
import io.isowatch.checker.awdit.CcChecker;
import io.isowatch.checker.awdit.RaChecker;
import io.isowatch.checker.awdit.RcChecker;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.polygraph.PolygraphChecker;
import java.util.List;

/**
 * The facade: the checker that decides a level, as {@link LevelPlan}'s table says. Read committed,
 * read atomic and causal consistency are the axiomatic levels (Biswas &amp; Enea, OOPSLA 2019),
 * decided by AWDIT's saturation on any history; read uncommitted, snapshot isolation and
 * serializable are Adya's PL-1, PL-SI and PL-3 (Adya, MIT 1999), decided on the dependency graph
 * that list-append reads reveal (Elle). Adya's PL-2 reading of read committed is {@link
 * #adya(Level, boolean)} with {@link Level#READ_COMMITTED}; {@code docs/levels.md} says where the two
 * readings differ. On register histories snapshot isolation and serializable are also decided by
 * {@link #polygraph}.
 */
public final class Checkers {
  private Checkers() {}

  /**
   * @param level the level to decide
   * @return a new checker for the level's primary check ({@link LevelPlan#primary}), with session
   *     order in the graph
   */
  public static Checker forLevel(Level level) {
    return LevelPlan.checks(List.of(level), false).get(0).batch(true);
  }

  /**
   * @param level read committed, read atomic or causal
   * @return AWDIT's checker for the level
   * @throws IllegalArgumentException for a level the axiomatic checks do not decide
   */
  public static Checker axiomatic(Level level) {
    switch (LevelPlan.requireDecided(LevelPlan.Model.AXIOMATIC, level)) {
      case READ_COMMITTED:
        return new RcChecker();
      case READ_ATOMIC:
        return new RaChecker();
      default:
        return new CcChecker();
    }
  }

  /**
   * @param level read uncommitted, read committed (PL-2), snapshot isolation or serializable
   * @param sessionOrder whether {@code so} edges join the graph (strong-session levels, the
   *     default) or not (Adya's plain levels)
   * @return Adya's checker for the level
   * @throws IllegalArgumentException for read atomic and causal, which Adya does not define
   */
  public static Checker adya(Level level, boolean sessionOrder) {
    return new AdyaChecker(level, sessionOrder);
  }

  /**
   * @param level snapshot isolation or serializable
   * @param sessionOrder whether a session's transactions commit in its order (strong session
   *     variants, the default) or not
   * @return the polygraph checker for the level, with the default budget ({@link
   *     PolygraphChecker#DEFAULT_MAX_CONFLICTS} conflicts)
   * @throws IllegalArgumentException for any other level
   */
  public static Checker polygraph(Level level, boolean sessionOrder) {
    return polygraph(level, sessionOrder, PolygraphChecker.DEFAULT_MAX_CONFLICTS);
  }

  /**
   * @param level snapshot isolation or serializable
   * @param sessionOrder whether a session's transactions commit in its order
   * @param maxConflicts the search's budget, in conflicts
   * @return the polygraph checker for the level
   * @throws IllegalArgumentException for any other level
   */
  public static Checker polygraph(Level level, boolean sessionOrder, long maxConflicts) {
    return new PolygraphChecker(LevelPlan.requireDecided(LevelPlan.Model.POLYGRAPH, level), sessionOrder,
        maxConflicts, PolygraphChecker.DEFAULT_MAX_CONSTRAINT_EDGES);
  }
}
