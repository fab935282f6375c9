package io.isowatch.stream.check;

import io.isowatch.checker.window.WindowTxn;
import io.isowatch.checker.window.WindowViolation;
import io.isowatch.schemas.EdgeType;
import io.isowatch.schemas.EventTimes;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.Window;
import io.isowatch.schemas.Witness;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.schemas.WitnessTransaction;
import io.isowatch.schemas.mapping.StatusMapping;
import io.isowatch.schemas.mapping.TransactionMapping;
import java.util.ArrayList;
import java.util.List;

/**
 * A window checker's violation as the Avro {@link Violation} record of {@code schemas/}; its
 * transactions go through {@link TransactionMapping}. Times: Avro {@code timestamp-micros} fields
 * are {@code Instant}s, the checker's are microseconds since the epoch ({@link EventTimes}).
 */
final class Records {
  private Records() {}

  /**
   * @param detectedAt stream time of detection, µs
   * @return the violation record; the initial state appears as transaction {@code T_init} of
   *     session {@code ""}, committed, with no operations
   */
  static Violation toAvro(String historyId, WindowViolation v, long detectedAt) {
    List<WitnessTransaction> txns = new ArrayList<>(v.txns().size());
    for (WindowTxn t : v.txns()) {
      txns.add(new WitnessTransaction(t.id(), t.session(), StatusMapping.toAvro(t.status()),
          TransactionMapping.operations(t)));
    }
    List<WitnessEdge> edges = new ArrayList<>(v.edges().size());
    for (WindowViolation.Edge e : v.edges()) {
      edges.add(new WitnessEdge(e.from(), e.to(), EdgeType.valueOf(e.type().name()), e.key(), e.value(),
          e.explanation()));
    }
    return new Violation(historyId, v.id(), EventTimes.instant(detectedAt), Level.valueOf(v.level().name()),
        v.anomaly().id(), new Witness(txns, edges),
        new Window(EventTimes.instant(v.windowStart()), EventTimes.instant(v.windowEnd()), v.windowTxns()), v.summary());
  }
}
