package io.isowatch.checker.polygraph;

import io.isowatch.checker.history.CountedOutcomes;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.witness.EdgeType;
import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.Arrays;

/**
 * The polygraph of a register history (Papadimitriou, JACM 1979; as built by Cobra, Tan et al.,
 * OSDI 2020, §3, and PolySI, Huang et al., VLDB 2023, §3): the known edges, and for every pair of
 * committed transactions that write a common key a <i>constraint</i> whose two alternatives are the
 * two orders of their writes.
 *
 * <p><b>Nodes</b> are the transactions that count as committed ({@link #committed}: {@code
 * 0..nodes()-1}, in history order; {@link #txn} maps back).
 *
 * <p><b>Known edges.</b> {@code so} between consecutive committed transactions of a session (unless
 * session order is not required); {@code wr} from the writer of each external read (a read not
 * preceded in its transaction by an operation on the key) to the reader; for a read of the initial
 * value of {@code x}, {@code rw} from the reader to every committed writer of {@code x}. A read whose
 * value has no committed final writer (thin-air, aborted, intermediate, future read) and a read of an
 * unknown value add nothing: those are violations of weaker levels, reported by their checkers.
 *
 * <p><b>Constraints</b>, one per pair of transactions {@code (a, b)}, {@code a < b}, writing a common
 * key, coalesced over their keys as PolySI §4.2 does (both orders of one pair on two keys close a
 * {@code ww} 2-cycle, so every key of the pair takes the same order): alternative "a first" holds, for
 * each common key {@code x}, {@code ww a -> b} and {@code rw r -> b} for every reader {@code r != b}
 * of {@code a}'s {@code x}; alternative "b first" the mirror image.
 *
 * <p>Edges are stored column by column ({@link #from}, {@link #to}, {@link #type}, {@link #key},
 * {@link #value}, {@link #via}); the known ones are {@code 0..knownEdges()-1}. Constraint {@code c}'s
 * alternatives are ranges of one index of edges ({@link #alternativeStart}, {@link #alternativeEnd},
 * {@link #alternativeEdge}), made after the constraints' edges were counted ({@link #of}, {@link
 * Budget}): a polygraph of 10^5 transactions holds tens of millions of them.
 *
 * <p>Over 400 lines: the build (known edges, the count, the constraints, their index) and the
 * column accessors that every later stage reads are one structure; split, the columns would have to
 * be passed around or exposed.
 */
final class Polygraph {
  /** Decides, from their size, whether the constraints are made. */
  interface Budget {
    /**
     * @param constraintEdges the edges the constraints would hold, exactly
     * @param writerPairs the pairs of writers of a common key, counted once per key (at least the
     *     number of constraints, which coalesce a pair's keys)
     * @return whether to make them
     */
    boolean allows(long constraintEdges, long writerPairs);
  }

  /** Edge type: {@code so}. */
  static final byte SO = 0;
  /** Edge type: {@code wr}. */
  static final byte WR = 1;
  /** Edge type: {@code ww}. */
  static final byte WW = 2;
  /** Edge type: {@code rw}. */
  static final byte RW = 3;
  private static final EdgeType[] TYPES = {EdgeType.SO, EdgeType.WR, EdgeType.WW, EdgeType.RW};

  private final History history;
  private final OpRoles roles;
  private final int[] txnOfNode;
  private final int[] nodeOfTxn;
  private final IntArrayList from = new IntArrayList();
  private final IntArrayList to = new IntArrayList();
  private final ByteArrayList types = new ByteArrayList();
  private final IntArrayList keys = new IntArrayList();
  private final IntArrayList via = new IntArrayList();
  private final IntArrayList owner = new IntArrayList();
  private final LongArrayList values = new LongArrayList();
  private int knownEdges;
  private final IntArrayList pairA = new IntArrayList();
  private final IntArrayList pairB = new IntArrayList();
  /**
   * Constraint {@code c}'s lower-first alternative is {@code alternativeEdges[altStart[2c] ..
   * altStart[2c + 1])}, its other alternative the next range.
   */
  private int[] altStart;
  private int[] alternativeEdges;

  private Polygraph(History history, int[] txnOfNode, int[] nodeOfTxn) {
    this.history = history;
    this.roles = new OpRoles(history);
    this.txnOfNode = txnOfNode;
    this.nodeOfTxn = nodeOfTxn;
  }

