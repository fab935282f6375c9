package io.isowatch.checker.witness;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.ints.IntSet;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Writes a witness in words, after the search (Elle's habit: data first, words second). Names come
 * from the {@link History}: a transaction is {@code T<label>}, the initial transaction ({@link
 * Witness#INIT}) is {@value #INIT_NAME}, a key is its name in the source ({@code key 3} when that
 * name is a number, so that keys and values are not confused), the initial value is {@code init}
 * and a value nobody saw is {@code ?}.
 *
 * <p>Shapes: {@link #transaction} gives one line per transaction, {@link #edge} one sentence per
 * witness edge (chosen by its {@link Because}), {@link #summary} one sentence per violation, and
 * {@link #lines} all of them for one violation. The sentences for anomalies without a cycle are in
 * {@link AnomalySentences}. Rendering never throws on a well-formed history and witness; an
 * operation list of an unexpected shape falls back to listing the operations.
 */
public final class WitnessRenderer {
  /** How the initial transaction ({@link Witness#INIT}) is named. */
  public static final String INIT_NAME = "T_init";

  /** In {@link #lines}, transactions with more operations than this show only the witness's keys. */
  public static final int SHORT_TXN = 8;

  private final History h;
  private final AnomalySentences anomalies;
  private final IntFunction<String> names;

  /**
   * @param history the history the witnesses were found in; its transactions, operations and names
   *     are read, never modified
   */
  public WitnessRenderer(History history) {
    this(history, null);
  }

  /**
   * A renderer that names transactions by the caller's names instead of {@code T<label>}: the
   * streaming monitor names them by their txnId.
   *
   * @param history the history the witnesses were found in; read, never modified
   * @param names a transaction id of {@code history} to its name; never called with {@link
   *     Witness#INIT}; null for {@code T<label>}
   */
  public WitnessRenderer(History history, IntFunction<String> names) {
    this.h = history;
    this.names = names;
    this.anomalies = new AnomalySentences(this, history);
  }

  /**
   * @return {@code T<label>} (or the name given to the constructor), {@value #INIT_NAME} for {@link
   *     Witness#INIT}
   */
  public String txnName(int t) {
    if (t == Witness.INIT) {
      return INIT_NAME;
    }
    return names == null ? "T" + h.label(t) : names.apply(t);
  }

  /**
   * @return a key for sentences: its source name, prefixed with {@code key } when that name is a
   *     number (Plume, Elle and Cobra keys are numbers)
   */
  public String keyRef(int key) {
    String name = h.keyName(key);
    return isNumber(name) ? "key " + name : name;
  }

  /** @return a register value or list element: the number, {@code init} for NIL, {@code ?} if unseen */
  public static String value(long v) {
    if (v == History.NIL) {
      return "init";
    }
    return v == History.UNKNOWN_VALUE ? "?" : Long.toString(v);
  }

  /**
   * @return one operation in the compact notation: {@code r(x)=1}, {@code w(x)=2}, {@code
   *     append(k,5)}, {@code r(k)=[4, 5]}; {@code ?} for a result the client never saw
   */
  public String operation(int op) {
    String key = h.keyName(h.opKey(op));
    switch (h.opKind(op)) {
      case OpKind.WRITE:
        return "w(" + key + ")=" + value(h.opValue(op));
      case OpKind.APPEND:
        return "append(" + key + "," + value(h.opValue(op)) + ")";
      case OpKind.READ_LIST:
        return "r(" + key + ")=" + (h.listKnown(op) ? list(op) : "?");
      default:
        return "r(" + key + ")=" + value(h.opValue(op));
    }
  }

  /** @return the elements a known list read returned, e.g. {@code [4, 5]} or {@code []} */
  String list(int op) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0, n = h.listLength(op); i < n; i++) {
      sb.append(i == 0 ? "" : ", ").append(h.listElement(op, i));
    }
    return sb.append(']').toString();
  }

  /**
   * @return the transaction on one line: {@code T7 (session s1): r(x)=1 w(y)=2}, with {@code ,
   *     aborted} or {@code , outcome unknown} after the session when it did not commit; {@code
   *     T_init: the initial state} for {@link Witness#INIT}
   */
  public String transaction(int t) {
    return transaction(t, null);
  }

  /**
   * @param keys the keys a witness is about, or {@code null} for all: a transaction of more than
   *     {@link #SHORT_TXN} operations then shows only its operations on these keys, each gap as
   *     {@code ...}, and ends with {@code (k of n operations shown)}, or shows {@code (n operations,
   *     none on the witness's keys)}
   * @return the transaction on one line, as {@link #transaction(int)}
   */
  public String transaction(int t, IntSet keys) {
    if (t == Witness.INIT) {
      return INIT_NAME + ": the initial state";
    }
    StringBuilder sb = new StringBuilder(txnName(t)).append(" (session ")
        .append(h.sessionName(h.sessionOf(t)));
    TxnStatus status = h.status(t);
    if (status == TxnStatus.ABORTED) {
      sb.append(", aborted");
    } else if (status == TxnStatus.UNKNOWN) {
      sb.append(", outcome unknown");
    }
    sb.append("):");
    int start = h.opStart(t);
    int end = h.opEnd(t);
    boolean all = keys == null || end - start <= SHORT_TXN;
    int shown = 0;
    boolean gap = false;
    for (int op = start; op < end; op++) {
      if (all || keys.contains(h.opKey(op))) {
        sb.append(gap ? " ... " : " ").append(operation(op));
        shown++;
        gap = false;
      } else {
        gap = true;
      }
    }
    if (!all && shown == 0) {
      sb.append(" (").append(end - start).append(" operations, none on the witness's keys)");
    } else if (!all) {
      sb.append(gap ? " ..." : "").append(" (").append(shown).append(" of ").append(end - start)
          .append(" operations shown)");
    }
    return sb.toString();
  }

  /** @return {@link #edge(Edge, List)} with no evidence operations */
  public String edge(Edge e) {
    return edge(e, List.of());
  }

  /**
   * One sentence for one witness edge, chosen by its {@link Because}, e.g. {@code T8 precedes T7 in
   * commit order because T9 read x from T7 after reading from T8, which also writes x}.
   *
   * @param e the edge
   * @param ops the witness's evidence operations; an {@code rw} edge cites the reader's read of the
   *     key found there, else the reader's last read of the key
   * @return the sentence, without a final period
   */
  public String edge(Edge e, List<Integer> ops) {
    String from = txnName(e.from());
    String to = txnName(e.to());
    switch (e.because()) {
      case SESSION_ORDER:
        return from + " precedes " + to + " in session " + sessionOf(e.to());
      case READS_FROM:
        return appended(e.key(), e.value())
            ? to + " read " + from + "'s append of " + value(e.value()) + " to " + keyRef(e.key())
            : to + " read " + readValue(e.key(), e.value()) + " from " + from;
      case VERSION_ORDER:
        return versionOrder(e, from, to);
      case ANTI_DEPENDENCY:
        return antiDependency(e, ops, from, to);
      default:
        return from + " precedes " + to + " in commit order because " + premise(e, from, to);
    }
  }

  private String premise(Edge e, String from, String to) {
    String via = txnName(e.via());
    String key = e.key() >= 0 ? keyRef(e.key()) : "the key";
    switch (e.because()) {
      case READ_EARLIER:
        return via + " read " + key + " from " + to + " after reading from " + from
            + ", which also writes " + key;
      case SESSION_PREDECESSOR:
        return from + " precedes " + via + " in session " + sessionOf(e.via()) + " and writes " + key
            + ", and " + via + " read " + key + " from " + to;
      case READ_FROM_WRITER:
        return via + " read from " + from + ", which writes " + key + ", and read " + key + " from "
            + to;
      default:
        return from + " is in " + via + "'s causal past and writes " + key + ", and " + via
            + " read " + key + " from " + to;
    }
  }

  private String versionOrder(Edge e, String from, String to) {
    int before = e.from() == Witness.INIT ? -1 : lastWriteOf(e.from(), e.key());
    boolean list = before >= 0 && h.opKind(before) == OpKind.APPEND;
    String previous = before < 0 ? "the initial value" : value(h.opValue(before));
    if (list) {
      String shown = e.via() >= 0 ? ", as " + txnName(e.via()) + "'s read of " + keyRef(e.key()) + " shows" : "";
      return to + " appended " + value(e.value()) + " to " + keyRef(e.key()) + " after " + from
          + " appended " + previous + shown;
    }
    return to + " wrote " + keyRef(e.key()) + " = " + value(e.value()) + " after " + from
        + " wrote " + keyRef(e.key()) + " = " + previous;
  }

  private String antiDependency(Edge e, List<Integer> ops, String from, String to) {
    int read = readOf(e.from(), e.key(), ops);
    String act = appended(e.key(), e.value()) ? "append" : "write";
    String seen = read < 0 ? keyRef(e.key())
        : keyRef(e.key()) + " = " + (h.opKind(read) == OpKind.READ_LIST ? tail(read) : value(h.opValue(read)));
    return from + " read " + seen + " and so did not see " + to + "'s " + act + " of "
        + value(e.value());
  }

  private boolean appended(int key, long v) {
    int w = key < 0 || v == History.NIL ? -1 : h.writes().writerOf(key, v);
    return w >= 0 && h.opKind(w) == OpKind.APPEND;
  }

  /** @return a list read's value shortened to its last element: {@code [.., 4]}, {@code [4]}, {@code []} */
  private String tail(int op) {
    if (!h.listKnown(op)) {
      return "?";
    }
    int n = h.listLength(op);
    if (n == 0) {
      return "[]";
    }
    return (n > 1 ? "[.., " : "[") + h.listElement(op, n - 1) + "]";
  }

  /** @return {@code x = 5}, or {@code x = init} */
  String readValue(int key, long v) {
    return keyRef(key) + " = " + value(v);
  }

  String sessionOf(int t) {
    return t < 0 ? "?" : h.sessionName(h.sessionOf(t));
  }

  /** @return the last write or append of {@code key} in {@code t}, or -1 */
  int lastWriteOf(int t, int key) {
    int found = -1;
    for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
      if (OpKind.isWrite(h.opKind(op)) && h.opKey(op) == key) {
        found = op;
      }
    }
    return found;
  }

  private int readOf(int t, int key, List<Integer> ops) {
    if (t < 0) {
      return -1;
    }
    for (int op : ops) {
      if (op >= 0 && op < h.opCount() && h.opTxn(op) == t && h.opKey(op) == key
          && OpKind.isRead(h.opKind(op))) {
        return op;
      }
    }
    int found = -1;
    for (int op = h.opStart(t), end = h.opEnd(t); op < end; op++) {
      if (OpKind.isRead(h.opKind(op)) && h.opKey(op) == key) {
        found = op;
      }
    }
    return found;
  }

  /**
   * One sentence for the whole violation: for a cycle, its transactions in order and how many of
   * its edges are inferred commit order; otherwise what the offending read saw and why that breaks
   * the axiom, e.g. {@code T3 read x = 9, which no transaction wrote}.
   *
   * @return the sentence, without a final period
   */
  public String summary(Violation v) {
    Witness w = v.witness();
    if (w.edges().isEmpty()) {
      return anomalies.sentence(v.anomaly(), w);
    }
    StringBuilder chain = new StringBuilder();
    for (Edge e : w.edges()) {
      chain.append(txnName(e.from())).append(" -> ");
    }
    chain.append(txnName(w.edges().get(0).from()));
    int n = w.edges().size();
    int inferred = w.inferredEdges();
    return "cycle " + chain + " (" + n + (n == 1 ? " edge" : " edges")
        + (inferred > 0 ? ", " + inferred + " inferred commit order" : "") + ")";
  }

  /**
   * @return the violation in words: the {@link #summary} first, then each transaction of the
   *     witness and every one needed to re-verify it ({@link Witness#involved()}), each {@link
   *     #transaction(int, IntSet)} on the keys of the witness's edges, support and operations, then one sentence per edge ({@link #edge}) after its type ({@code
   *     so: }, {@code wr: }, {@code co: } ...), then one per supporting edge ({@code support, wr:
   *     } ...) that puts the source of a causal-past edge in its reader's past; no indentation
   */
  public List<String> lines(Violation v) {
    List<String> out = new ArrayList<>();
    out.add(summary(v));
    List<Integer> txns = v.witness().involved();
    IntSet keys = new IntOpenHashSet();
    for (List<Edge> es : List.of(v.witness().edges(), v.witness().support())) {
      for (Edge e : es) {
        if (e.key() >= 0) {
          keys.add(e.key());
        }
      }
    }
    for (int op : v.witness().ops()) {
      keys.add(h.opKey(op));
    }
    for (int t : txns) {
      out.add(transaction(t, keys));
    }
    for (Edge e : v.witness().edges()) {
      out.add(e.type().id() + ": " + edge(e, v.witness().ops()));
    }
    for (Edge e : v.witness().support()) {
      out.add("support, " + e.type().id() + ": " + edge(e, v.witness().ops()));
    }
    return out;
  }

  private static boolean isNumber(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = s.charAt(0) == '-' && s.length() > 1 ? 1 : 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }
}
