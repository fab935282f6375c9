package io.isowatch.checker.polygraph;

import io.isowatch.checker.Checker;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import java.util.Arrays;
import java.util.List;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/**
 * Snapshot isolation and serializability of register histories through a polygraph: build it
 * ({@link Polygraph}; Cobra, OSDI 2020, §3; PolySI, VLDB 2023, §3), prune it ({@link Pruning};
 * PolySI §4.3), search what is left ({@link ChoiceSolver}, CDCL with acyclicity as the theory, in the
 * place of MonoSAT), and check the commit order found against the level's definition ({@link
 * CommitOrders}) before it is reported. Deciding either level is NP-complete (Papadimitriou, JACM 1979;
 * Biswas &amp; Enea, OOPSLA 2019, §5); the budget bounds the search deterministically, and running out
 * of it is {@link Verdict#UNKNOWN} with the numbers.
 *
 * <p>What it assumes: the reads that need no version order are checked by the weaker levels'
 * checkers (thin-air, aborted, intermediate and internal reads); such a read adds no edge here (see
 * {@link Polygraph}), so it cannot make this check report a cycle that is not there. A transaction
 * of unknown outcome counts as committed only once a counted one read from it ({@link
 * Polygraph#committed}); otherwise it is left out, since it may have aborted. List-append histories
 * are decided by Adya's phenomena
 * instead ({@link io.isowatch.checker.adya.AdyaChecker}): the version order of a list key is read
 * from its reads and needs no search.
 */
public final class PolygraphChecker implements Checker {
  /** Default budget: conflicts of the search. */
  public static final long DEFAULT_MAX_CONFLICTS = 200_000;
  /**
   * Default budget: edges in the constraints. Whatever this says, the constraints are not made when
   * the search would need more than the JVM's heap (three times {@link #bytes}); either way the
   * answer is {@link Verdict#UNKNOWN} with the size, before any is made.
   */
  public static final long DEFAULT_MAX_CONSTRAINT_EDGES = 50_000_000;
  private static final long BYTES_PER_EDGE = 37;
  private static final long BYTES_PER_PAIR = 64;
  /**
   * The heap a search needs per byte of its constraints ({@link #bytes}): pruning's rejected cycles
   * and the graph of adopted edges come on top. Measured on the 10^5-transaction register history
   * of docs/PERFORMANCE.md ("the polygraph's memory"): constraints of about 2,098 MiB ran out of a
   * 4,551 MiB heap (2.2 times) after 154 s and were searched to the end in a 5,461 MiB heap (2.6 times).
   */
  private static final long HEAP_PER_CONSTRAINT_BYTE = 3;

  private final Level level;
  private final boolean sessionOrder;
  private final long maxConflicts;
  private final long maxConstraintEdges;
  private final boolean prune;

  /**
   * @param level {@link Level#SNAPSHOT_ISOLATION} or {@link Level#SERIALIZABLE}
   * @param sessionOrder whether a session's transactions must commit in its order (strong session
   *     SI and strong session serializability; {@code false} for the plain variants)
   * @param maxConflicts the search's budget, in conflicts
   * @param maxConstraintEdges the polygraph's budget, in edges of its constraints
   * @throws IllegalArgumentException for any other level
   */
  public PolygraphChecker(Level level, boolean sessionOrder, long maxConflicts, long maxConstraintEdges) {
    if (level != Level.SNAPSHOT_ISOLATION && level != Level.SERIALIZABLE) {
      throw new IllegalArgumentException("the polygraph decides snapshot-isolation and serializable, not " + level);
    }
    this.level = level;
    this.sessionOrder = sessionOrder;
    this.maxConflicts = maxConflicts;
    this.maxConstraintEdges = maxConstraintEdges;
    this.prune = true;
  }

  /** The same checker, with pruning off or on: without it, the search decides every constraint. */
  PolygraphChecker pruning(boolean on) {
    return new PolygraphChecker(this, on);
  }

  private PolygraphChecker(PolygraphChecker c, boolean prune) {
    this.level = c.level;
    this.sessionOrder = c.sessionOrder;
    this.maxConflicts = c.maxConflicts;
    this.maxConstraintEdges = c.maxConstraintEdges;
    this.prune = prune;
  }

  /** A checker with session order and the default budgets. */
  public PolygraphChecker(Level level) {
    this(level, true, DEFAULT_MAX_CONFLICTS, DEFAULT_MAX_CONSTRAINT_EDGES);
  }

  @Override
  public Level level() {
    return level;
  }

  /**
   * Decides the level ({@link #solve}) and words the answer as every checker does: consistent, with
   * the commit order found ({@link CheckResult#commitOrder()});
   * violated with one violation whose witness is a cycle, or cases ({@link
   * io.isowatch.checker.witness.Witness#cases()}) covering every order of the pairs involved; or
   * unknown with the reason.
   */
  @Override
  public CheckResult check(History h) {
    PolygraphAnswer a = solve(h);
    return switch (a.verdict()) {
      case CONSISTENT -> new CheckResult(level, Verdict.CONSISTENT, List.of(), null,
          Arrays.stream(a.commitOrder()).boxed().toList());
      case UNKNOWN -> new CheckResult(level, Verdict.UNKNOWN, List.of(), a.reason());
      default -> new CheckResult(level, Verdict.VIOLATED, List.of(ProofWitness.of(h, a.proof(), level)));
    };
  }

