package io.isowatch.cli;

import io.isowatch.checker.level.Level;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.schemas.WitnessTransaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A published {@link Violation} (the Avro record of the violations topic) in the words of {@link
 * TextReport}, the style of {@code isowatch check}:
 *
 * <pre>
 * violation 3f9a0c12e4b1: G2-item in history demo (weakest level broken: serializable)
 *   cycle T12 -> T13 -> T12 (2 edges)
 *   T12 (session s3): r(k1)=[.., 7] r(k4)=[.., 9] append(k1,20)
 *   T13 (session s5): r(k1)=[.., 7] r(k4)=[.., 9] append(k4,21)
 *   rw: T12 read k4 = [.., 9] and so did not see T13's append of 21
 *   rw: T13 read k1 = [.., 7] and so did not see T12's append of 20
 * </pre>
 *
 * The edge sentences are the record's own explanations (written by the monitor's {@code
 * WitnessRenderer}); list reads show their last element only, as the witness renderer does.
 */
public final class ViolationText {
  private ViolationText() {}

  /** @return e.g. {@code violation 3f9a0c12e4b1: G2-item in history demo (weakest level broken: serializable)} */
  public static String headline(Violation v) {
    return "violation " + v.getViolationId() + ": " + v.getAnomaly() + " in history " + v.getHistoryId()
        + " (weakest level broken: " + level(v) + ")";
  }

  /** @return the headline, then the summary, the transactions and the edges, each indented by two spaces */
  public static List<String> lines(Violation v) {
    List<String> out = new ArrayList<>();
    out.add(headline(v));
    List<WitnessEdge> edges = v.getWitness().getEdges();
    if (!edges.isEmpty()) {
      StringBuilder chain = new StringBuilder("cycle ");
      for (WitnessEdge e : edges) {
        chain.append(e.getFromTxnId()).append(" -> ");
      }
      chain.append(edges.get(0).getFromTxnId()).append(" (").append(edges.size())
          .append(edges.size() == 1 ? " edge)" : " edges)");
      out.add("  " + chain);
    }
    for (WitnessTransaction t : v.getWitness().getTransactions()) {
      out.add("  " + transaction(t));
    }
    for (WitnessEdge e : edges) {
      out.add("  " + e.getType().name().toLowerCase(Locale.ROOT) + ": " + e.getExplanation());
    }
    return out;
  }

  /** @return the weakest level broken, command-line name, e.g. {@code serializable} */
  public static String level(Violation v) {
    return Level.valueOf(v.getLevel().name()).cliName();
  }

  /** @return e.g. {@code T7 (session s1, aborted): r(x)=1 w(y)=2} */
  static String transaction(WitnessTransaction t) {
    StringBuilder sb = new StringBuilder(t.getTxnId()).append(" (session ").append(t.getSessionId());
    switch (t.getStatus()) {
      case ABORTED -> sb.append(", aborted");
      case UNKNOWN -> sb.append(", outcome unknown");
      default -> { }
    }
    sb.append("):");
    for (Operation op : t.getOps()) {
      sb.append(' ').append(operation(op));
    }
    return sb.toString();
  }

  private static String operation(Operation op) {
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
