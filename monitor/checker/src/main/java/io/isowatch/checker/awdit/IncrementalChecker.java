package io.isowatch.checker.awdit;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.graph.DynamicOrder;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.EdgeType;
import io.isowatch.checker.witness.Violation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Incremental form of {@link AwditChecker} for the streaming monitor: accepts one ended transaction
 * at a time, in any order consistent with session order, and returns the violations that the new
 * transaction completes. Reads whose writer has not arrived yet are held back (with the
 * transactions after them in their session) until it arrives or {@link #finish()} is called.
 * Transactions that wait only for each other (a cycle of {@code so ∪ wr} among accepted
 * transactions, and what waits behind it) are released as soon as the cycle is complete, as {@link
 * #finish()} would release them, so the cycle is reported by the {@link #accept} that closes it;
 * waiting for a writer that has not been accepted is never cut short before {@link #finish()}.
 *
 * <p>Edges come from the same {@link Scheduler} and {@link Saturation} as the batch checker, so
 * both find the same edges; cycles are detected as each edge arrives by keeping a topological order
 * of the graph (Pearce &amp; Kelly, ACM JEA 2006, see {@link DynamicOrder}). An edge that would close
 * a cycle is reported with that cycle as witness and kept out of the graph, so each cycle is
 * reported once and the graph stays acyclic. Verdicts equal the batch checker's; witnesses may
 * differ (the batch checker picks the cheapest cycle of each component).
 */
public final class IncrementalChecker {
  private final History history;
  private final DynamicOrder order = new DynamicOrder();
  private final EdgeTable table = new EdgeTable();
  private final Scheduler scheduler;
  private final List<Violation> pending = new ArrayList<>();
  private final Set<Violation.Identity> reported = new HashSet<>();

  /**
   * @param history the history transactions are appended to; the checker reads it, never writes it
   * @param level {@link Level#READ_COMMITTED}, {@link Level#READ_ATOMIC} or {@link Level#CAUSAL}
   * @throws IllegalArgumentException for any other level
   */
  public IncrementalChecker(History history, Level level) {
    this.history = history;
    scheduler = new Scheduler(history, LevelPlan.requireDecided(LevelPlan.Model.AXIOMATIC, level), this::edge, pending);
  }

  /**
   * Accepts transaction {@code txn}, which must have ended in the history.
   *
   * @return the violations completed by it (and by held-back transactions it released, including
   *     the {@code so ∪ wr} cycles it closed), in the order found; not to be modified
   * @throws IllegalStateException if the transaction is still open
   * @throws IllegalArgumentException if it was accepted before
   */
  public List<Violation> accept(int txn) {
    scheduler.accept(txn);
    scheduler.releaseCycles();
    return drain();
  }

  /**
   * Stops holding reads back: reads whose writer never arrived become thin-air reads, and
   * transactions waiting on a cycle of {@code so ∪ wr} are added, closing it.
   *
   * @return the violations this completes
   */
  public List<Violation> finish() {
    scheduler.finish();
    return drain();
  }

  private List<Violation> drain() {
    if (pending.isEmpty()) {
      return List.of(); // the common case: no list per accepted transaction
    }
    List<Violation> out = new ArrayList<>(pending);
    pending.clear();
    return out;
  }

  private void edge(int from, int to, EdgeType type, Because because, int key, long value, int via) {
    if (!table.addOnce(order.edgeCount(), from, to, type, because, key, value, via)) {
      return;
    }
    int[] cycle = order.addEdge(from, to);
    if (cycle == null) {
      return;
    }
    Violation v = CommitOrderCycles.violation(history, order::from, order::to, table, cycle);
    if (reported.add(v.identity())) {
      pending.add(v);
    }
  }
}
