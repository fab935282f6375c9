package io.isowatch.checker.reference;

import io.isowatch.checker.Checker;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.ForbiddenAnomalies;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.reference.ReferenceReads.Read;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A slow, literal transcription of {@code notes/semantics.md} for read committed, read atomic and
 * causal consistency (Biswas &amp; Enea, OOPSLA 2019, checked by saturation as in AWDIT, PLDI 2025):
 * reads resolved by {@link ReferenceReads}; non-repeatable reads (§4); {@code co'} by brute force
 * over every (reader t3, read r, writer t2) triple with the level's premise tested as written (§5),
 * the causal past by a plain Floyd–Warshall closure of {@code so ∪ wr}; acyclicity of {@code so ∪
 * wr ∪ co' ∪ INIT} by a transitive closure (§6). O(n^3) time and O(n^2) space in the number of
 * transactions n: for histories of tens of transactions, as property-test oracle only.
 *
 * <p>Output: basic-axiom violations in operation order, then non-repeatable reads by (transaction,
 * key), then one {@link Anomaly#COMMIT_ORDER_CYCLE} per non-trivial strongly connected component,
 * its witness a shortest cycle through the component's smallest transaction. INIT appears in
 * witnesses as {@link Witness#INIT}.
 */
public final class ReferenceChecker implements Checker {
  private final Level level;

  /**
   * @param level read committed, read atomic or causal
   * @throws IllegalArgumentException for any other level
   */
  public ReferenceChecker(Level level) {
    if (level != Level.READ_COMMITTED && level != Level.READ_ATOMIC && level != Level.CAUSAL) {
      throw new IllegalArgumentException("no reference checker for " + level);
    }
    this.level = level;
  }

  @Override
  public Level level() {
    return level;
  }

  @Override
  public CheckResult check(History h) {
    List<Read> reads = ReferenceReads.checkedReads(h);
    List<Violation> out = new ArrayList<>();
    for (Read r : reads) {
      if (r.anomaly() != null) {
        List<Integer> txns = new ArrayList<>(List.of(r.txn()));
        List<Integer> ops = new ArrayList<>(List.of(r.op()));
        if (r.writeOp() >= 0) {
          if (r.writerTxn() != r.txn()) {
            txns.add(r.writerTxn());
          }
          ops.add(r.writeOp());
        }
        out.add(new Violation(r.anomaly(), ForbiddenAnomalies.weakestForbidding(r.anomaly()),
            new Witness(txns, ops, List.of())));
      }
    }
    if (level != Level.READ_COMMITTED) {
      out.addAll(nonRepeatableReads(reads));
    }
    out.addAll(new ReferenceGraph(h, level, reads).cycles());
    return CheckResult.of(level, out);
  }

  /**
   * @param h a history
   * @return the graph of §6 at this checker's level, to check witnesses against
   */
  public ReferenceGraph graph(History h) {
    return new ReferenceGraph(h, level, ReferenceReads.checkedReads(h));
  }

  /** §4: a committed transaction with valid external version reads of one key from two writers. */
  private static List<Violation> nonRepeatableReads(List<Read> reads) {
    Map<List<Integer>, List<Read>> byTxnKey = new LinkedHashMap<>();
    for (Read r : reads) {
      if (r.external() && r.version()) {
        byTxnKey.computeIfAbsent(List.of(r.txn(), r.key()), k -> new ArrayList<>()).add(r);
      }
    }
    List<Violation> out = new ArrayList<>();
    for (List<Read> group : byTxnKey.values()) {
      List<Integer> txns = new ArrayList<>(List.of(group.get(0).txn()));
      List<Integer> ops = new ArrayList<>();
      for (Read r : group) {
        ops.add(r.op());
        if (!txns.subList(1, txns.size()).contains(r.writerTxn())) {
          txns.add(r.writerTxn());
        }
      }
      if (txns.size() > 2) {
        out.add(new Violation(Anomaly.NON_REPEATABLE_READ, Level.READ_ATOMIC,
            new Witness(txns, ops, List.of())));
      }
    }
    return out;
  }
}
