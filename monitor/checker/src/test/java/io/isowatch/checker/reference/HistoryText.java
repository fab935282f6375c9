package io.isowatch.checker.reference;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import java.util.Locale;

/**
 * Prints a history in the notation of {@link io.isowatch.checker.history.TestHistories}, one
 * transaction per line in transaction order, so that a failing property test's history can be
 * pasted into a unit test. Reads of an unknown result print as {@code ?}, which that notation
 * does not parse.
 */
public final class HistoryText {
  private HistoryText() {}

  /**
   * @param h a history whose session and key names are single words without {@code :,|[]}
   * @return the text, one line per transaction, each ending in a newline
   */
  public static String of(History h) {
    StringBuilder sb = new StringBuilder();
    for (int t = 0; t < h.txnCount(); t++) {
      sb.append(h.sessionName(h.sessionOf(t))).append(" T").append(h.label(t)).append(':');
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        sb.append(op == h.opStart(t) ? " " : ", ");
        appendOp(sb, h, op);
      }
      if (h.status(t) != TxnStatus.COMMITTED) {
        sb.append(" | ").append(h.status(t).name().toLowerCase(Locale.ROOT));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private static void appendOp(StringBuilder sb, History h, int op) {
    byte kind = h.opKind(op);
    sb.append(kind == OpKind.APPEND ? "a" : OpKind.shortName(kind)).append(' ');
    sb.append(h.keyName(h.opKey(op))).append(' ');
    if (kind == OpKind.READ_LIST) {
      if (!h.listKnown(op)) {
        sb.append('?');
        return;
      }
      sb.append('[');
      for (int i = 0; i < h.listLength(op); i++) {
        sb.append(i == 0 ? "" : " ").append(h.listElement(op, i));
      }
      sb.append(']');
    } else if (h.opValue(op) == History.NIL) {
      sb.append('_');
    } else if (h.opValue(op) == History.UNKNOWN_VALUE) {
      sb.append('?');
    } else {
      sb.append(h.opValue(op));
    }
  }
}
