package io.isowatch.checker.adya;

import io.isowatch.checker.graph.Digraph;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.Edge;
import io.isowatch.checker.witness.EdgeType;
import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.List;

/**
 * Adya's direct serialization graph (Adya, MIT 1999, §3) of a list-append history, over the
 * transactions in the graph ({@link Scope#inGraph}), with the version order of {@link VersionOrder}:
 *
 * <ul>
 *   <li>{@code ww} from the transaction of each run of a key to the transaction of the next run, and
 *       from the last run's transaction to every committed transaction with an unobserved append of
 *       the key;
 *   <li>{@code wr} from the appender of a committed read's last element to the reader;
 *   <li>{@code rw} from a committed reader of a run (or of the empty list) to the transaction of the
 *       next run, or, after the last run, to every committed unobserved appender of the key;
 *   <li>{@code so} between consecutive graph transactions of each session, when asked for.
 * </ul>
 *
 * On register keys ({@link RegisterVersions}): {@code wr} from the writer of the value a committed
 * read returned to the reader, and {@code rw} from external readers of the initial value to every
 * version's writer and from external readers of a version to the writer of the version that
 * writes-follow-reads puts right after it; no {@code ww}.
 *
 * <p>A read of the reader's own run gives no edge (its {@code ww} to the next run already holds); a
 * read of a run gives no {@code rw} to that run's own transaction (a read of its intermediate state,
 * G1b, is reported apart). A
 * read whose last element is not in the order (incompatible, aborted, or unknown) gives its {@code
 * wr} edge only, or none.
 *
 * <p>Each edge keeps three primitives besides its ends: its type, one operation and one element,
 * from which the witness {@link Edge} is rebuilt: for {@code ww} the source's last append and the
 * target's first appended element; for {@code wr} the read and the element read; for {@code rw}
 * the read and the element it did not see. No object is allocated per edge. O(operations + edges).
 */
final class DependencyGraph {
  static final byte WW = 0;
  static final byte WR = 1;
  static final byte RW = 2;
  static final byte SO = 3;

  final Digraph g;
  private final History h;
  /** Node to transaction id, or null when node {@code t} is transaction {@code t}. */
  private final int[] txnOf;
  private final ByteArrayList type = new ByteArrayList();
  private final IntArrayList op = new IntArrayList();
  private final LongArrayList value = new LongArrayList();

  /**
   * A graph over some of {@code h}'s transactions with the given edges, as the incremental checker
   * hands a strongly connected region to {@link CycleSearch} ({@link LiveDependencies#region}).
   *
   * @param txns node {@code i} is transaction {@code txns[i]}
   * @param from per edge, its source node; {@code to}, {@code types}, {@code ops}, {@code values}
   *     likewise: the target node, type ({@link #WW} ...), evidence operation (in {@code h}) and
   *     element, as this class's own constructor draws them
   */
  DependencyGraph(History h, int[] txns, IntArrayList from, IntArrayList to, ByteArrayList types, IntArrayList ops,
      LongArrayList values) {
    this.h = h;
    this.txnOf = txns;
    g = new Digraph(txns.length);
    for (int e = 0; e < from.size(); e++) {
      add(from.getInt(e), to.getInt(e), types.getByte(e), ops.getInt(e), values.getLong(e));
    }
  }