  /**
   * Decides the level on a register history.
   *
   * @param h the history; not modified
   * @return the answer: consistent with a commit order, violated with the cycles that show it, or
   *     unknown with the reason
   */
  public PolygraphAnswer solve(History h) {
    for (int op = 0; op < h.opCount(); op++) {
      byte kind = h.opKind(op);
      if (kind == OpKind.APPEND || kind == OpKind.READ_LIST) {
        return PolygraphAnswer.unknown(level, "a list-append history: its version order is read from its"
            + " reads (Adya's phenomena decide it), not searched", Stats.NONE);
      }
    }
    long[] size = new long[2];
    long heap = Runtime.getRuntime().maxMemory();
    Polygraph g = Polygraph.of(h, sessionOrder, (edges, pairs) -> {
      size[0] = edges;
      size[1] = pairs;
      return edges <= maxConstraintEdges && HEAP_PER_CONSTRAINT_BYTE * bytes(edges, pairs) <= heap;
    });
    if (g == null) {
      long needed = HEAP_PER_CONSTRAINT_BYTE * bytes(size[0], size[1]);
      return PolygraphAnswer.unknown(level, size[0] > maxConstraintEdges
          ? "the polygraph's constraints would hold " + size[0] + " edges, more than its budget of "
              + maxConstraintEdges
          : "the polygraph's constraints would hold " + size[0] + " edges, about " + (bytes(size[0], size[1]) >> 20)
              + " MiB, and its search about " + HEAP_PER_CONSTRAINT_BYTE + " times that, more than the JVM's heap ("
              + (heap >> 20) + " MiB): give the JVM more, e.g. ISOWATCH_JAVA_OPTS=-Xmx"
              + ((needed + needed / 10 + (1L << 30) - 1) >> 30) + "g, or check a shorter history", Stats.NONE);
    }
    Lifting lifting = level == Level.SERIALIZABLE ? Lifting.SERIALIZABLE : Lifting.SNAPSHOT_ISOLATION;
    Decision d = Decision.run(g, lifting, null, prune, maxConflicts);
    int pruned = d.pruning == null ? 0 : d.pruning.adopted().size();
    Stats stats = new Stats(g.nodes(), g.knownEdges(), g.constraints(), pruned, d.searched,
        d.pruning == null ? 0 : d.pruning.rounds(), d.solver == null ? 0 : d.solver.conflicts());
    switch (d.outcome) {
      case KNOWN_CYCLE:
        return PolygraphAnswer.violated(level, Proof.knownCycle(g, d.knownCycle), stats);
      case BUDGET:
        return PolygraphAnswer.unknown(level, "the search ran out of its budget of " + maxConflicts
            + (maxConflicts == 1 ? " conflict" : " conflicts") + " with " + d.searched + " of " + g.constraints()
            + " constraints left after pruning (--solver-budget)", stats);
      case CONTRADICTION:
      case UNSATISFIABLE:
        int[] core = CoreMinimizer.core(g, lifting, d, maxConflicts);
        return PolygraphAnswer.violated(level, Proof.onCore(g, lifting, core, maxConflicts), stats);
      default:
        int[] order = CommitOrders.of(g, d.lowerFirst(g), lifting);
        String wrong = CommitOrders.verify(h, order, level, sessionOrder);
        if (wrong != null) {
          throw new IllegalStateException("the commit order the search found fails the definition of "
              + level.cliName() + ": " + wrong);
        }
        return PolygraphAnswer.consistent(level, order, stats);
    }
  }

  /**
   * What a polygraph of this size takes on the heap, about, while it is searched: per constraint
   * edge its columns and its place in an alternative (37 bytes), per pair of writers the pair, its
   * entry in the table that coalesces pairs, its alternatives' bounds and the search's per-constraint
   * arrays (64 bytes, an upper bound as pairs coalesce). Measured: docs/PERFORMANCE.md, "the
   * polygraph's memory".
   *
   * @return bytes
   */
  static long bytes(long constraintEdges, long writerPairs) {
    return constraintEdges * BYTES_PER_EDGE + writerPairs * BYTES_PER_PAIR;
  }

  /**
   * Counts of one decision.
   *
   * @param nodes committed transactions
   * @param knownEdges known edges ({@code so}, {@code wr}, {@code rw} from initial reads)
   * @param constraints constraints (pairs of transactions writing a common key)
   * @param pruned constraints decided by pruning
   * @param searched constraints left to the search
   * @param rounds pruning rounds
   * @param conflicts conflicts of the search
   */
  public record Stats(int nodes, int knownEdges, int constraints, int pruned, int searched, int rounds,
      long conflicts) {
    /** Nothing built. */
    public static final Stats NONE = new Stats(0, 0, 0, 0, 0, 0, 0);
  }
}
