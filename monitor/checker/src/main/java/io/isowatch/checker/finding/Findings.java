package io.isowatch.checker.finding;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import io.isowatch.checker.witness.WitnessRenderer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Turns a checker's {@link Violation} over its {@link History} into a {@link Finding}: the one
 * place a witness's edges become explained arrows, in the words of {@link WitnessRenderer}.
 * {@code isowatch check} and the monitor's window checker both go through it.
 */
public final class Findings {
  private Findings() {}

  /**
   * @param h the history the violation was found in
   * @param v the violation
   * @return the finding, transactions named {@code T<label>} with their operations as the history
   *     holds them ({@link WitnessRenderer#operation} words them)
   */
  public static Finding of(History h, Violation v) {
    return of(h, v, new WitnessRenderer(h));
  }

  /**
   * @param h the history the violation was found in
   * @param v the violation
   * @param r the renderer naming its transactions and writing its sentences, shared by the
   *     violations of one report
   * @return the finding, transactions with their operations as the history holds them ({@link
   *     #txn})
   */
  public static Finding of(History h, Violation v, WitnessRenderer r) {
    return of(h, v, r, t -> txn(h, r, t));
  }

  /**
   * @param h the history the violation was found in
   * @param v the violation
   * @param r the renderer naming its transactions and writing its sentences
   * @param txns a transaction id of {@code h} to the transaction the finding shows (never called
   *     with {@link Witness#INIT}, which is {@link Finding.Txn#initial()}); the window checker passes
   *     the transaction as it arrived, whose reads its generation's history may hold as unknown
   * @return the finding: the transactions of {@link Witness#involved()}, the evidence operations
   *     as {@code txns} shows them, the edges and support edges with {@link WitnessRenderer#edge}
   *     sentences, the {@link WitnessRenderer#summary}
   */
  public static Finding of(History h, Violation v, WitnessRenderer r, IntFunction<Finding.Txn> txns) {
    Witness w = v.witness();
    List<Finding.Txn> involved = new ArrayList<>();
    for (int t : w.involved()) {
      involved.add(t == Witness.INIT ? Finding.Txn.initial() : txns.apply(t));
    }
    List<Finding.Evidence> evidence = new ArrayList<>(w.ops().size());
    for (int op : w.ops()) {
      int t = h.opTxn(op);
      evidence.add(new Finding.Evidence(r.txnName(t), txns.apply(t).ops().get(op - h.opStart(t))));
    }
    return new Finding(v.anomaly(), v.weakestLevelBroken(), r.summary(v), involved, evidence,
        arrows(h, r, w, w.edges()), arrows(h, r, w, w.support()));
  }

  private static List<Finding.Arrow> arrows(History h, WitnessRenderer r, Witness w, List<Edge> edges) {
    List<Finding.Arrow> out = new ArrayList<>(edges.size());
    for (Edge e : edges) {
      Long value = e.value() == History.NIL || e.value() == History.UNKNOWN_VALUE ? null : e.value();
      out.add(new Finding.Arrow(r.txnName(e.from()), r.txnName(e.to()), e.type(), e.because(),
          e.key() >= 0 ? h.keyName(e.key()) : null, value, e.via() >= 0 ? r.txnName(e.via()) : null,
          r.edge(e, w.ops())));
    }
    return out;
  }

  /**
   * @param h a history
   * @param r the renderer naming its transactions and wording its operations
   * @param t a transaction id of {@code h}, not {@link Witness#INIT}
   * @return the transaction as a finding shows it: named by {@code r}, every operation as the
   *     history holds it, worded by {@link WitnessRenderer#operation}
   */
  public static Finding.Txn txn(History h, WitnessRenderer r, int t) {
    List<Finding.Op> ops = new ArrayList<>();
    for (int op = h.opStart(t); op < h.opEnd(t); op++) {
      byte kind = h.opKind(op);
      List<Long> list = null;
      if (kind == OpKind.READ_LIST && h.listKnown(op)) {
        list = new ArrayList<>(h.listLength(op));
        for (int i = 0; i < h.listLength(op); i++) {
          list.add(h.listElement(op, i));
        }
      }
      long value = kind == OpKind.READ_LIST ? 0 : h.opValue(op);
      ops.add(new Finding.Op(kind, h.keyName(h.opKey(op)), value, list, r.operation(op)));
    }
    return new Finding.Txn(r.txnName(t), h.sessionName(h.sessionOf(t)), h.status(t), ops);
  }
}
