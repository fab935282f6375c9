package io.isowatch.checker.adya;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import it.unimi.dsi.fastutil.bytes.ByteArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.ArrayList;
import java.util.List;

/**
 * The slice of a history on a few keys: every transaction with an operation on one of them, with
 * only those operations, copied into a small history of its own and analysed there as the batch
 * checker analyses the whole ({@link VersionOrder}, {@link RegisterVersions}, {@link
 * ReadAnomalies}, {@link DependencyGraph} without {@code so}).
 *
 * <p>Why this is exact: everything those steps infer about a key depends only on the operations on
 * that key and the statuses of their transactions. The version order of key {@code k} is read from
 * the longest committed read of {@code k} and placed against the appends of {@code k} (Elle,
 * Kingsbury &amp; Alvaro, VLDB 2020, §3); the non-cycle anomalies of a read (incompatible order,
 * duplicates, G1a, G1b, internal, future read) look at that read, that key's order and its own
 * transaction's operations on the same key, and lost and dirty updates are per key (Adya, MIT 1999,
 * §3; Elle §4); every {@code ww}, {@code wr} and {@code rw} edge is drawn from one key. So the
 * slice's anomalies and edges, mapped back, are exactly those of the whole history that concern its
 * keys. Cost: O(operations of the slice + their list lengths), independent of the history's size
 * when keys are read and appended a bounded number of times (bounded lists).
 */
final class KeySlice {
  private final History h;
  private final History sub = new History();
  /** Sub-history operation to operation of {@link #h}. */
  private final IntArrayList fullOp = new IntArrayList();
  private long[] scratch = new long[16];

  /** Non-cycle anomalies found, in {@link #h}'s ids. */
  final List<Violation> anomalies;
  /** The slice's dependency edges, in {@link #h}'s ids: source and target transaction, type, operation, element. */
  final IntArrayList from = new IntArrayList();
  final IntArrayList to = new IntArrayList();
  final ByteArrayList type = new ByteArrayList();
  final IntArrayList op = new IntArrayList();
  final LongArrayList value = new LongArrayList();

  /**
   * Copies and analyses the slice.
   *
   * @param h the history, every transaction in {@code txns} ended in it
   * @param txns the transactions with an operation on a key of {@code keys}, ascending, each once
   * @param keys the keys, each once
   * @param thinAir whether reads of elements nobody appended are reported
   */
  KeySlice(History h, IntArrayList txns, IntArrayList keys, boolean thinAir) {
    this.h = h;
    // first the operations on the keys, then the sub-history sized to them: grown from empty by
    // doubling, its columns and write index were copied again and again for every transaction
    IntArrayList subKeys = new IntArrayList();
    int[] ends = new int[txns.size()];
    int writes = 0;
    for (int i = 0; i < txns.size(); i++) {
      int t = txns.getInt(i);
      for (int o = h.opStart(t), end = h.opEnd(t); o < end; o++) {
        int sk = keys.indexOf(h.opKey(o)); // a handful of keys: a linear search finds each
        if (sk >= 0) {
          fullOp.add(o);
          subKeys.add(sk);
          writes += OpKind.isWrite(h.opKind(o)) ? 1 : 0;
        }
      }
      ends[i] = fullOp.size();
    }
    sub.reserve(txns.size(), fullOp.size(), writes);
    for (int i = 0; i < keys.size(); i++) {
      sub.key(i); // sub-history key i is keys[i]; its name is never printed
    }
    for (int i = 0; i < txns.size(); i++) {
      copy(txns.getInt(i), i == 0 ? 0 : ends[i - 1], ends[i], subKeys);
    }
    Scope scope = new Scope(sub, sub.txnCount());
    VersionOrder vo = new VersionOrder(scope);
    RegisterVersions rv = new RegisterVersions(scope);
    anomalies = new ArrayList<>();
    for (Violation v : ReadAnomalies.find(vo, rv, thinAir)) {
      anomalies.add(toFull(v));
    }
    DependencyGraph dg = new DependencyGraph(vo, rv, false);
    for (int e = 0; e < dg.g.edgeCount(); e++) {
      from.add((int) sub.label(dg.g.from(e)));
      to.add((int) sub.label(dg.g.to(e)));
      type.add(dg.type(e));
      op.add(fullOp.getInt(dg.op(e)));
      value.add(dg.value(e));
    }
  }

  /** Copies transaction {@code t}'s operations on the keys, {@code fullOp[from..to)}. */
  private void copy(int t, int from, int to, IntArrayList subKeys) {
    sub.beginTxn(sub.session(h.sessionName(h.sessionOf(t))), t);
    for (int j = from; j < to; j++) {
      int o = fullOp.getInt(j);
      int sk = subKeys.getInt(j);
      switch (h.opKind(o)) {
        case OpKind.READ:
          sub.read(sk, h.opValue(o));
          break;
        case OpKind.WRITE:
          sub.write(sk, h.opValue(o));
          break;
        case OpKind.APPEND:
          sub.append(sk, h.opValue(o));
          break;
        default:
          readList(o, sk);
      }
    }
    sub.end(h.status(t));
  }

  private void readList(int o, int sk) {
    if (!h.listKnown(o)) {
      sub.readListUnknown(sk);
      return;
    }
    int n = h.listLength(o);
    if (scratch.length < n) {
      scratch = new long[Math.max(n, 2 * scratch.length)];
    }
    for (int i = 0; i < n; i++) {
      scratch[i] = h.listElement(o, i);
    }
    sub.readList(sk, scratch, 0, n);
  }

  private Violation toFull(Violation v) {
    List<Integer> txns = new ArrayList<>(v.witness().txns().size());
    for (int t : v.witness().txns()) {
      txns.add(t == Witness.INIT ? t : (int) sub.label(t));
    }
    List<Integer> ops = new ArrayList<>(v.witness().ops().size());
    for (int o : v.witness().ops()) {
      ops.add(o < 0 ? o : fullOp.getInt(o));
    }
    if (!v.witness().edges().isEmpty() || !v.witness().support().isEmpty() || !v.witness().cases().isEmpty()) {
      throw new IllegalStateException("a non-cycle anomaly with edges: " + v);
    }
    return new Violation(v.anomaly(), v.weakestLevelBroken(), new Witness(txns, ops, List.of()));
  }
}
