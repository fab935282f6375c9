package io.isowatch.enginesim.run;

import io.isowatch.checker.history.TxnStatus;
import java.util.List;

/**
 * A completed simulated transaction, in the order transactions ended: what {@link
 * Simulation#run(io.isowatch.enginesim.engine.IsolationEngine, List, long, java.util.function.Consumer)}
 * hands its listener, for publishers that turn a simulation into a stream of transactions (no Kafka
 * or Avro here: the publisher maps it).
 *
 * @param session the session's name, e.g. {@code s0}
 * @param label the transaction's label in the history, {@code T<label>}: engine transaction id + 1
 *     (begin order, starting at 1)
 * @param status {@link TxnStatus#COMMITTED} or {@link TxnStatus#ABORTED} (engine refused the
 *     commit); a simulation never leaves an outcome unknown
 * @param ops the operations in program order; unmodifiable
 */
public record SimTransaction(String session, long label, TxnStatus status, List<SimOp> ops) {
  /** Copies {@code ops} so the record is immutable. */
  public SimTransaction {
    ops = List.copyOf(ops);
  }
}
