package io.isowatch.checker.window;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.EdgeType;
import java.util.List;

/**
 * A violation found by the {@link WindowChecker}, in a form that needs no history afterwards.
 *
 * @param id stable identity: a hex SHA-256 prefix (32 characters) of the anomaly, the sorted txnIds
 *     of the witness's transactions and, for an anomaly without a cycle, its first evidence operation
 *     ({@code txnId#index}); the same anomaly re-found (in another generation, after a restart) has
 *     the same id
 * @param check the check that found it ({@code null} for an unresolved read, which the window
 *     itself reports)
 * @param anomaly what kind of violation
 * @param level the weakest level the witness breaks
 * @param summary one sentence for the whole violation
 * @param txns every transaction needed to re-verify it ({@link
 *     io.isowatch.checker.witness.Witness#involved()}), in the explanation's order; {@link
 *     WindowTxn#INITIAL} for the initial state
 * @param edges for a cycle, its edges in order; empty otherwise
 * @param windowStart the earliest event time of the transactions of the generation it was found in, µs
 * @param windowEnd the latest one, µs
 * @param windowTxns transactions in that generation
 * @param closingTime event time of the transaction whose arrival completed it (or of the stream
 *     time that expired a grace period), µs
 * @param lastSeq the latest feed position among its transactions; its id is forgotten once every
 *     generation starts after it
 */
public record WindowViolation(
    String id,
    LevelPlan.Check check,
    Anomaly anomaly,
    Level level,
    String summary,
    List<WindowTxn> txns,
    List<Edge> edges,
    long windowStart,
    long windowEnd,
    long windowTxns,
    long closingTime,
    long lastSeq) {

  /** Copies the lists. */
  public WindowViolation {
    txns = List.copyOf(txns);
    edges = List.copyOf(edges);
  }

  /**
   * One typed edge of a witness.
   *
   * @param from source txnId
   * @param to target txnId
   * @param type so, wr, ww, rw or co
   * @param key the key involved, null for so
   * @param value the value the explanation cites, null when none
   * @param explanation one sentence saying why the edge holds ({@link
   *     io.isowatch.checker.witness.WitnessRenderer#edge})
   */
  public record Edge(String from, String to, EdgeType type, String key, Long value, String explanation) {}
}
