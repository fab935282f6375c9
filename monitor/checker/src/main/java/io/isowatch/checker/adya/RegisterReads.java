package io.isowatch.checker.adya;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.ForbiddenAnomalies;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import java.util.List;

/**
 * The anomalies of one committed register read that need no version order (Adya, MIT 1999, §3 for
 * G1a and G1b; Elle, VLDB 2020, §5, for internal consistency on registers): thin-air read (a value
 * nobody wrote), aborted read (G1a), intermediate read (G1b: a value its writer overwrote before it
 * committed), internal inconsistency (the read differs from the value its own transaction last
 * wrote for the key), non-repeatable read (it differs from the value its own transaction last read
 * for the key, with no write of the key between) and future read (a value its own transaction
 * writes only later).
 *
 * <p>Each witness lists the read first, then the operations that show the anomaly. Cost: O(k) per
 * read in a transaction of k operations (the search back for its previous operation on the key), or
 * O(1) when the caller keeps the last operation per key (long transactions, {@code ReadAnomalies}).
 */
final class RegisterReads {
  private RegisterReads() {}

  /**
   * Checks read {@code r} of committed transaction {@code t} and adds what it breaks to {@code out}.
   *
   * @param thinAir whether a value nobody wrote is reported (off while its writer may still arrive)
   * @param prev the transaction's last register read or write of the key before {@code r}, or -1
   *     ({@link #previous})
   */
  static void check(RegisterVersions rv, boolean thinAir, int t, int r, int prev, List<Violation> out) {
    History h = rv.h;
    int k = h.opKey(r);
    long v = h.opValue(r);
    int w = rv.writer(k, v);
    if (v != History.NIL && w < 0 && thinAir) {
      report(out, Anomaly.THIN_AIR_READ, List.of(t), List.of(r));
    }
    int writer = w < 0 ? -1 : h.opTxn(w);
    if (writer >= 0 && writer != t) {
      if (h.status(writer) == TxnStatus.ABORTED) {
        report(out, Anomaly.ABORTED_READ, List.of(t, writer), List.of(r, w));
      } else if (rv.finalWrite[w] != w) {
        report(out, Anomaly.INTERMEDIATE_READ, List.of(t, writer), List.of(r, w, rv.finalWrite[w]));
      }
    }
    if (prev >= 0 && h.opValue(prev) != History.UNKNOWN_VALUE && h.opValue(prev) != v) {
      report(out, h.opKind(prev) == OpKind.WRITE ? Anomaly.INTERNAL : Anomaly.NON_REPEATABLE_READ, List.of(t),
          List.of(r, prev));
    }
    if (writer == t && w > r) {
      report(out, Anomaly.FUTURE_READ, List.of(t), List.of(r, w));
    }
  }

  /** @return the transaction's last register read or write of the key before {@code r}, or -1 */
  static int previous(History h, int t, int r) {
    int k = h.opKey(r);
    for (int o = r - 1; o >= h.opStart(t); o--) {
      byte kind = h.opKind(o);
      if (h.opKey(o) == k && (kind == OpKind.READ || kind == OpKind.WRITE)) {
        return o;
      }
    }
    return -1;
  }

  private static void report(List<Violation> out, Anomaly a, List<Integer> txns, List<Integer> ops) {
    out.add(new Violation(a, ForbiddenAnomalies.weakestForbidding(a), new Witness(txns, ops, List.of())));
  }
}