  DependencyGraph(VersionOrder vo, RegisterVersions rv, boolean sessionOrder) {
    Scope scope = vo.scope;
    h = scope.history();
    txnOf = null;
    g = new Digraph(scope.limit());
    for (int k = 0; k < h.keyCount(); k++) {
      versionEdges(vo, k);
    }
    for (int t = 0; t < scope.limit(); t++) {
      if (!scope.committed(t)) {
        continue;
      }
      for (int r = h.opStart(t), end = h.opEnd(t); r < end; r++) {
        if (h.opKind(r) == OpKind.READ_LIST && h.listKnown(r)) {
          readEdges(vo, t, r);
        } else if (h.opKind(r) == OpKind.READ) {
          int w = rv.writer(h.opKey(r), h.opValue(r));
          if (w >= 0 && scope.inGraph(h.opTxn(w)) && h.opTxn(w) != t) {
            add(h.opTxn(w), t, WR, r, h.opValue(r));
          }
        }
      }
    }
    for (int k = 0; k < h.keyCount(); k++) {
      registerAntiDependencies(rv, k);
    }
    if (sessionOrder) {
      for (int s = 0; s < h.sessionCount(); s++) {
        IntArrayList txns = h.sessionTxns(s);
        int prev = -1;
        for (int i = 0; i < txns.size(); i++) {
          int t = txns.getInt(i);
          if (scope.inGraph(t)) {
            if (prev >= 0) {
              add(prev, t, SO, -1, History.NIL);
            }
            prev = t;
          }
        }
      }
    }
  }

  private void versionEdges(VersionOrder vo, int k) {
    for (int run = vo.firstRun(k), next; run >= 0 && (next = vo.nextRun(k, run)) >= 0; run = next) {
      add(vo.runTxn.getInt(run), vo.runTxn.getInt(next), WW, vo.runLastOp.getInt(run),
          h.opValue(vo.runFirstOp.getInt(next)));
    }
    int last = vo.lastRun(k);
    if (last < 0) {
      return;
    }
    for (int i = vo.keyUnobservedStart[k]; i < vo.keyUnobservedStart[k + 1]; i++) {
      int w = vo.unobservedOp[i];
      if (h.opTxn(w) != vo.runTxn.getInt(last)) {
        add(vo.runTxn.getInt(last), h.opTxn(w), WW, vo.runLastOp.getInt(last), h.opValue(w));
      }
    }
  }

  private void readEdges(VersionOrder vo, int t, int r) {
    int k = h.opKey(r);
    int n = h.listLength(r);
    int next;
    int versionTxn = -1;
    if (n == 0) {
      next = vo.firstRun(k);
    } else {
      long e = h.listElement(r, n - 1);
      int w = vo.writer(k, e);
      if (w < 0 || !vo.scope.inGraph(h.opTxn(w)) || h.opTxn(w) == t) {
        return;
      }
      versionTxn = h.opTxn(w);
      add(versionTxn, t, WR, r, e);
      int run = vo.opRun[w];
      if (run < 0) {
        return;
      }
      next = vo.nextRun(k, run);
    }
    if (next >= 0) {
      if (vo.runTxn.getInt(next) != t) {
        add(t, vo.runTxn.getInt(next), RW, r, h.opValue(vo.runFirstOp.getInt(next)));
      }
      return;
    }
    for (int i = vo.keyUnobservedStart[k]; i < vo.keyUnobservedStart[k + 1]; i++) {
      int w = vo.unobservedOp[i];
      if (h.opTxn(w) != t && h.opTxn(w) != versionTxn) {
        add(t, h.opTxn(w), RW, r, h.opValue(w));
      }
    }
  }

  /**
   * {@code rw} edges of register key {@code k}: from each external reader of the initial value to
   * every version's writer, and from each external reader of version {@code v} to the writer of a
   * version that writes-follow-reads puts right after {@code v}. A read of a version to the writer
   * of a later (not only the next) version is an anti-dependency in the dependency graphs of
   * Cerone &amp; Gotsman (PODC 2016, §4), whose cycles decide snapshot isolation and serializability
   * as Adya's do; Elle draws the same edges.
   */
  private void registerAntiDependencies(RegisterVersions rv, int k) {
    for (int i = rv.versionStart(k); i < rv.versionEnd(k); i++) {
      int version = rv.versions[i];
      int writer = h.opTxn(version);
      readersTo(rv, k, History.NIL, writer, version);
      int p = rv.wfrPred[i];
      if (p >= 0) {
        readersTo(rv, k, h.opValue(rv.versions[p]), writer, version);
      }
    }
  }

