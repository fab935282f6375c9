package io.isowatch.checker.format;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.io.IOException;
import java.io.Writer;
import java.util.function.IntFunction;

/**
 * Writes a register history as Plume / PolySI text, one {@code r(K,V,S,T)} / {@code w(K,V,S,T)} per
 * line, transaction after transaction in the order they were appended, the inverse of {@link
 * PlumeReader}.
 *
 * <ul>
 *   <li>Keys and sessions keep their names when every name is a non-negative decimal integer;
 *       otherwise all of them are written as their dense ids ({@code 0..n-1}).
 *   <li>Committed transactions keep their labels as {@code T} when all those labels are distinct
 *       and non-negative, otherwise they are numbered by transaction id. Aborted transactions are
 *       written with {@code T = -1} (so two consecutive aborted transactions of one session read
 *       back as one).
 *   <li>{@link History#NIL} is written as value 0.
 * </ul>
 *
 * <p>Plume cannot express list operations, unknown read results, unknown transaction outcomes or
 * values below 1: such histories are refused with {@link IllegalArgumentException} before anything
 * is written.
 */
final class PlumeWriter {
  private PlumeWriter() {}

  /**
   * @param h the history; every transaction closed
   * @param out where the text goes; not closed
   * @throws IllegalArgumentException if Plume cannot represent the history (see class comment)
   * @throws IOException if writing fails
   */
  static void write(History h, Writer out) throws IOException {
    check(h);
    IntFunction<String> keyName = numericNames(h.keyCount(), h::keyName);
    IntFunction<String> sessionName = numericNames(h.sessionCount(), h::sessionName);
    boolean keepLabels = labelsUsable(h);
    StringBuilder sb = new StringBuilder(64);
    for (int t = 0; t < h.txnCount(); t++) {
      String txn = h.status(t) == TxnStatus.ABORTED
          ? "-1"
          : Long.toString(keepLabels ? h.label(t) : t);
      String session = sessionName.apply(h.sessionOf(t));
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        long v = h.opValue(op);
        sb.setLength(0);
        sb.append(h.opKind(op) == OpKind.WRITE ? 'w' : 'r').append('(')
            .append(keyName.apply(h.opKey(op))).append(',')
            .append(v == History.NIL ? 0 : v).append(',')
            .append(session).append(',').append(txn).append(")\n");
        out.append(sb);
      }
    }
  }

  /**
   * @param h a history
   * @throws IllegalArgumentException naming the first transaction Plume text cannot represent
   */
  static void check(History h) {
    for (int t = 0; t < h.txnCount(); t++) {
      if (h.status(t) == TxnStatus.UNKNOWN) {
        throw refuse(h, t, "has an unknown outcome");
      }
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        byte kind = h.opKind(op);
        long v = h.opValue(op);
        if (kind != OpKind.READ && kind != OpKind.WRITE) {
          throw refuse(h, t, "has a list-append operation");
        } else if (v == History.UNKNOWN_VALUE) {
          throw refuse(h, t, "has a read with an unknown result");
        } else if (v != History.NIL && v < 1) {
          throw refuse(h, t, "has value " + v + " (Plume values are >= 1; 0 is the initial value)");
        }
      }
    }
  }

  private static IllegalArgumentException refuse(History h, int t, String why) {
    return new IllegalArgumentException("Plume text cannot represent transaction T" + h.label(t)
        + ", which " + why + "; write JSON lines (jsonl) instead");
  }

  private static IntFunction<String> numericNames(int n, IntFunction<String> names) {
    for (int i = 0; i < n; i++) {
      if (!isDecimal(names.apply(i))) {
        return Integer::toString;
      }
    }
    return names;
  }

  private static boolean isDecimal(String s) {
    if (s.isEmpty() || s.length() > 18 || (s.length() > 1 && s.charAt(0) == '0')) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static boolean labelsUsable(History h) {
    LongOpenHashSet seen = new LongOpenHashSet();
    for (int t = 0; t < h.txnCount(); t++) {
      if (h.status(t) != TxnStatus.ABORTED && (h.label(t) < 0 || !seen.add(h.label(t)))) {
        return false;
      }
    }
    return true;
  }
}
