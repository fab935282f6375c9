package io.isowatch.checker.witness;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Anomaly;
import java.util.List;

/**
 * One sentence per kind of violation that has no cycle, naming the read and the write it is about.
 *
 * <p>It reads the witness shapes the checkers produce: the basic axioms (the AWDIT read resolver:
 * reader first; the offending read first, then the reader's own earlier write when it matters,
 * then the write read from) and the list-append anomalies of the Adya checker (the offending read
 * or append first, then the operations that show it). A witness of another shape is rendered as
 * the anomaly's name followed by its operations.
 */
final class AnomalySentences {
  private final WitnessRenderer r;
  private final History h;

  AnomalySentences(WitnessRenderer renderer, History history) {
    this.r = renderer;
    this.h = history;
  }

  /** @return the sentence for a violation without edges, without a final period */
  String sentence(Anomaly anomaly, Witness w) {
    List<Integer> ops = w.ops();
    int read = ops.isEmpty() ? -1 : ops.get(0);
    if (read < 0 || read >= h.opCount()) {
      return fallback(anomaly, w);
    }
    String t = r.txnName(h.opTxn(read));
    int last = ops.get(ops.size() - 1);
    switch (anomaly) {
      case THIN_AIR_READ:
        return t + " read " + seen(read) + ", which no transaction wrote";
      case ABORTED_READ:
        return ops.size() < 2 ? fallback(anomaly, w)
            : t + " read " + seen(read) + " from " + r.txnName(h.opTxn(last)) + ", which aborted";
      case FUTURE_READ:
        return t + " read " + seen(read) + ", which it writes only later itself";
      case NOT_MY_OWN_WRITE:
        return ops.size() < 2 ? fallback(anomaly, w) : notMyOwnWrite(t, read, ops);
      case NOT_MY_LAST_WRITE:
        return ops.size() < 3 ? fallback(anomaly, w)
            : t + " read its own " + seen(read) + " after overwriting it with " + r.operation(ops.get(1));
      case INTERMEDIATE_READ:
        return ops.size() < 2 ? fallback(anomaly, w) : intermediate(t, read, ops.get(1));
      case NON_REPEATABLE_READ:
        return ops.size() < 2 ? fallback(anomaly, w) : nonRepeatable(t, ops);
      case INCOMPATIBLE_ORDER:
        return ops.size() < 2 ? fallback(anomaly, w)
            : t + " read " + seen(read) + " and " + r.txnName(h.opTxn(ops.get(1))) + " read "
                + seen(ops.get(1)) + "; neither is a prefix of the other";
      case DUPLICATE_ELEMENTS:
        return t + " read " + seen(read) + ", which holds an element twice";
      case INTERNAL:
        return ops.size() < 2 ? fallback(anomaly, w) : internal(t, read, ops);
      case LOST_UPDATE:
        return lostUpdate(w);
      case DIRTY_UPDATE:
        return ops.size() < 2 ? fallback(anomaly, w)
            : t + " appended " + WitnessRenderer.value(h.opValue(read)) + " to " + r.keyRef(h.opKey(read))
                + " right after " + r.txnName(h.opTxn(ops.get(1))) + "'s append of "
                + WitnessRenderer.value(h.opValue(ops.get(1))) + ", and "
                + r.txnName(h.opTxn(ops.get(1))) + " aborted";
      default:
        return fallback(anomaly, w);
    }
  }

  private String notMyOwnWrite(String t, int read, List<Integer> ops) {
    String own = r.operation(ops.get(1));
    if (h.opKind(read) == OpKind.READ && h.opValue(read) == History.NIL) {
      return t + " read " + seen(read) + " after its own " + own;
    }
    if (h.opKind(read) == OpKind.READ_LIST && h.listKnown(read) && h.listLength(read) == 0) {
      return t + " read " + seen(read) + ", the initial state, after its own " + own;
    }
    return t + " read " + seen(read) + " from " + writer(read) + " after its own " + own;
  }

