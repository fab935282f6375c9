package io.isowatch.checker.witness;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * A violation found in a history.
 *
 * @param anomaly what kind of violation
 * @param weakestLevelBroken the weakest level this evidence alone breaks: for a cycle, the strongest
 *     level any of its edges needs ({@link Because#level()}), at least the level the {@link
 *     io.isowatch.checker.level.ForbiddenAnomalies} gives the anomaly
 * @param witness the evidence
 */
public record Violation(Anomaly anomaly, Level weakestLevelBroken, Witness witness) {
  /**
   * @return what makes two findings the same violation: the anomaly and, for a cycle, its
   *     transactions; for an anomaly without a cycle, its first evidence operation. The incremental
   *     checkers deduplicate by it, and the window's stable ids ({@code ViolationIds}) hash it
   */
  public Identity identity() {
    List<Integer> txns = new ArrayList<>(witness.txns());
    txns.sort(null);
    int op = witness.edges().isEmpty() && !witness.ops().isEmpty() ? witness.ops().get(0) : Identity.NO_OP;
    return new Identity(anomaly, txns, op);
  }

  /**
   * The identity of a violation ({@link #identity()}). Two identities are equal when their anomalies
   * are and, with an evidence operation, their operations are; without one, their transactions are:
   * an anomaly without a cycle is the same violation whatever transactions its witness names (a
   * longer read re-finding it names another writer), while the stable id, which has no history to
   * look operations up in, hashes the transactions as well.
   *
   * @param anomaly the anomaly
   * @param txns the witness's transaction ids in ascending order ({@link Witness#INIT} first when
   *     the initial state is one of them)
   * @param op for an anomaly without a cycle, its first evidence operation id; {@link #NO_OP} for a
   *     cycle
   */
  public record Identity(Anomaly anomaly, List<Integer> txns, int op) {
    /** {@link #op} of a cycle, whose transactions identify it. */
    public static final int NO_OP = -1;

    /** Copies the list. */
    public Identity {
      txns = List.copyOf(txns);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Identity i && anomaly == i.anomaly && op == i.op && (op != NO_OP || txns.equals(i.txns));
    }

    @Override
    public int hashCode() {
      return 31 * anomaly.hashCode() + (op != NO_OP ? op : txns.hashCode());
    }
  }
}
