package io.isowatch.checker.finding;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.EdgeType;
import io.isowatch.checker.witness.WitnessRenderer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A violation that needs no history afterwards: what every output takes (the monitor's window
 * checker and violations topic, the text and JSON reports, the HTML, DOT and SVG pictures, the
 * violations page). Built from a checker's {@link io.isowatch.checker.witness.Violation} by {@link
 * Findings#of}; from a published Avro record by the {@code schemas} module's mapping.
 *
 * @param anomaly what kind of violation; {@code null} when read from a published record that names
 *     one this version does not know
 * @param level the weakest level the witness breaks
 * @param summary one sentence for the whole violation ({@code cycle T1 -> T2 -> T1 (2 edges)}, or
 *     what the offending read saw), without a final period; {@code null} when unknown (a record
 *     published before the field existed, with no cycle)
 * @param txns every transaction needed to re-verify it ({@link
 *     io.isowatch.checker.witness.Witness#involved()}), in the explanation's order (for a cycle, the
 *     cycle's); {@link Txn#initial()} for the initial state
 * @param evidence the operations that are the evidence ({@link
 *     io.isowatch.checker.witness.Witness#ops()}: the offending reads and the writes they saw), each
 *     with its transaction's name; empty when not known (a published record does not carry them)
 * @param edges for a cycle, its edges in order; empty otherwise
 * @param support observed edges that establish the premises of the cycle's inferred edges
 */
public record Finding(Anomaly anomaly, Level level, String summary, List<Txn> txns, List<Evidence> evidence,
    List<Arrow> edges, List<Arrow> support) {
  /** Operations a transaction may show in full; longer ones show only the witness's keys. */
  public static final int SHORT_TXN = 8;
  /** What stands for operations left out of a transaction. */
  public static final String GAP = "...";

  /** Copies the lists. */
  public Finding {
    txns = List.copyOf(txns);
    evidence = List.copyOf(evidence);
    edges = List.copyOf(edges);
    support = List.copyOf(support);
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

  /**
   * @return the violation in words, as {@code isowatch check} prints it: the {@link #summary()}
   *     first, then each transaction on one line ({@link Txn#line(Set)} on the keys of the edges,
   *     support edges and evidence), then one sentence per edge after its type ({@code so: }, {@code
   *     wr: }, {@code co: } ...), then one per support edge ({@code support, wr: } ...); no
   *     indentation
   */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(summary);
    Set<String> keys = new HashSet<>(keys());
    for (Evidence e : evidence) {
      keys.add(e.op().key());
    }
    for (Txn t : txns) {
      out.add(t.line(keys));
    }
    for (Arrow a : edges) {
      out.add(a.type().id() + ": " + a.explanation());
    }
    for (Arrow a : support) {
      out.add("support, " + a.type().id() + ": " + a.explanation());
    }
    return out;
  }

  /**
   * A transaction of the witness.
   *
   * @param name {@code T12}, a txnId, or {@value WitnessRenderer#INIT_NAME} for the initial state
   * @param session its session, {@code null} for the initial state
   * @param status its outcome; {@code null} for the initial state
   * @param ops all its operations in program order
   */
  public record Txn(String name, String session, TxnStatus status, List<Op> ops) {
    /** Copies the list. */
    public Txn {
      ops = List.copyOf(ops);
    }

    /** @return the initial state: {@value WitnessRenderer#INIT_NAME}, no session, status or operations */
    public static Txn initial() {
      return new Txn(WitnessRenderer.INIT_NAME, null, null, List.of());
    }

    /** @return whether this is the initial state */
    public boolean isInitial() {
      return session == null;
    }

    /**
     * @return the header line of its box: {@code T12 (session s3)}, {@code T12 (session s3,
     *     aborted)}, or just the name for the initial state
     */
    public String header() {
      if (session == null) {
        return name;
      }
      return name + " (session " + session + (status == TxnStatus.COMMITTED ? ")" : ", " + status.text() + ")");
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
     * @param keys the keys a witness is about: a transaction of more than {@link #SHORT_TXN}
     *     operations shows only its operations on these keys, each gap as {@code ...}, and ends with
     *     {@code (k of n operations shown)}, or shows {@code (n operations, none on the witness's
     *     keys)}
     * @return the transaction on one line, as {@link #line()}
     */
    public String line(Set<String> keys) {
      if (session == null || ops.size() <= SHORT_TXN) {
        return line();
      }
      StringBuilder sb = new StringBuilder(header()).append(':');
      int shown = 0;
      boolean gap = false;
      for (Op op : ops) {
        if (keys.contains(op.key())) {
          sb.append(gap ? " ... " : " ").append(op.text());
          shown++;
          gap = false;
        } else {
          gap = true;
        }
      }
      if (shown == 0) {
        return sb.append(" (").append(ops.size()).append(" operations, none on the witness's keys)").toString();
      }
      return sb.append(gap ? " ..." : "").append(" (").append(shown).append(" of ").append(ops.size())
          .append(" operations shown)").toString();
    }

    /**
     * @param keys the keys the witness is about ({@link Finding#keys()})
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
   * One operation, as data and as text.
   *
   * @param kind a constant of {@link OpKind}
   * @param key the key it reads or writes
   * @param value the value a register read returned ({@link History#NIL} for the initial value,
   *     {@link History#UNKNOWN_VALUE} for one not known), or the value written or appended; unused
   *     (0) for a list read
   * @param list for a list read, the elements it returned, oldest first; {@code null} otherwise and
   *     for a list read whose result is not known
   * @param text in the compact notation, e.g. {@code r(x)=1}, {@code append(k,5)}
   */
  public record Op(byte kind, String key, long value, List<Long> list, String text) {
    /** Copies the list. */
    public Op {
      list = list == null ? null : List.copyOf(list);
    }

    /**
     * @return the operation with its text in the monitor's notation: {@code w(x)=2}, {@code
     *     append(k,5)}, {@code r(x)=init} for the initial value, a list read by its last element only
     *     ({@code r(k)=[.., 7]}, {@code r(k)=[7]}, {@code r(k)=[]}), as the witness sentences cite it
     */
    public static Op of(byte kind, String key, long value, List<Long> list) {
      String text;
      switch (kind) {
        case OpKind.WRITE:
          text = "w(" + key + ")=" + value;
          break;
        case OpKind.APPEND:
          text = "append(" + key + "," + value + ")";
          break;
        case OpKind.READ_LIST:
          text = "r(" + key + ")=" + (list.isEmpty() ? "[]"
              : (list.size() > 1 ? "[.., " : "[") + list.get(list.size() - 1) + "]");
          break;
        default:
          text = "r(" + key + ")=" + (value == History.NIL ? "init" : Long.toString(value));
      }
      return new Op(kind, key, value, list, text);
    }
  }

  /**
   * One evidence operation.
   *
   * @param txn the name of its transaction
   * @param op the operation
   */
  public record Evidence(String txn, Op op) {}

  /**
   * One typed edge between two transactions, with why it holds.
   *
   * @param from source transaction's name
   * @param to target transaction's name
   * @param type so, wr, ww, rw or co
   * @param because the observation or axiom premise that makes it hold; {@code null} when not known
   *     (a published record does not carry it)
   * @param key the key involved, {@code null} for none
   * @param value the value the explanation cites, {@code null} for none
   * @param via for an inferred {@code co} edge, the name of the reader whose reads force it; {@code
   *     null} otherwise
   * @param explanation one sentence saying why the edge holds, without a final period
   */
  public record Arrow(String from, String to, EdgeType type, Because because, String key, Long value, String via,
      String explanation) {
    /** @return the arrow's label: {@code rw k4=21}, {@code co x}, {@code so} */
    public String label() {
      if (key == null) {
        return type.id();
      }
      return type.id() + " " + key + (value == null ? "" : "=" + value);
    }
  }
}
