package io.isowatch.checker.witness;

import java.util.LinkedHashSet;
import java.util.List;

/**
 * Evidence for a violation, as data; {@link WitnessRenderer} turns it into words.
 *
 * @param txns transaction ids involved ({@link #INIT} for the initial transaction), in the order the explanation visits them (for a cycle: the
 *     cycle's order, starting anywhere)
 * @param ops operation ids that are the evidence (the offending reads and the writes they saw); may
 *     be empty for a cycle, whose edges name their keys
 * @param edges for a cycle, its edges in order, each edge's {@code to} being the next one's {@code
 *     from} and the last edge's {@code to} the first's {@code from}; empty for a non-cycle anomaly
 * @param support observed edges ({@code so}, {@code wr}) that establish the premises of inferred
 *     edges which the cycle alone does not show: for each {@link Because#CAUSAL_PAST} edge, a path
 *     from its source to its reader, so that the witness can be re-verified without the history
 * @param cases for a violation no single cycle shows (snapshot isolation or serializable on a
 *     register history, decided by the polygraph solver): cases that together cover every version
 *     order of the pairs involved, each with the cycle its orders close; empty otherwise
 */
public record Witness(List<Integer> txns, List<Integer> ops, List<Edge> edges, List<Edge> support,
    List<Case> cases) {
  /** The id that stands for the initial transaction, which wrote every key's initial value. */
  public static final int INIT = -1;

  /** Copies the lists so that the witness is immutable. */
  public Witness {
    cases = List.copyOf(cases);
    txns = List.copyOf(txns);
    ops = List.copyOf(ops);
    edges = List.copyOf(edges);
    support = List.copyOf(support);
  }

  /** A witness without cases. */
  public Witness(List<Integer> txns, List<Integer> ops, List<Edge> edges, List<Edge> support) {
    this(txns, ops, edges, support, List.of());
  }

  /** A witness whose edges need no support. */
  public Witness(List<Integer> txns, List<Integer> ops, List<Edge> edges) {
    this(txns, ops, edges, List.of());
  }

  /**
   * An order of the writes of two transactions to the keys both write: {@code first}'s come before
   * {@code second}'s.
   *
   * @param first a transaction id
   * @param second a transaction id
   */
  public record Order(int first, int second) {}

  /**
   * One case of a violation shown by cases: the orders it assumes and the cycle they close with what
   * the history shows. Its {@code ww} and {@code rw} edges that rest on an assumed order have {@link
   * Because#CHOSEN_ORDER}.
   *
   * @param orders the orders assumed
   * @param cycle the cycle, each edge's {@code to} the next one's {@code from}
   */
  public record Case(List<Order> orders, List<Edge> cycle) {
    /** Copies the lists. */
    public Case {
      orders = List.copyOf(orders);
      cycle = List.copyOf(cycle);
    }
  }

  /**
   * @return every transaction needed to re-verify the witness, each once: {@link #txns()}, then the
   *     readers ({@link Edge#via()}) whose reads force its inferred edges, then the transactions on
   *     its support paths
   */
  public List<Integer> involved() {
    LinkedHashSet<Integer> ts = new LinkedHashSet<>(txns);
    for (Edge e : edges) {
      if (e.via() >= 0) {
        ts.add(e.via());
      }
    }
    for (Edge e : support) {
      ts.add(e.from());
      ts.add(e.to());
    }
    for (Case c : cases) {
      for (Edge e : c.cycle()) {
        ts.add(e.from());
        if (e.via() >= 0) {
          ts.add(e.via());
        }
      }
    }
    return List.copyOf(ts);
  }

  /** @return the number of inferred {@code co} edges, the cost a checker minimises */
  public int inferredEdges() {
    int n = 0;
    for (Edge e : edges) {
      if (e.type() == EdgeType.CO) {
        n++;
      }
    }
    return n;
  }
}
