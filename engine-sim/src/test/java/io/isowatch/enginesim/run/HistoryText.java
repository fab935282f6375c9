package io.isowatch.enginesim.run;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;

/**
 * Renders a register history in the checker's test notation, one transaction per line in history
 * order: {@code s0 T3: w x1 4, r x0 _ | aborted} ({@code _} is the initial value; committed
 * transactions carry no status).
 */
public final class HistoryText {
  private HistoryText() {}

  /** @return the rendering, each line ending in {@code \n} */
  public static String render(History h) {
    StringBuilder sb = new StringBuilder();
    for (int t = 0; t < h.txnCount(); t++) {
      sb.append(h.sessionName(h.sessionOf(t))).append(" T").append(h.label(t)).append(':');
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        sb.append(op == h.opStart(t) ? " " : ", ");
        long v = h.opValue(op);
        sb.append(OpKind.shortName(h.opKind(op))).append(' ').append(h.keyName(h.opKey(op))).append(' ')
            .append(v == History.NIL ? "_" : Long.toString(v));
      }
      if (h.status(t) != TxnStatus.COMMITTED) {
        sb.append(" | ").append(h.status(t).name().toLowerCase());
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