  private void readersTo(RegisterVersions rv, int k, long value, int writer, int version) {
    for (int j = rv.firstRead(k, value); j < rv.extReads.length; j++) {
      int r = rv.extReads[j];
      if (h.opKey(r) != k || h.opValue(r) != value) {
        return;
      }
      if (h.opTxn(r) != writer) {
        add(h.opTxn(r), writer, RW, r, h.opValue(version));
      }
    }
  }

  private void add(int from, int to, byte t, int o, long v) {
    g.addEdge(from, to);
    type.add(t);
    op.add(o);
    value.add(v);
  }

  /** @return the edge's type: {@link #WW}, {@link #WR}, {@link #RW} or {@link #SO} */
  byte type(int e) {
    return type.getByte(e);
  }

  /** @return the transaction id of node {@code node} */
  int txn(int node) {
    return txnOf == null ? node : txnOf[node];
  }

  /** @return edge {@code e}'s evidence operation: the read, or for {@code ww} the source's last append; -1 for {@code so} */
  int op(int e) {
    return op.getInt(e);
  }

  /** @return the element edge {@code e} cites ({@link #toEdge}) */
  long value(int e) {
    return value.getLong(e);
  }

  /**
   * @return the witness record of edge {@code e}: key, and the element the explanation cites (the
   *     target's append for {@code ww} and {@code rw}, the element read for {@code wr})
   */
  Edge toEdge(int e) {
    int from = txn(g.from(e));
    int to = txn(g.to(e));
    switch (type(e)) {
      case WW:
        return new Edge(from, to, EdgeType.WW, Because.VERSION_ORDER, key(e), value.getLong(e), -1);
      case WR:
        return new Edge(from, to, EdgeType.WR, Because.READS_FROM, key(e), value.getLong(e), -1);
      case RW:
        return new Edge(from, to, EdgeType.RW, Because.ANTI_DEPENDENCY, key(e), value.getLong(e), -1);
      default:
        return new Edge(from, to, EdgeType.SO, Because.SESSION_ORDER, -1, History.NIL, -1);
    }
  }

  private int key(int e) {
    return h.opKey(op.getInt(e));
  }

  /**
   * Adds the operations that evidence edge {@code e} to {@code ops}: for {@code ww} the two appends,
   * for {@code wr} the append (write) then the read, for {@code rw} the read then the append (write)
   * it missed; for an {@code rw} edge of a register key from a read of a written value, between
   * the two the target's own read of that value, which places its write after it (writes follow
   * reads).
   */
  void evidence(int e, List<Integer> ops) {
    byte t = type(e);
    if (t == SO) {
      return;
    }
    int o = op.getInt(e);
    int other = h.writes().writerOf(key(e), value.getLong(e));
    if (t == WR) {
      addOnce(ops, other);
      addOnce(ops, o);
    } else {
      addOnce(ops, o);
      if (t == RW && h.opKind(o) == OpKind.READ && h.opValue(o) != History.NIL) {
        addOnce(ops, premise(h.opTxn(other), h.opKey(o), h.opValue(o)));
      }
      addOnce(ops, other);
    }
  }

  /** @return the first register operation of {@code t} on {@code key} if it read {@code v}, or -1 */
  private int premise(int t, int key, long v) {
    for (int o = h.opStart(t), end = h.opEnd(t); o < end; o++) {
      if (h.opKey(o) == key && (h.opKind(o) == OpKind.READ || h.opKind(o) == OpKind.WRITE)) {
        return h.opKind(o) == OpKind.READ && h.opValue(o) == v ? o : -1;
      }
    }
    return -1;
  }

  private static void addOnce(List<Integer> ops, int o) {
    if (o >= 0 && !ops.contains(o)) {
      ops.add(o);
    }
  }
}