  /**
   * Two reads of one key, earlier first whatever the witness order: register reads name their
   * writers; list reads that differ by more than the reader's own appends between name those.
   */
  private String nonRepeatable(String t, List<Integer> ops) {
    int first = Math.min(ops.get(0), ops.get(1));
    int second = Math.max(ops.get(0), ops.get(1));
    String key = r.keyRef(h.opKey(first));
    if (h.opKind(first) == OpKind.READ_LIST) {
      String own = ops.size() > 2 ? ", which its own appends between (" + operations(ops.subList(2, ops.size()))
          + ") do not explain" : "";
      return t + " read " + key + " twice with different results: " + seen(first) + ", then " + seen(second) + own;
    }
    return t + " read " + key + " twice with different results: " + seen(first) + " from " + writer(first)
        + ", then " + seen(second) + " from " + writer(second);
  }

  /** A read that disagrees with its own transaction's earlier write (register) or appends (list). */
  private String internal(String t, int read, List<Integer> ops) {
    int earlier = ops.get(1);
    if (h.opKind(earlier) == OpKind.READ_LIST) {
      return t + " read " + seen(read) + ", which disagrees with its own earlier read " + r.operation(earlier)
          + (ops.size() > 2 ? " followed by its own writes " + operations(ops.subList(2, ops.size())) : "");
    }
    return t + " read " + seen(read) + ", which disagrees with its own earlier "
        + (ops.size() > 2 ? "writes " : "write ") + operations(ops.subList(1, ops.size()));
  }

  /** @return the operations as the report writes them, separated by spaces: {@code append(x,3) append(x,4)} */
  private String operations(List<Integer> ops) {
    StringBuilder sb = new StringBuilder();
    for (int op : ops) {
      sb.append(sb.length() == 0 ? "" : " ").append(r.operation(op));
    }
    return sb.toString();
  }

  private String intermediate(String t, int read, int write) {
    int writer = h.opTxn(write);
    int last = r.lastWriteOf(writer, h.opKey(write));
    return t + " read " + seen(read) + " from " + r.txnName(writer) + ", which later overwrote it with "
        + r.operation(last);
  }

  private String lostUpdate(Witness w) {
    List<Integer> ops = w.ops();
    if (ops.size() < 4 || ops.size() % 2 != 0) {
      return fallback(Anomaly.LOST_UPDATE, w);
    }
    StringBuilder names = new StringBuilder();
    StringBuilder writes = new StringBuilder();
    for (int i = 0; i < ops.size(); i += 2) {
      String sep = i == 0 ? "" : i == ops.size() - 2 ? " and " : ", ";
      names.append(sep).append(r.txnName(h.opTxn(ops.get(i))));
      writes.append(i == 0 ? "" : ", ").append(r.txnName(h.opTxn(ops.get(i + 1)))).append(' ')
          .append(r.operation(ops.get(i + 1)));
    }
    return names + (ops.size() == 4 ? " both read " : " all read ") + seen(ops.get(0)) + " and then wrote it (" + writes
        + "), so one update is lost";
  }

  /** @return what a read returned: {@code x = 9}, {@code key 3 = [1, 9]} */
  private String seen(int read) {
    if (h.opKind(read) == OpKind.READ_LIST) {
      return r.keyRef(h.opKey(read)) + " = " + (h.listKnown(read) ? r.list(read) : "?");
    }
    return r.readValue(h.opKey(read), h.opValue(read));
  }

  /**
   * @return the transaction whose write a read returned (for a list read, the append of its last
   *     element), {@code T_init} for the initial value or an empty list
   */
  private String writer(int read) {
    long v = h.opValue(read);
    if (h.opKind(read) == OpKind.READ_LIST) {
      int n = h.listKnown(read) ? h.listLength(read) : -1;
      v = n < 0 ? History.UNKNOWN_VALUE : n == 0 ? History.NIL : h.listElement(read, n - 1);
    }
    if (v == History.NIL) {
      return WitnessRenderer.INIT_NAME;
    }
    int w = h.writes().writerOf(h.opKey(read), v);
    return w < 0 ? "no transaction" : r.txnName(h.opTxn(w));
  }

  private String fallback(Anomaly anomaly, Witness w) {
    StringBuilder sb = new StringBuilder(anomaly.id());
    String sep = " in ";
    for (int op : w.ops()) {
      if (op >= 0 && op < h.opCount()) {
        sb.append(sep).append(r.txnName(h.opTxn(op))).append(' ').append(r.operation(op));
        sep = ", ";
      }
    }
    if (sep.equals(" in ")) {
      for (int t : w.txns()) {
        sb.append(sep).append(r.txnName(t));
        sep = ", ";
      }
    }
    return sb.toString();
  }
}
