package io.isowatch.checker.awdit;

import io.isowatch.checker.Checker;
import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.graph.Digraph;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * Batch checker for read committed, read atomic or causal consistency by saturation (AWDIT,
 * Møldrup &amp; Pavlogiannis, PLDI 2025): a history satisfies the level iff its reads satisfy the
 * basic axioms and {@code so ∪ wr ∪ co'} is acyclic, where {@code co'} is the saturation of the
 * level's axiom (Biswas &amp; Enea, OOPSLA 2019, Theorem 3 for why saturation decides these levels).
 * Complexity: O(n^1.5) for read committed and read atomic, O(n·k·log n) for causal consistency, n
 * operations, k sessions; see {@link Saturation}. Memory: a few ints per operation and edge, plus k
 * ints per transaction for causal consistency.
 */
public class AwditChecker implements Checker {
  private final Level level;

  /**
   * @param level {@link Level#READ_COMMITTED}, {@link Level#READ_ATOMIC} or {@link Level#CAUSAL}
   * @throws IllegalArgumentException for any other level
   */
  public AwditChecker(Level level) {
    this.level = LevelPlan.requireDecided(LevelPlan.Model.AXIOMATIC, level);
  }

  @Override
  public Level level() {
    return level;
  }

  @Override
  public CheckResult check(History history) {
    Digraph g = new Digraph(history.txnCount() + 1);
    EdgeTable table = new EdgeTable();
    List<Violation> violations = new ArrayList<>();
    Scheduler scheduler = new Scheduler(history, level, (from, to, type, because, key, value, via) -> {
      if (table.addOnce(g.edgeCount(), from, to, type, because, key, value, via)) {
        g.addEdge(from, to);
      }
    }, violations);
    scheduler.observeAll();
    int open = history.openTxn();
    for (int t = 0, n = history.txnCount(); t < n; t++) {
      if (t != open) {
        scheduler.accept(t);
      }
    }
    scheduler.finish();
    violations.addAll(CommitOrderCycles.find(history, g, table));
    return CheckResult.of(level, violations);
  }
}
