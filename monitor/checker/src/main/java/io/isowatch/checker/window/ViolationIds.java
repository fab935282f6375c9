package io.isowatch.checker.window;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Stable violation ids: the same anomaly over the same transactions gets the same id in any
 * generation, process or run, so that it is published once and a consumer can deduplicate.
 */
public final class ViolationIds {
  /** Hex characters kept of the SHA-256 digest (128 bits). */
  public static final int LENGTH = 32;

  private ViolationIds() {}

  /**
   * The id of a violation a generation's checker found: its {@link Violation#identity()} with
   * transactions named by their txnIds.
   *
   * @param identity the violation's identity
   * @param h the history it was found in
   * @param names a transaction id of {@code h} (or {@link io.isowatch.checker.witness.Witness#INIT})
   *     to its txnId ({@code T_init} for the initial state)
   * @param level as {@link #of(Anomaly, List, String, Level)}
   * @return as {@link #of(Anomaly, List, String, Level)}, the evidence operation written {@code
   *     txnId#index} (its index in its transaction)
   */
  public static String of(Violation.Identity identity, History h, IntFunction<String> names, Level level) {
    List<String> ids = new ArrayList<>(identity.txns().size());
    for (int t : identity.txns()) {
      ids.add(names.apply(t));
    }
    String op = null;
    if (identity.op() != Violation.Identity.NO_OP) {
      int t = h.opTxn(identity.op());
      op = names.apply(t) + "#" + (identity.op() - h.opStart(t));
    }
    return of(identity.anomaly(), ids, op, level);
  }

  /**
   * @param anomaly the anomaly
   * @param txnIds the txnIds of the witness's transactions ({@code T_init} for the initial state),
   *     any order (they are sorted)
   * @param op for an anomaly without a cycle, the evidence operation as {@code txnId#index}; null
   *     for a cycle
   * @return the first {@value #LENGTH} hex characters of SHA-256 over the anomaly's id, the sorted
   *     txnIds and the operation, each on its own line (UTF-8)
   */
  public static String of(Anomaly anomaly, List<String> txnIds, String op) {
    return of(anomaly, txnIds, op, null);
  }

  /**
   * The id of a violation found by a check that names the weakest level it breaks: the same
   * anomaly over the same transactions found by checks of different levels (e.g. one cycle found by
   * the causal check before the read-committed check closes it) gets one id per level, so that the
   * weaker claim is published even after the stronger one.
   *
   * @param level the weakest level broken; null for none (then as {@link #of(Anomaly, List, String)})
   * @return as {@link #of(Anomaly, List, String)}, with a last line {@code level <cli name>}
   */
  public static String of(Anomaly anomaly, List<String> txnIds, String op, Level level) {
    List<String> sorted = new ArrayList<>(txnIds);
    sorted.sort(null);
    StringBuilder sb = new StringBuilder(anomaly.id());
    for (String id : sorted) {
      sb.append('\n').append(id);
    }
    if (op != null) {
      sb.append("\nop ").append(op);
    }
    if (level != null) {
      sb.append("\nlevel ").append(level.cliName());
    }
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d).substring(0, LENGTH);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
