package io.isowatch.enginesim.replica;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.enginesim.engine.Fault;
import io.isowatch.enginesim.engine.IsolationEngine;
import io.isowatch.enginesim.engine.MvccStore;
import it.unimi.dsi.fastutil.ints.Int2ObjectLinkedOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.Arrays;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * A replicated store at read atomic or causal consistency: {@code N} replicas, session {@code s}
 * bound to replica {@code s % N}, every committed transaction applied atomically at every replica
 * but delivered to the others asynchronously, one {@link #deliver} step per (transaction, replica).
 *
 * <p>A transaction reads the state of its replica as of its begin (the versions applied there by
 * then; among several versions of an object, the highest commit timestamp wins, so replicas converge
 * whatever order they apply in), with its own writes on top. Its commit never fails (no write-write
 * conflict detection: both levels allow lost updates), takes the next commit timestamp and is
 * applied at once at its own replica, so the session reads its own writes. A list append installs
 * the transaction's view of the list followed by its appends, as a whole value (last writer wins):
 * two concurrent appends to one list on different replicas lose one of them and give list versions
 * that are not prefixes of each other, so list-append workloads on these stores are reported as
 * incompatible orders; use rw-register workloads here.
 *
 * <ul>
 *   <li>{@code READ_ATOMIC}: delivery in any order the scheduler picks. Each transaction is seen
 *       whole or not at all, from one snapshot (read atomic: Bailis et al., "Scalable atomic
 *       visibility with RAMP transactions", SIGMOD 2014, §3), but a replica can apply a transaction
 *       before one it depends on, so a third party can see an effect without its cause (a causality
 *       violation read atomic allows).
 *   <li>{@code CAUSAL}: causal delivery with vector clocks (Ahamad et al., "Causal memory",
 *       Distributed Computing 1995, §4; COPS, Lloyd et al., SOSP 2011, §3): a transaction carries
 *       its replica's vector clock at commit, which covers its session's earlier transactions and
 *       every transaction it read from, transitively; a replica applies it only after everything in
 *       that vector, and the transactions of one origin in order. So every snapshot is causally
 *       closed (causal consistency in the sense of Biswas &amp; Enea, OOPSLA 2019, §4).
 * </ul>
 *
 * <p>Faults ({@link Fault}): {@code FRACTURED_VISIBILITY} applies a delivered transaction one object
 * per step at the other replicas; {@code STALE_SNAPSHOT} applies a transaction at its own replica
 * only by delivery, like anywhere else, so a session can miss its own writes; {@code
 * ABORTED_WRITE_VISIBLE} replicates aborted transactions as if committed. Deterministic: delivery
 * choices come only from the scheduler's generator. Not thread-safe. Memory: every version and
 * transaction is kept for the store's lifetime.
 */
public final class ReplicatedStore implements IsolationEngine {
  private static final long[] EMPTY = new long[0];

  private static final class Txn {
    final int replica;
    final long snapshotSeq;
    boolean ended;
    final Int2ObjectLinkedOpenHashMap<Buffered> writes = new Int2ObjectLinkedOpenHashMap<>();

    Txn(int replica, long snapshotSeq) {
      this.replica = replica;
      this.snapshotSeq = snapshotSeq;
    }
  }

  private static final class Buffered {
    long value;
    final LongArrayList appends = new LongArrayList();
  }

  /** A transaction not yet (fully) applied at a replica; {@code next} objects already applied. */
  private static final class Delivery {
    final ReplicatedTxn txn;
    final Replica to;
    int next;

    Delivery(ReplicatedTxn txn, Replica to) {
      this.txn = txn;
      this.to = to;
    }
  }

  private final Level level;
  private final boolean causal;
  private final Set<Fault> faults;
  private final Replica[] replicas;
  private final ObjectArrayList<Txn> txns = new ObjectArrayList<>();
  private final ObjectArrayList<Delivery> pending = new ObjectArrayList<>();
  private final int[] originated;
  private long clock;

  /**
   * @param level {@link Level#READ_ATOMIC} or {@link Level#CAUSAL}
   * @param replicas number of replicas, {@code >= 1}
   * @param faults deliberate bugs (see the class comment), usually none
   * @throws IllegalArgumentException for another level, {@code replicas < 1}, or {@link
   *     Fault#LOST_UPDATE} (these levels allow lost updates already)
   */
  public ReplicatedStore(Level level, int replicas, Set<Fault> faults) {
    if (level != Level.READ_ATOMIC && level != Level.CAUSAL) {
      throw new IllegalArgumentException("replicated stores are read-atomic or causal, not " + level);
    }
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
    }
    if (faults.contains(Fault.LOST_UPDATE)) {
      throw new IllegalArgumentException("fault LOST_UPDATE changes nothing at " + level + ", which allows lost updates");
    }
    this.level = level;
    this.causal = level == Level.CAUSAL;
    this.faults = Set.copyOf(faults);
    this.replicas = new Replica[replicas];
    for (int r = 0; r < replicas; r++) {
      this.replicas[r] = new Replica(r, replicas);
    }
    this.originated = new int[replicas];
  }

  @Override
  public Level level() {
    return level;
  }

  /** @return the replica that session {@code session} reads and commits at */
  public int replicaOf(int session) {
    return session % replicas.length;
  }

  @Override
  public int begin(int session) {
    Replica r = replicas[replicaOf(session)];
    txns.add(new Txn(r.id, r.seq));
    return txns.size() - 1;
  }

  @Override
  public long read(int txn, int key) {
    Txn t = activeTxn(txn);
    int obj = MvccStore.register(key);
    Buffered own = t.writes.get(obj);
    if (own != null) {
      return own.value;
    }
    Replica.Applied a = replicas[t.replica].visible(obj, t.snapshotSeq);
    return a == null ? History.NIL : a.value();
  }

  @Override
  public long[] readList(int txn, int key) {
    Txn t = activeTxn(txn);
    int obj = MvccStore.list(key);
    Buffered own = t.writes.get(obj);
    long[] seen = snapshotList(t, obj);
    return own == null ? seen : concat(seen, own.appends);
  }

  @Override
  public void write(int txn, int key, long value) {
    buffer(activeTxn(txn), MvccStore.register(key)).value = value;
  }

  @Override
  public void append(int txn, int key, long element) {
    buffer(activeTxn(txn), MvccStore.list(key)).appends.add(element);
  }

  /** Always commits (no conflict detection); applies at the session's replica and queues the others. */
  @Override
  public TxnStatus commit(int txn) {
    Txn t = activeTxn(txn);
    replicate(txn, t);
    t.ended = true;
    return TxnStatus.COMMITTED;
  }

  @Override
  public void abort(int txn) {
    Txn t = activeTxn(txn);
    if (faults.contains(Fault.ABORTED_WRITE_VISIBLE)) {
      replicate(txn, t);
    }
    t.ended = true;
  }

  @Override
  public int pendingDeliveries() {
    if (!faults.contains(Fault.FRACTURED_VISIBILITY)) {
      return pending.size();
    }
    int steps = 0;
    for (Delivery d : pending) {
      steps += d.txn.objects().length - d.next;
    }
    return steps;
  }

  /**
   * Picks one pending (transaction, replica) pair uniformly with {@code rnd} among those the delivery
   * order allows (read atomic: all; causal: those whose causal past the replica has applied) and
   * applies it there (fractured visibility: its next object only).
   */
  @Override
  public boolean deliver(RandomGenerator rnd) {
    IntArrayList allowed = new IntArrayList();
    for (int i = 0; i < pending.size(); i++) {
      if (!causal || causallyReady(pending.get(i))) {
        allowed.add(i);
      }
    }
    if (allowed.isEmpty()) {
      return false;
    }
    int i = allowed.getInt(rnd.nextInt(allowed.size()));
    Delivery d = pending.get(i);
    int until = faults.contains(Fault.FRACTURED_VISIBILITY) ? d.next + 1 : d.txn.objects().length;
    for (; d.next < until; d.next++) {
      applyObject(d.to, d.txn, d.next);
    }
    if (d.next == d.txn.objects().length) {
      d.to.applied[d.txn.origin()]++;
      pending.remove(i);
    }
    return true;
  }

  /**
   * @param replica a replica id
   * @return the register value of {@code key} that a transaction beginning now at {@code replica}
   *     would read, {@link History#NIL} for the initial value
   */
  public long valueAt(int replica, int key) {
    Replica r = replicas[replica];
    Replica.Applied a = r.visible(MvccStore.register(key), r.seq);
    return a == null ? History.NIL : a.value();
  }

  private boolean causallyReady(Delivery d) {
    if (d.next > 0) {
      return true; // started (fractured visibility): it was ready then
    }
    int[] applied = d.to.applied;
    if (applied[d.txn.origin()] != d.txn.originSeq() - 1) {
      return false;
    }
    for (int r = 0; r < applied.length; r++) {
      if (applied[r] < d.txn.deps()[r]) {
        return false;
      }
    }
    return true;
  }

  private void replicate(int id, Txn t) {
    if (t.writes.isEmpty()) {
      return;
    }
    int n = t.writes.size();
    int[] objects = new int[n];
    long[] values = new long[n];
    long[][] lists = new long[n][];
    int i = 0;
    for (Int2ObjectMap.Entry<Buffered> w : t.writes.int2ObjectEntrySet()) {
      objects[i] = w.getIntKey();
      values[i] = w.getValue().value;
      lists[i] = MvccStore.isList(w.getIntKey()) ? concat(snapshotList(t, w.getIntKey()), w.getValue().appends) : EMPTY;
      i++;
    }
    Replica origin = replicas[t.replica];
    ReplicatedTxn rt = new ReplicatedTxn(id, origin.id, ++originated[origin.id], origin.applied.clone(), ++clock, objects, values, lists);
    for (Replica r : replicas) {
      if (r == origin && !faults.contains(Fault.STALE_SNAPSHOT)) {
        for (int o = 0; o < n; o++) {
          applyObject(r, rt, o);
        }
        r.applied[origin.id]++;
      } else {
        pending.add(new Delivery(rt, r));
      }
    }
  }

  private static void applyObject(Replica r, ReplicatedTxn t, int o) {
    r.apply(t.objects()[o], t.ts(), t.values()[o], t.lists()[o]);
  }

  private long[] snapshotList(Txn t, int obj) {
    Replica.Applied a = replicas[t.replica].visible(obj, t.snapshotSeq);
    return a == null ? EMPTY : a.list().clone();
  }

  private static Buffered buffer(Txn t, int obj) {
    Buffered b = t.writes.get(obj);
    if (b == null) {
      b = new Buffered();
      t.writes.put(obj, b);
    }
    return b;
  }

  private Txn activeTxn(int txn) {
    Txn t = txn >= 0 && txn < txns.size() ? txns.get(txn) : null;
    if (t == null || t.ended) {
      throw new IllegalStateException("transaction " + txn + " is not active");
    }
    return t;
  }

  private static long[] concat(long[] base, LongArrayList tail) {
    long[] out = Arrays.copyOf(base, base.length + tail.size());
    tail.getElements(0, out, base.length, tail.size());
    return out;
  }
}
