package io.isowatch.checker.witness;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Writes a witness in words, after the search (Elle's habit: data first, words second). Names come
 * from the {@link History}: a transaction is {@code T<label>}, the initial transaction ({@link
 * Witness#INIT}) is {@value #INIT_NAME}, a key is its name in the source ({@code key 3} when that
 * name is a number, so that keys and values are not confused), the initial value is {@code init}
 * and a value nobody saw is {@code ?}.
 *
 * <p>Shapes: {@link #operation} gives one operation, {@link #edge} one sentence per witness edge
 * (chosen by its {@link Because}), {@link #summary} one sentence per violation; {@code
 * checker.finding.Findings} puts them together into a finding, whose {@code lines()} are the
 * violation in words. The sentences for anomalies without a cycle are in
 * {@link AnomalySentences}. Rendering never throws on a well-formed history and witness; an
 * operation list of an unexpected shape falls back to listing the operations.
 */
public final class WitnessRenderer {
  /** How the initial transaction ({@link Witness#INIT}) is named. */
  public static final String INIT_NAME = "T_init";

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
        return e.from() == Witness.INIT
            ? from + ", the initial state, precedes " + to + " as it precedes every transaction"
            : from + " precedes " + to + " in session " + sessionOf(e.to());
      case READS_FROM:
        return appended(e.key(), e.value())
            ? to + " read " + from + "'s append of " + value(e.value()) + " to " + keyRef(e.key())
            : to + " read " + readValue(e.key(), e.value()) + " from " + from;
      case VERSION_ORDER:
        return versionOrder(e, from, to);
      case ANTI_DEPENDENCY:
        return antiDependency(e, ops, from, to);
      case CHOSEN_ORDER:
        return chosenOrder(e, from, to);
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

  /**
   * An edge of a case ({@link Witness.Case}): for {@code ww}, {@code this case puts T2's write of x = 2
   * after T1's write of x = 1}; for {@code rw}, {@code T3 read x = 1 from T1, and this case puts T2's
   * write of x = 2 after T1's}.
   */
  private String chosenOrder(Edge e, String from, String to) {
    String target = "this case puts " + to + "'s write of " + keyRef(e.key()) + " = "
        + value(h.opValue(lastWriteOf(e.to(), e.key())));
    if (e.type() == EdgeType.WW) {
      return target + " after " + from + "'s write of " + keyRef(e.key()) + " = "
          + value(h.opValue(lastWriteOf(e.from(), e.key())));
    }
    String writer = txnName(e.via());
    return from + " read " + keyRef(e.key()) + " = " + value(e.value()) + " from " + writer + ", and " + target
        + " after " + writer + "'s";
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
    if (!w.cases().isEmpty()) {
      return casesSummary(w);
    }
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
        + (inferred > 0 ? ", " + inferred + (inferred == 1 ? " inferred commit order" : " inferred commit orders") : "")
        + ")";
  }

  /**
   * @return e.g. {@code no order of the writes of T3 and T8, T2 and T3 avoids a cycle (3 cases)}:
   *     the pairs the cases order, each once
   */
  private String casesSummary(Witness w) {
    Set<String> pairs = new LinkedHashSet<>();
    for (Witness.Case c : w.cases()) {
      for (Witness.Order o : c.orders()) {
        int a = Math.min(o.first(), o.second());
        int b = Math.max(o.first(), o.second());
        pairs.add(txnName(a) + " and " + txnName(b));
      }
    }
    int n = w.cases().size();
    return "no order of the writes of " + String.join(", ", pairs) + " avoids a cycle (" + n
        + (n == 1 ? " case" : " cases") + ")";
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
