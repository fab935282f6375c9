package io.isowatch.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A witness ready to be drawn: names, operations and sentences as text, whichever side found it
 * ({@link WitnessViews#of(io.isowatch.checker.history.History, io.isowatch.checker.witness.Violation,
 * String, String)} for {@code isowatch check}, {@link WitnessViews#of(io.isowatch.schemas.Violation)}
 * for a violation the monitor published). {@link WitnessSvg}, {@link HtmlPage} and {@link DotWriter}
 * read only this, so the offline report and the monitor's violations page draw a witness the same
 * way.
 *
 * @param id identifies the witness on its page and in links: the violation id, or {@code v1},
 *     {@code v2} ... in a check report; any characters (escaped where written)
 * @param title one line naming the anomaly and the weakest level broken
 * @param facts further lines shown under the title (history, detection time, window), may be empty
 * @param summary one sentence for the whole violation ({@code cycle T1 -> T2 -> T1 (2 edges)}, or
 *     what the offending read saw), without a final period; {@code null} when unknown
 * @param txns the transactions involved, in the explanation's order (for a cycle, the cycle's)
 * @param edges for a cycle, its edges in order; empty for an anomaly without a cycle
 * @param support observed edges that establish the premises of the cycle's inferred edges
 */
public record WitnessView(
    String id, String title, List<String> facts, String summary, List<Txn> txns, List<Arrow> edges,
    List<Arrow> support) {
  /** Operations a transaction may show in full; longer ones show only the witness's keys. */
  public static final int SHORT_TXN = 8;
  /** What stands for operations left out of a transaction. */
  public static final String GAP = "...";

  /** Copies the lists. */
  public WitnessView {
    facts = List.copyOf(facts);
    txns = List.copyOf(txns);
    edges = List.copyOf(edges);
    support = List.copyOf(support);
  }

  /**
   * A transaction of the witness.
   *
   * @param name {@code T12}, a txnId, or {@code T_init} for the initial state
   * @param session its session, {@code null} for the initial state
   * @param status {@code committed}, {@code aborted} or {@code outcome unknown}; {@code null} for
   *     the initial state
   * @param ops all its operations in program order
   */
  public record Txn(String name, String session, String status, List<Op> ops) {
    /** Copies the list. */
    public Txn {
      ops = List.copyOf(ops);
    }

    /**
     * @return the header line of its box: {@code T12 (session s3)}, {@code T12 (session s3,
     *     aborted)}, or just the name for the initial state
     */
    public String header() {
      if (session == null) {
        return name;
      }
      return name + " (session " + session + ("committed".equals(status) ? ")" : ", " + status + ")");
    }

    /**
     * @return the transaction on one line: {@code T12 (session s3): r(k1)=[.., 7] append(k1,20)},
     *     {@code T_init: the initial state}
     */
    public String line() {
      if (session == null) {
        return name + ": the initial state";
      }
      StringBuilder sb = new StringBuilder(header()).append(':');
      for (Op op : ops) {
        sb.append(' ').append(op.text());
      }
      return sb.toString();
    }

    /**
     * @param keys the keys the witness is about ({@link WitnessView#keys()})
     * @return the operations' texts: all of them when there are at most {@link #SHORT_TXN} or
     *     {@code keys} is empty; otherwise those on {@code keys}, each run of left-out operations as
     *     {@link #GAP}, or, when none is on {@code keys}, one line {@code ... (n operations)}
     */
    public List<String> shownOps(Set<String> keys) {
      List<String> out = new ArrayList<>();
      boolean all = ops.size() <= SHORT_TXN || keys.isEmpty();
      boolean gap = false;
      for (Op op : ops) {
        if (all || keys.contains(op.key())) {
          if (gap) {
            out.add(GAP);
          }
          out.add(op.text());
          gap = false;
        } else {
          gap = true;
        }
      }
      if (out.isEmpty() && !ops.isEmpty()) {
        return List.of(GAP + " (" + ops.size() + " operations)");
      }
      if (gap) {
        out.add(GAP);
      }
      return out;
    }
  }

  /**
   * One operation.
   *
   * @param key the key it reads or writes
   * @param text in the compact notation, e.g. {@code r(x)=1}, {@code append(k,5)}
   */
  public record Op(String key, String text) {}

  /**
   * One typed edge between two transactions.
   *
   * @param from source transaction's name
   * @param to target transaction's name
   * @param type {@code so}, {@code wr}, {@code ww}, {@code rw} or {@code co}
   * @param key the key involved, {@code null} for none
   * @param value the value the explanation cites, as text; {@code null} for none
   * @param explanation one sentence saying why the edge holds, without a final period
   */
  public record Arrow(String from, String to, String type, String key, String value, String explanation) {
    /** @return the arrow's label: {@code rw k4=21}, {@code co x}, {@code so} */
    public String label() {
      if (key == null) {
        return type;
      }
      return type + " " + key + (value == null ? "" : "=" + value);
    }
  }

  /** @return the keys of the edges and support edges, in order, each once; empty without edges */
  public Set<String> keys() {
    Set<String> keys = new LinkedHashSet<>();
    for (List<Arrow> as : List.of(edges, support)) {
      for (Arrow a : as) {
        if (a.key() != null) {
          keys.add(a.key());
        }
      }
    }
    return keys;
  }

  /** @return the names of the cycle's transactions, in the cycle's order, each once */
  public List<String> cycle() {
    Set<String> names = new LinkedHashSet<>();
    for (Arrow a : edges) {
      names.add(a.from());
    }
    return List.copyOf(names);
  }
}
