package io.isowatch.report;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import io.isowatch.checker.witness.WitnessRenderer;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.schemas.WitnessTransaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Builds {@link WitnessView}s from the two places a witness comes from: the offline checker's
 * {@link Violation} over a {@link History} (words by {@link WitnessRenderer}), and the Avro {@link
 * io.isowatch.schemas.Violation} the monitor publishes on the violations topic (whose edge sentences
 * the monitor's {@link WitnessRenderer} wrote before publishing).
 */
public final class WitnessViews {
  private WitnessViews() {}

  /**
   * @param h the history the violation was found in
   * @param v the violation
   * @param id the view's id, e.g. {@code v3}
   * @param title its title line
   * @return the witness's transactions ({@link Witness#involved()}), edges, support edges and summary
   *     sentence, in the words of {@link WitnessRenderer} (transactions named {@code T<label>})
   */
  public static WitnessView of(History h, Violation v, String id, String title) {
    WitnessRenderer r = new WitnessRenderer(h);
    Witness w = v.witness();
    List<WitnessView.Txn> txns = new ArrayList<>();
    for (int t : w.involved()) {
      if (t == Witness.INIT) {
        txns.add(new WitnessView.Txn(WitnessRenderer.INIT_NAME, null, null, List.of()));
        continue;
      }
      List<WitnessView.Op> ops = new ArrayList<>();
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        ops.add(new WitnessView.Op(h.keyName(h.opKey(op)), r.operation(op)));
      }
      txns.add(new WitnessView.Txn(r.txnName(t), h.sessionName(h.sessionOf(t)), status(h.status(t)), ops));
    }
    return new WitnessView(id, title, List.of(), r.summary(v), txns, arrows(h, r, w, w.edges()),
        arrows(h, r, w, w.support()));
  }

  private static List<WitnessView.Arrow> arrows(History h, WitnessRenderer r, Witness w, List<Edge> edges) {
    List<WitnessView.Arrow> out = new ArrayList<>();
    for (Edge e : edges) {
      String value = e.value() == History.NIL || e.value() == History.UNKNOWN_VALUE ? null
          : WitnessRenderer.value(e.value());
      out.add(new WitnessView.Arrow(r.txnName(e.from()), r.txnName(e.to()), e.type().id(),
          e.key() >= 0 ? h.keyName(e.key()) : null, value, r.edge(e, w.ops())));
    }
    return out;
  }

  private static String status(TxnStatus s) {
    return switch (s) {
      case COMMITTED -> "committed";
      case ABORTED -> "aborted";
      default -> "outcome unknown";
    };
  }

  /**
   * @param v a violation record of the violations topic
   * @return its witness: id the violation id; title {@code G2-item in history demo (weakest level
   *     broken: serializable)}; facts the detection time and the window; summary the record's own
   *     ({@code null} in records from before the field existed, then the cycle as {@link
   *     #cycleSummary} writes it); transactions named by their txnId, {@code T_init} for the
   *     initial state
   */
  public static WitnessView of(io.isowatch.schemas.Violation v) {
    List<WitnessView.Txn> txns = new ArrayList<>();
    for (WitnessTransaction t : v.getWitness().getTransactions()) {
      if (t.getTxnId().equals(WitnessRenderer.INIT_NAME) && t.getSessionId().isEmpty()) {
        txns.add(new WitnessView.Txn(WitnessRenderer.INIT_NAME, null, null, List.of()));
        continue;
      }
      List<WitnessView.Op> ops = new ArrayList<>();
      for (Operation op : t.getOps()) {
        ops.add(new WitnessView.Op(op.getKey(), operation(op)));
      }
      String status = switch (t.getStatus()) {
        case COMMITTED -> "committed";
        case ABORTED -> "aborted";
        default -> "outcome unknown";
      };
      txns.add(new WitnessView.Txn(t.getTxnId(), t.getSessionId(), status, ops));
    }
    List<WitnessView.Arrow> edges = new ArrayList<>();
    for (WitnessEdge e : v.getWitness().getEdges()) {
      edges.add(new WitnessView.Arrow(e.getFromTxnId(), e.getToTxnId(), e.getType().name().toLowerCase(Locale.ROOT),
          e.getKey(), e.getValue() == null ? null : Long.toString(e.getValue()), e.getExplanation()));
    }
    String summary = v.getSummary() != null ? v.getSummary() : cycleSummary(edges);
    List<String> facts = List.of(
        "found at event time " + v.getDetectedAt(),
        "window: " + v.getWindow().getTransactions() + " transactions, event times "
            + v.getWindow().getStartTime() + " to " + v.getWindow().getEndTime());
    return new WitnessView(v.getViolationId(), title(v), facts, summary, txns, edges, List.of());
  }

  /** @return e.g. {@code G2-item in history demo (weakest level broken: serializable)} */
  public static String title(io.isowatch.schemas.Violation v) {
    return v.getAnomaly() + " in history " + v.getHistoryId() + " (weakest level broken: " + level(v) + ")";
  }

  /** @return the weakest level a violation record breaks, command-line name, e.g. {@code serializable} */
  public static String level(io.isowatch.schemas.Violation v) {
    return Level.valueOf(v.getLevel().name()).cliName();
  }

  /**
   * @param edges a cycle's edges in order
   * @return {@code cycle T12 -> T13 -> T12 (2 edges)}, or {@code null} when there are no edges
   */
  public static String cycleSummary(List<WitnessView.Arrow> edges) {
    if (edges.isEmpty()) {
      return null;
    }
    StringBuilder chain = new StringBuilder("cycle ");
    for (WitnessView.Arrow e : edges) {
      chain.append(e.from()).append(" -> ");
    }
    return chain.append(edges.get(0).from()).append(" (").append(edges.size())
        .append(edges.size() == 1 ? " edge)" : " edges)").toString();
  }

  /**
   * @return one operation of a record in the compact notation: {@code w(x)=2}, {@code append(k,5)},
   *     {@code r(x)=init} for the initial value, a list read by its last element only ({@code
   *     r(k)=[.., 7]}, {@code r(k)=[7]}, {@code r(k)=[]}), as the witness sentences cite it
   */
  public static String operation(Operation op) {
    Object v = op.getValue();
    switch (op.getKind()) {
      case WRITE:
        return "w(" + op.getKey() + ")=" + v;
      case APPEND:
        return "append(" + op.getKey() + "," + v + ")";
      default:
        if (v == null) {
          return "r(" + op.getKey() + ")=init";
        }
        if (v instanceof List<?> list) {
          return "r(" + op.getKey() + ")=" + (list.isEmpty() ? "[]"
              : (list.size() > 1 ? "[.., " : "[") + list.get(list.size() - 1) + "]");
        }
        return "r(" + op.getKey() + ")=" + v;
    }
  }
}