  /**
   * Builds the polygraph. Cost: O(ops + sum over keys of writers² · readers per write). The edges
   * of the constraints are counted before any is made, and the budget asked whether to make them.
   *
   * @param h a register history (list operations are ignored)
   * @param sessionOrder whether consecutive transactions of a session are ordered ({@code so})
   * @param budget told the size of the constraints before they are made
   * @return the polygraph, or {@code null} if the budget refused its constraints
   */
  static Polygraph of(History h, boolean sessionOrder, Budget budget) {
    int txns = h.txnCount();
    boolean[] committed = committed(h);
    int[] nodeOf = new int[txns];
    IntArrayList nodes = new IntArrayList();
    for (int t = 0; t < txns; t++) {
      nodeOf[t] = committed[t] ? nodes.size() : -1;
      if (nodeOf[t] >= 0) {
        nodes.add(t);
      }
    }
    Polygraph g = new Polygraph(h, nodes.toIntArray(), nodeOf);
    return g.build(sessionOrder, budget) ? g : null;
  }

  /**
   * Which transactions count as committed: those that committed, and those of unknown outcome whose
   * write a transaction that counts as committed read, to a fixpoint (had such a writer aborted, a
   * committed transaction would have read an aborted write, directly or through others, G1a, which
   * every level from read committed up forbids; so counting it as committed cannot make a history
   * that satisfies the level look violated). A transaction of unknown outcome that nobody read from
   * is left out: it may have aborted.
   *
   * @return indexed by transaction id
   */
  static boolean[] committed(History h) {
    CountedOutcomes counted = new CountedOutcomes(h);
    counted.observeAll();
    boolean[] out = new boolean[h.txnCount()];
    for (int t = 0; t < out.length; t++) {
      out[t] = counted.counts(t);
    }
    return out;
  }


