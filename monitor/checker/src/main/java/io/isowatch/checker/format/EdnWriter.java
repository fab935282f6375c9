package io.isowatch.checker.format;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import java.io.IOException;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.io.Writer;

/**
 * Writes a history as Elle / Jepsen EDN, one completion map per line, the inverse of {@link
 * EdnReader}: e.g. {@code {:type :ok, :process "s0", :index 3, :value [[:append "x1" 8] [:r "x0" [1
 * 3 4]]]}}. Only completions are written (no {@code :invoke} lines), which Elle's checkers and the
 * reader accept (source: jepsen-io/elle, {@code list_append.clj}, {@code rw_register.clj}).
 *
 * <ul>
 *   <li>{@code :type} is {@code :ok} for committed, {@code :fail} for aborted and {@code :info} for
 *       unknown-outcome transactions; {@code :process} the session's name as a string; {@code
 *       :index} the transaction's label (so labels must be distinct and non-negative, as the reader
 *       requires).
 *   <li>Keys are written as strings, their names.
 *   <li>A list read is a vector of its elements ({@code []} for the initial list); a register read of
 *       the initial value {@link History#NIL} is {@code nil}.
 * </ul>
 *
 * <p>Refused with {@link IllegalArgumentException}, before anything is written: histories that mix
 * register and list operations (the reader decides per file), repeated or negative labels, reads
 * with unknown results in committed transactions (EDN's {@code nil} there means the initial value),
 * and register reads of the initial value in aborted or unknown transactions ({@code nil} there
 * means "not seen").
 */
final class EdnWriter {
  private EdnWriter() {}

  /**
   * @param h the history; every transaction closed
   * @param out where the lines go; not closed
   * @throws IllegalArgumentException if EDN cannot represent the history (see class comment)
   * @throws IOException if writing fails
   */
  static void write(History h, Writer out) throws IOException {
    check(h);
    StringBuilder sb = new StringBuilder(128);
    for (int t = 0; t < h.txnCount(); t++) {
      sb.setLength(0);
      sb.append("{:type ").append(type(h.status(t)))
          .append(", :process ").append(string(h.sessionName(h.sessionOf(t))))
          .append(", :index ").append(h.label(t))
          .append(", :value [");
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        if (op > h.opStart(t)) {
          sb.append(' ');
        }
        byte kind = h.opKind(op);
        String key = string(h.keyName(h.opKey(op)));
        switch (kind) {
          case OpKind.WRITE -> sb.append("[:w ").append(key).append(' ').append(h.opValue(op)).append(']');
          case OpKind.APPEND -> sb.append("[:append ").append(key).append(' ').append(h.opValue(op)).append(']');
          case OpKind.READ -> {
            long v = h.opValue(op);
            sb.append("[:r ").append(key).append(' ');
            sb.append(v == History.NIL || v == History.UNKNOWN_VALUE ? "nil" : Long.toString(v)).append(']');
          }
          default -> {
            sb.append("[:r ").append(key).append(' ');
            if (!h.listKnown(op)) {
              sb.append("nil]");
              break;
            }
            sb.append('[');
            for (int i = 0, n = h.listLength(op); i < n; i++) {
              if (i > 0) {
                sb.append(' ');
              }
              sb.append(h.listElement(op, i));
            }
            sb.append("]]");
          }
        }
      }
      sb.append("]}\n");
      out.append(sb);
    }
  }

  /**
   * @param h a history
   * @throws IllegalArgumentException naming the first transaction EDN cannot represent
   */
  static void check(History h) {
    boolean registers = false;
    boolean lists = false;
    LongOpenHashSet labels = new LongOpenHashSet();
    for (int t = 0; t < h.txnCount(); t++) {
      if (h.label(t) < 0 || !labels.add(h.label(t))) {
        throw refuse(h, t, "has a negative or repeated label (EDN's :index must be distinct)");
      }
      boolean committed = h.status(t) == TxnStatus.COMMITTED;
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        byte kind = h.opKind(op);
        if (kind == OpKind.READ || kind == OpKind.WRITE) {
          registers = true;
        } else {
          lists = true;
        }
        if (registers && lists) {
          throw refuse(h, t, "mixes register and list operations in one history");
        }
        if (kind == OpKind.READ && committed && h.opValue(op) == History.UNKNOWN_VALUE
            || kind == OpKind.READ_LIST && committed && !h.listKnown(op)) {
          throw refuse(h, t, "committed with a read whose result is unknown");
        }
        if (kind == OpKind.READ && !committed && h.opValue(op) == History.NIL) {
          throw refuse(h, t, "did not commit and read the initial value, which EDN cannot tell from unknown");
        }
      }
    }
  }

  private static String type(TxnStatus s) {
    return switch (s) {
      case COMMITTED -> ":ok";
      case ABORTED -> ":fail";
      default -> ":info";
    };
  }

  private static String string(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        default -> sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  private static IllegalArgumentException refuse(History h, int t, String why) {
    return new IllegalArgumentException("EDN cannot represent transaction T" + h.label(t)
        + ", which " + why + "; write JSON lines (jsonl) instead");
  }
}
