package io.isowatch.checker.awdit;

import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.EdgeType;

/** Receives the edges of {@code so ∪ wr ∪ co'} as the saturation finds them; nodes are txn + 1, 0 is INIT. */
interface EdgeSink {
  /**
   * @param fromNode source node
   * @param toNode target node
   * @param type edge type
   * @param because why it holds
   * @param key key involved, -1 for none
   * @param value value cited, {@link io.isowatch.checker.history.History#NIL} for none
   * @param via reader transaction for inferred edges, -1 otherwise
   */
  void edge(int fromNode, int toNode, EdgeType type, Because because, int key, long value, int via);
}
