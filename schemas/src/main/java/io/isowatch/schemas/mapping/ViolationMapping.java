package io.isowatch.schemas.mapping;

import static io.isowatch.schemas.TxnStatus.COMMITTED;

import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.window.WindowViolation;
import io.isowatch.checker.witness.EdgeType;
import io.isowatch.checker.witness.WitnessRenderer;
import io.isowatch.schemas.EventTimes;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.Window;
import io.isowatch.schemas.Witness;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.schemas.WitnessTransaction;
import java.util.ArrayList;
import java.util.List;

/**
 * The one mapping between the Avro {@link Violation} of the violations topic and the checker's
 * {@link Finding}: the checker stage publishes a {@link WindowViolation} with {@link #toAvro}, and
 * whoever reads the topic (the violations page, {@code monitor}'s printed lines) gets the finding
 * back with {@link #finding}. The initial state is transaction {@code T_init} of session {@code ""},
 * committed, with no operations. Times: Avro {@code timestamp-micros} fields are {@link
 * java.time.Instant}s, the checker's microseconds since the epoch ({@link EventTimes}).
 */
public final class ViolationMapping {
  private ViolationMapping() {}

  /**
   * @param historyId the history it was found in
   * @param v the violation; its finding's anomaly must be known
   * @param detectedAt stream time of detection, µs
   * @return the violation record, support edges included
   */
  public static Violation toAvro(String historyId, WindowViolation v, long detectedAt) {
    Finding f = v.finding();
    List<WitnessTransaction> txns = new ArrayList<>(f.txns().size());
    for (Finding.Txn t : f.txns()) {
      if (t.isInitial()) {
        txns.add(new WitnessTransaction(t.name(), "", COMMITTED, List.of()));
      } else {
        txns.add(new WitnessTransaction(t.name(), t.session(), StatusMapping.toAvro(t.status()), ops(t.ops())));
      }
    }
    return new Violation(historyId, v.id(), EventTimes.instant(detectedAt),
        io.isowatch.schemas.Level.valueOf(f.level().name()), f.anomaly().id(),
        new Witness(txns, edges(f.edges()), edges(f.support())),
        new Window(EventTimes.instant(v.windowStart()), EventTimes.instant(v.windowEnd()), v.windowTxns()),
        f.summary());
  }

  private static List<Operation> ops(List<Finding.Op> ops) {
    List<Operation> out = new ArrayList<>(ops.size());
    for (Finding.Op op : ops) {
      long[] list = op.list() == null ? null : op.list().stream().mapToLong(Long::longValue).toArray();
      out.add(TransactionMapping.operation(op.kind(), op.key(), op.value(), list));
    }
    return out;
  }

  private static List<WitnessEdge> edges(List<Finding.Arrow> arrows) {
    List<WitnessEdge> out = new ArrayList<>(arrows.size());
    for (Finding.Arrow a : arrows) {
      out.add(new WitnessEdge(a.from(), a.to(), io.isowatch.schemas.EdgeType.valueOf(a.type().name()), a.key(),
          a.value(), a.explanation()));
    }
    return out;
  }

  /**
   * @param v a violation record of the violations topic
   * @return its finding: transactions named by their txnId ({@link Finding.Txn#initial()} for the
   *     initial state), operations in the monitor's notation ({@link Finding.Op#of}); no evidence
   *     operations, no edge's premise or reader (the record does not carry them); the anomaly
   *     {@code null} when the record names one this version does not know (the field is a string so
   *     that new kinds need no schema change); the summary the record's own, or, in a record from
   *     before the field existed, the cycle as {@link #cycleSummary} writes it
   */
  public static Finding finding(Violation v) {
    List<Finding.Txn> txns = new ArrayList<>();
    for (WitnessTransaction t : v.getWitness().getTransactions()) {
      if (t.getTxnId().equals(WitnessRenderer.INIT_NAME) && t.getSessionId().isEmpty()) {
        txns.add(Finding.Txn.initial());
        continue;
      }
      List<Finding.Op> ops = new ArrayList<>();
      for (Operation op : t.getOps()) {
        ops.add(op(op));
      }
      txns.add(new Finding.Txn(t.getTxnId(), t.getSessionId(), StatusMapping.toChecker(t.getStatus()), ops));
    }
    List<Finding.Arrow> edges = arrows(v.getWitness().getEdges());
    String summary = v.getSummary() != null ? v.getSummary() : cycleSummary(edges);
    return new Finding(anomaly(v.getAnomaly()), level(v), summary, txns, List.of(), edges,
        arrows(v.getWitness().getSupport()));
  }

  /** @return the weakest level a violation record breaks */
  public static Level level(Violation v) {
    return Level.valueOf(v.getLevel().name());
  }

  private static Anomaly anomaly(String id) {
    for (Anomaly a : Anomaly.values()) {
      if (a.id().equals(id)) {
        return a;
      }
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static Finding.Op op(Operation op) {
    Object v = op.getValue();
    switch (op.getKind()) {
      case WRITE:
        return Finding.Op.of(OpKind.WRITE, op.getKey(), (Long) v, null);
      case APPEND:
        return Finding.Op.of(OpKind.APPEND, op.getKey(), (Long) v, null);
      default:
        if (v instanceof List<?> list) {
          return Finding.Op.of(OpKind.READ_LIST, op.getKey(), 0, (List<Long>) list);
        }
        return Finding.Op.of(OpKind.READ, op.getKey(), v == null ? History.NIL : (Long) v, null);
    }
  }

  private static List<Finding.Arrow> arrows(List<WitnessEdge> edges) {
    List<Finding.Arrow> out = new ArrayList<>(edges.size());
    for (WitnessEdge e : edges) {
      out.add(new Finding.Arrow(e.getFromTxnId(), e.getToTxnId(), EdgeType.valueOf(e.getType().name()), null,
          e.getKey(), e.getValue(), null, e.getExplanation()));
    }
    return out;
  }

  /**
   * @param edges a cycle's edges in order
   * @return {@code cycle T12 -> T13 -> T12 (2 edges)}, or {@code null} when there are no edges
   */
  static String cycleSummary(List<Finding.Arrow> edges) {
    if (edges.isEmpty()) {
      return null;
    }
    StringBuilder chain = new StringBuilder("cycle ");
    for (Finding.Arrow e : edges) {
      chain.append(e.from()).append(" -> ");
    }
    return chain.append(edges.get(0).from()).append(" (").append(edges.size())
        .append(edges.size() == 1 ? " edge)" : " edges)").toString();
  }
}