  private boolean build(boolean sessionOrder, Budget budget) {
    History h = history;
    int n = txnOfNode.length;
    // Per key: the committed writers (node) and their final write's value, in node order.
    ObjectArrayList<IntArrayList> writers = new ObjectArrayList<>();
    ObjectArrayList<LongArrayList> writtenValues = new ObjectArrayList<>();
    for (int k = 0; k < h.keyCount(); k++) {
      writers.add(new IntArrayList());
      writtenValues.add(new LongArrayList());
    }
    for (int node = 0; node < n; node++) {
      int t = txnOfNode[node];
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        if (h.opKind(op) == OpKind.WRITE && roles.lastWrite(op)) {
          writers.get(h.opKey(op)).add(node);
          writtenValues.get(h.opKey(op)).add(h.opValue(op));
        }
      }
    }
    // Readers of each (writer node, key), and of the initial value of each key.
    Long2ObjectOpenHashMap<IntArrayList> readersOf = new Long2ObjectOpenHashMap<>();
    ObjectArrayList<IntArrayList> initReaders = new ObjectArrayList<>();
    for (int k = 0; k < h.keyCount(); k++) {
      initReaders.add(new IntArrayList());
    }
    if (sessionOrder) {
      for (int s = 0; s < h.sessionCount(); s++) {
        int prev = -1;
        IntArrayList ts = h.sessionTxns(s);
        for (int i = 0; i < ts.size(); i++) {
          int node = nodeOfTxn[ts.getInt(i)];
          if (node >= 0) {
            if (prev >= 0) {
              edge(prev, node, SO, -1, History.NIL, -1, -1);
            }
            prev = node;
          }
        }
      }
    }
    for (int node = 0; node < n; node++) {
      int t = txnOfNode[node];
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        if (h.opKind(op) != OpKind.READ || !roles.firstOnKey(op)) {
          continue;
        }
        int k = h.opKey(op);
        long v = h.opValue(op);
        if (v == History.NIL) {
          initReaders.get(k).add(node);
          continue;
        }
        if (v == History.UNKNOWN_VALUE) {
          continue;
        }
        int w = h.writes().writerOf(k, v);
        if (w < 0) {
          continue;
        }
        int wt = h.opTxn(w);
        int wn = nodeOfTxn[wt];
        if (wt == t || wn < 0 || !roles.lastWrite(w)) {
          continue;
        }
        edge(wn, node, WR, k, v, -1, -1);
        readersOf.computeIfAbsent(pack(wn, k), x -> new IntArrayList()).add(node);
      }
    }
    for (int k = 0; k < h.keyCount(); k++) {
      IntArrayList rs = initReaders.get(k);
      IntArrayList ws = writers.get(k);
      for (int i = 0; i < rs.size(); i++) {
        for (int j = 0; j < ws.size(); j++) {
          if (rs.getInt(i) != ws.getInt(j)) {
            edge(rs.getInt(i), ws.getInt(j), RW, k, History.NIL, -1, -1);
          }
        }
      }
    }
    knownEdges = from.size();
    // the constraints' edges counted before any is made: a pair (a, b) of writers of k adds, for each
    // of the two, its ww edge and an rw edge from each of its readers but the other one
    IntArrayList none = new IntArrayList();
    long constraintEdges = 0;
    long pairs = 0;
    int[] writerOfKey = new int[n];
    Arrays.fill(writerOfKey, -1);
    for (int k = 0; k < h.keyCount(); k++) {
      IntArrayList ws = writers.get(k);
      int m = ws.size();
      if (m < 2) {
        continue;
      }
      pairs += (long) m * (m - 1) / 2;
      for (int i = 0; i < m; i++) {
        writerOfKey[ws.getInt(i)] = k;
      }
      long perWriter = 0;
      long readersWriting = 0;
      for (int i = 0; i < m; i++) {
        IntArrayList rs = readersOf.getOrDefault(pack(ws.getInt(i), k), none);
        perWriter += 1 + rs.size();
        for (int r = 0; r < rs.size(); r++) {
          if (writerOfKey[rs.getInt(r)] == k) {
            readersWriting++;
          }
        }
      }
      constraintEdges += (m - 1) * perWriter - readersWriting;
    }
    if (!budget.allows(constraintEdges, pairs)) {
      return false;
    }
    int edgeCapacity = Math.toIntExact(knownEdges + constraintEdges);
    for (IntArrayList column : new IntArrayList[] {from, to, keys, via, owner}) {
      column.ensureCapacity(edgeCapacity);
    }
    types.ensureCapacity(edgeCapacity);
    values.ensureCapacity(edgeCapacity);
    Long2IntOpenHashMap constraintOf = new Long2IntOpenHashMap((int) Math.min(pairs, 1 << 28));
    constraintOf.defaultReturnValue(-1);
    for (int k = 0; k < h.keyCount(); k++) {
      IntArrayList ws = writers.get(k);
      for (int i = 0; i < ws.size(); i++) {
        for (int j = i + 1; j < ws.size(); j++) {
          int a = ws.getInt(i);
          int b = ws.getInt(j);
          int lo = Math.min(a, b);
          int hi = Math.max(a, b);
          long loValue = writtenValues.get(k).getLong(a == lo ? i : j);
          long hiValue = writtenValues.get(k).getLong(a == lo ? j : i);
          int c = constraintOf.get(pack(lo, hi));
          if (c < 0) {
            c = pairA.size();
            constraintOf.put(pack(lo, hi), c);
            pairA.add(lo);
            pairB.add(hi);
          }
          order(c, lo, hi, k, loValue, readersOf.getOrDefault(pack(lo, k), none));
          order(c, hi, lo, k, hiValue, readersOf.getOrDefault(pack(hi, k), none));
        }
      }
    }
    if (from.size() - knownEdges != constraintEdges) {
      throw new IllegalStateException("the polygraph's constraints hold " + (from.size() - knownEdges)
          + " edges, counted " + constraintEdges);
    }
    indexAlternatives();
    return true;
  }

  /**
   * Groups the constraints' edges by constraint and alternative ({@link #altStart}), each group in
   * the order its edges were made (a counting sort, stable).
   */
  private void indexAlternatives() {
    int c2 = 2 * pairA.size();
    altStart = new int[c2 + 1];
    int edges = from.size();
    for (int e = knownEdges; e < edges; e++) {
      altStart[slot(e) + 1]++;
    }
    for (int i = 0; i < c2; i++) {
      altStart[i + 1] += altStart[i];
    }
    alternativeEdges = new int[edges - knownEdges];
    int[] next = Arrays.copyOf(altStart, c2);
    for (int e = knownEdges; e < edges; e++) {
      alternativeEdges[next[slot(e)]++] = e;
    }
  }

  /** @return {@code 2c} for an edge of constraint c's lower-first alternative, {@code 2c + 1} else */
  private int slot(int e) {
    int c = owner.getInt(e);
    int earlier = types.getByte(e) == WW ? from.getInt(e) : via.getInt(e);
    return 2 * c + (earlier == pairA.getInt(c) ? 0 : 1);
  }

  /** {@code first}'s write of {@code k} precedes {@code second}'s: ww, and rw from first's readers. */
  private void order(int c, int first, int second, int k, long value, IntArrayList readers) {
    edge(first, second, WW, k, value, -1, c);
    for (int i = 0; i < readers.size(); i++) {
      int r = readers.getInt(i);
      if (r != second) {
        edge(r, second, RW, k, value, first, c);
      }
    }
  }

  private void edge(int u, int v, byte type, int key, long value, int viaNode, int constraint) {
    owner.add(constraint);
    from.add(u);
    to.add(v);
    types.add(type);
    keys.add(key);
    values.add(value);
    via.add(viaNode);
  }

  private static long pack(int a, int b) {
    return ((long) a << 32) | (b & 0xffffffffL);
  }

  /** @return the number of nodes (committed transactions) */
  int nodes() {
    return txnOfNode.length;
  }

  /** @return the history's transaction id of {@code node} */
  int txn(int node) {
    return txnOfNode[node];
  }

  /** @return the number of edges, known and in constraints */
  int edges() {
    return from.size();
  }

  /** @return the number of known edges; they are edges {@code 0..knownEdges()-1} */
  int knownEdges() {
    return knownEdges;
  }

  /** @return the number of constraints */
  int constraints() {
    return pairA.size();
  }

  /** @return the source node of edge {@code e} */
  int from(int e) {
    return from.getInt(e);
  }

  /** @return the target node of edge {@code e} */
  int to(int e) {
    return to.getInt(e);
  }

  /** @return {@link #SO}, {@link #WR}, {@link #WW} or {@link #RW} */
  byte type(int e) {
    return types.getByte(e);
  }

  /** @return the edge's type as a witness names it */
  EdgeType edgeType(int e) {
    return TYPES[types.getByte(e)];
  }

  /** @return the key of edge {@code e}, -1 for {@code so} */
  int key(int e) {
    return keys.getInt(e);
  }

  /** @return the value the edge's explanation cites ({@link History#NIL}: the initial value) */
  long value(int e) {
    return values.getLong(e);
  }

  /** @return for an {@code rw} edge of a constraint, the node whose version the source read; else -1 */
  int via(int e) {
    return via.getInt(e);
  }

  /** @return the constraint whose alternative holds edge {@code e}; -1 for a known edge */
  int constraintOf(int e) {
    return owner.getInt(e);
  }

  /** @return the lower node of constraint {@code c}'s pair */
  int first(int c) {
    return pairA.getInt(c);
  }

  /** @return the higher node of constraint {@code c}'s pair */
  int second(int c) {
    return pairB.getInt(c);
  }

  /**
   * Where constraint {@code c}'s alternative lies in {@link #alternativeEdge}: from this index to
   * {@link #alternativeEnd}.
   *
   * @param lowerFirst {@code true} for the alternative in which {@link #first}'s writes precede
   *     {@link #second}'s
   */
  int alternativeStart(int c, boolean lowerFirst) {
    return altStart[2 * c + (lowerFirst ? 0 : 1)];
  }

  /** @return the end (exclusive) of the alternative that {@link #alternativeStart} begins */
  int alternativeEnd(int c, boolean lowerFirst) {
    return altStart[2 * c + (lowerFirst ? 1 : 2)];
  }

  /** @return the edge at index {@code i} of the alternatives' edges (see {@link #alternativeStart}) */
  int alternativeEdge(int i) {
    return alternativeEdges[i];
  }

  /**
   * Adds the edges of constraint {@code c}'s alternative to {@code out}.
   *
   * @return {@code out}
   */
  IntArrayList addAlternative(int c, boolean lowerFirst, IntArrayList out) {
    int end = alternativeEnd(c, lowerFirst);
    for (int i = alternativeStart(c, lowerFirst); i < end; i++) {
      out.add(alternativeEdges[i]);
    }
    return out;
  }
}
