package io.isowatch.checker.format;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import java.util.Locale;

/**
 * Renders a history in the notation of {@link io.isowatch.checker.history.TestHistories}, one
 * transaction per line in append order, so tests compare whole histories as strings:
 * {@code s1 T7: w x 1, r x _, a k 5, r k [1 2] | aborted}. Unknown read results, which the DSL
 * cannot write, render as {@code r x ?} (register) and {@code r k [?]} (list).
 */
final class HistoryText {
  private HistoryText() {}

  static String render(History h) {
    StringBuilder sb = new StringBuilder();
    for (int t = 0; t < h.txnCount(); t++) {
      sb.append(h.sessionName(h.sessionOf(t))).append(" T").append(h.label(t)).append(':');
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        sb.append(op == h.opStart(t) ? " " : ", ");
        op(h, op, sb);
      }
      if (h.status(t) != TxnStatus.COMMITTED) {
        sb.append(" | ").append(h.status(t).name().toLowerCase(Locale.ROOT));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /** @return counts and statuses: {@code txns=.. ops=.. sessions=.. keys=.. committed=.. ...} */
  static String summary(History h) {
    int[] byStatus = new int[TxnStatus.values().length];
    for (int t = 0; t < h.txnCount(); t++) {
      byStatus[h.status(t).ordinal()]++;
    }
    return "txns=" + h.txnCount() + " ops=" + h.opCount() + " sessions=" + h.sessionCount()
        + " keys=" + h.keyCount() + " committed=" + byStatus[0] + " aborted=" + byStatus[1]
        + " unknown=" + byStatus[2];
  }

  private static void op(History h, int op, StringBuilder sb) {
    String key = h.keyName(h.opKey(op));
    long v = h.opValue(op);
    switch (h.opKind(op)) {
      case OpKind.WRITE:
        sb.append("w ").append(key).append(' ').append(v);
        break;
      case OpKind.APPEND:
        sb.append("a ").append(key).append(' ').append(v);
        break;
      case OpKind.READ:
        sb.append("r ").append(key).append(' ')
            .append(v == History.NIL ? "_" : v == History.UNKNOWN_VALUE ? "?" : Long.toString(v));
        break;
      default:
        sb.append("r ").append(key).append(" [");
        if (!h.listKnown(op)) {
          sb.append('?');
        } else {
          for (int i = 0; i < h.listLength(op); i++) {
            sb.append(i > 0 ? " " : "").append(h.listElement(op, i));
          }
        }
        sb.append(']');
    }
  }
}
