package io.isowatch.enginesim.engine;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.enginesim.engine.MvccStore.Version;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The multi-version engine at read uncommitted, read committed, snapshot isolation or serializable;
 * what differs between the levels is one {@link LevelPolicy}.
 *
 * <p>Writes are buffered per transaction and installed in an {@link MvccStore} at commit, all with
 * one new timestamp (one more than the last). A read sees the transaction's own writes first
 * (registers: its last write; lists: its appends, after the visible list), then what the level makes
 * visible: read uncommitted, for a register the most recent buffered write of the key by another
 * active transaction, otherwise the latest committed version, fixed at the transaction's first read
 * of the object ({@link LevelPolicy#repeatableReads()}); read committed, the latest committed
 * version at the time of the read (a second read can differ: a non-repeatable read); snapshot
 * isolation and serializable, the latest version committed before the transaction began. A commit
 * installs, for a register, the buffered value, and for a list, the latest committed list followed
 * by the transaction's appends.
 *
 * <p>Lost update, decided here. Read committed lets both writers commit, for registers (the last
 * committer's value is the newest version) and for lists (the second committer's appends land on
 * the list the first installed, so no element is lost, though both read the same version before
 * appending: Elle's lost update); two appenders active at once are not allowed, the second is doomed
 * by the list's write lock ({@link LevelPolicy#listLocks()}). Read uncommitted does the same for
 * registers; for lists it dooms an appender whose list changed since it read it (its reads must
 * stay repeatable). Snapshot isolation and serializable refuse the second writer of any object
 * (first updater wins, {@link LevelPolicy#firstUpdaterWins()}).
 *
 * <p>Conflicts never block: the transaction is doomed at the conflicting operation, keeps running
 * (its reads and writes answer as usual) and its commit answers {@link TxnStatus#ABORTED}.
 * Serializable also refuses pivots ({@link SsiConflicts}; Cahill, Röhm &amp; Fekete, SIGMOD 2008,
 * §3). {@link Fault}s change this on purpose; see each. Deterministic: no hash-order iteration, no
 * clock. Not thread-safe. Memory: every version and transaction is kept for the engine's lifetime
 * (simulations are short).
 */
public final class MvccEngine implements IsolationEngine {
  private static final long[] EMPTY = new long[0];

  private final Level level;
  private final LevelPolicy policy;
  private final Set<Fault> faults;
  private final MvccStore store = new MvccStore();
  private final ObjectArrayList<MvccTxn> txns = new ObjectArrayList<>();
  /** Active transactions in begin order. */
  private final IntArrayList active = new IntArrayList();
  /** List object to the transaction holding its write lock ({@link LevelPolicy#listLocks()}). */
  private final Int2IntOpenHashMap listLocks = new Int2IntOpenHashMap();
  private final SsiConflicts ssi = new SsiConflicts(txns);
  /** {@link Fault#FRACTURED_VISIBILITY}: committed writes still to install, oldest first. */
  private final ArrayDeque<PendingInstall> pending = new ArrayDeque<>();
  /** Timestamp of the last installed version. */
  private long clock;
  /** Counts begins, commits and writes: the order of events, for concurrency and "most recent". */
  private long events;

  private record PendingInstall(MvccTxn writer, int obj, MvccTxn.Buffered write) {}

  /**
   * @param level read uncommitted, read committed, snapshot isolation or serializable
   * @param faults deliberate bugs to switch on (see {@link Fault}), usually none
   * @throws IllegalArgumentException for read atomic or causal (replicated stores), or {@link
   *     Fault#LOST_UPDATE} at any level but snapshot isolation (below it, lost updates are allowed
   *     anyway; at serializable, SSI's rw-antidependency tracking refuses the same schedules)
   */
  public MvccEngine(Level level, Set<Fault> faults) {
    this.policy = LevelPolicy.of(level);
    if (faults.contains(Fault.LOST_UPDATE) && !policy.firstUpdaterWins()) {
      throw new IllegalArgumentException("fault LOST_UPDATE changes nothing at " + level + ", which allows lost updates");
    }
    if (faults.contains(Fault.LOST_UPDATE) && policy.ssi()) {
      throw new IllegalArgumentException(
          "fault LOST_UPDATE changes nothing visible at " + level + ": SSI refuses the read-then-write schedules too");
    }
    this.level = level;
    this.faults = Set.copyOf(faults);
    listLocks.defaultReturnValue(-1);
  }

  @Override
  public Level level() {
    return level;
  }

  @Override
  public int begin(int session) {
    MvccTxn t = new MvccTxn(txns.size(), session, viewTs(), ++events);
    txns.add(t);
    active.add(t.id);
    return t.id;
  }

  @Override
  public long read(int txn, int key) {
    MvccTxn t = activeTxn(txn);
    int obj = MvccStore.register(key);
    MvccTxn.Buffered own = t.writes.get(obj);
    if (own != null) {
      return own.value;
    }
    if (policy.repeatableReads() && t.registerViews.containsKey(obj)) {
      return t.registerViews.get(obj);
    }
    noteRead(t, obj);
    long value;
    MvccTxn.Buffered dirty = policy.dirtyReads() ? mostRecentBuffered(t, obj) : null;
    if (dirty != null) {
      value = dirty.value;
    } else {
      Version v = store.visibleAt(obj, readTs(t));
      value = v == null ? History.NIL : v.value();
    }
    if (policy.repeatableReads()) {
      t.registerViews.put(obj, value);
    }
    return value;
  }

  @Override
  public long[] readList(int txn, int key) {
    MvccTxn t = activeTxn(txn);
    int obj = MvccStore.list(key);
    MvccTxn.Buffered own = t.writes.get(obj);
    if (own == null) {
      noteRead(t, obj);
    }
    long[] base;
    if (policy.repeatableReads()) {
      base = listView(t, obj);
    } else if (own != null && listLocks.get(obj) == txn) {
      base = store.latestList(obj); // what its commit will extend: the lock keeps others from changing it
    } else {
      Version v = store.visibleAt(obj, readTs(t));
      base = v == null ? EMPTY : v.list();
    }
    return own == null ? base.clone() : concat(base, own.appends);
  }

  @Override
  public void write(int txn, int key, long value) {
    MvccTxn t = activeTxn(txn);
    buffer(t, MvccStore.register(key)).value = value;
  }

  @Override
  public void append(int txn, int key, long element) {
    MvccTxn t = activeTxn(txn);
    int obj = MvccStore.list(key);
    if (policy.listLocks()) {
      int holder = listLocks.get(obj);
      if (holder < 0) {
        listLocks.put(obj, txn);
      } else if (holder != txn) {
        t.doomed = true;
      }
    }
    if (policy.repeatableReads()) {
      if (t.listViews.containsKey(obj) && t.listViewTs.get(obj) != latestTs(obj)) {
        t.doomed = true; // the list changed since this transaction read it
      }
      listView(t, obj);
    }
    buffer(t, obj).appends.add(element);
  }

  @Override
  public TxnStatus commit(int txn) {
    MvccTxn t = activeTxn(txn);
    if (t.doomed || writeWriteConflict(t) || (policy.ssi() && ssi.pivot(t))) {
      end(t, MvccTxn.State.ABORTED);
      return TxnStatus.ABORTED;
    }
    t.commitEvent = ++events;
    install(t);
    end(t, MvccTxn.State.COMMITTED);
    return TxnStatus.COMMITTED;
  }

  @Override
  public void abort(int txn) {
    end(activeTxn(txn), MvccTxn.State.ABORTED);
  }

  @Override
  public int pendingDeliveries() {
    return pending.size();
  }

  /** Installs the oldest pending write ({@link Fault#FRACTURED_VISIBILITY}); draws nothing from {@code rnd}. */
  @Override
  public boolean deliver(RandomGenerator rnd) {
    PendingInstall p = pending.poll();
    if (p == null) {
      return false;
    }
    installOne(p.writer(), p.obj(), p.write(), ++clock);
    return true;
  }

  /** @return the committed register values of {@code key} in version order, oldest first; a new array */
  public long[] versions(int key) {
    return store.registerValues(key);
  }

  /** @return the latest committed list of {@code key}, oldest element first; a new array */
  public long[] committedList(int key) {
    return store.latestList(MvccStore.list(key)).clone();
  }

  private long viewTs() {
    return faults.contains(Fault.STALE_SNAPSHOT) ? Math.max(0, clock - 1) : clock;
  }

  private long readTs(MvccTxn t) {
    return policy.snapshotAtBegin() ? t.startTs : viewTs();
  }

  private MvccTxn.Buffered buffer(MvccTxn t, int obj) {
    MvccTxn.Buffered b = t.writes.get(obj);
    if (b == null) {
      b = new MvccTxn.Buffered();
      t.writes.put(obj, b);
    }
    b.lastWrite = ++events;
    if (policy.firstUpdaterWins() && !faults.contains(Fault.LOST_UPDATE) && writtenConcurrently(t, obj)) {
      t.doomed = true;
    }
    if (policy.ssi()) {
      ssi.write(t, obj);
    }
    return b;
  }

  /** {@link LevelPolicy#repeatableReads()}: the list {@code t} sees, the latest committed one at its first access. */
  private long[] listView(MvccTxn t, int obj) {
    long[] view = t.listViews.get(obj);
    if (view == null) {
      view = store.latestList(obj);
      t.listViews.put(obj, view);
      t.listViewTs.put(obj, latestTs(obj));
    }
    return view;
  }

  private long latestTs(int obj) {
    Version v = store.latest(obj);
    return v == null ? 0 : v.ts();
  }

  /**
   * First updater wins: {@code obj} has a version committed after {@code t}'s snapshot, a write
   * still to install (fractured visibility), or a buffered write of another live active transaction.
   */
  private boolean writtenConcurrently(MvccTxn t, int obj) {
    if (!store.newerThan(obj, t.startTs).isEmpty()) {
      return true;
    }
    for (PendingInstall p : pending) {
      if (p.obj() == obj) {
        return true;
      }
    }
    for (int i = 0; i < active.size(); i++) {
      MvccTxn o = txns.get(active.getInt(i));
      if (o != t && o.live() && o.writes.containsKey(obj)) {
        return true;
      }
    }
    return false;
  }

  /** Read uncommitted: the most recent buffered write of {@code obj} by another active transaction. */
  private MvccTxn.Buffered mostRecentBuffered(MvccTxn reader, int obj) {
    MvccTxn.Buffered best = null;
    for (int i = 0; i < active.size(); i++) {
      MvccTxn o = txns.get(active.getInt(i));
      MvccTxn.Buffered b = o == reader ? null : o.writes.get(obj);
      if (b != null && (best == null || b.lastWrite > best.lastWrite)) {
        best = b;
      }
    }
    return best;
  }

  /** SSI: the reader does not see versions newer than its snapshot, nor uncommitted or pending writes. */
  private void noteRead(MvccTxn t, int obj) {
    if (!policy.ssi()) {
      return;
    }
    IntArrayList unseen = new IntArrayList();
    for (Version v : store.newerThan(obj, t.startTs)) {
      unseen.add(v.writer());
    }
    for (int i = 0; i < active.size(); i++) {
      MvccTxn o = txns.get(active.getInt(i));
      if (o != t && o.writes.containsKey(obj)) {
        unseen.add(o.id);
      }
    }
    for (PendingInstall p : pending) {
      if (p.obj() == obj) {
        unseen.add(p.writer().id);
      }
    }
    ssi.read(t, obj, unseen);
  }

  /** First committer wins, checked again at commit (see {@link #writtenConcurrently}, without the active writers). */
  private boolean writeWriteConflict(MvccTxn t) {
    if (!policy.firstUpdaterWins() || faults.contains(Fault.LOST_UPDATE)) {
      return false;
    }
    for (Int2ObjectMap.Entry<MvccTxn.Buffered> w : t.writes.int2ObjectEntrySet()) {
      if (!store.newerThan(w.getIntKey(), t.startTs).isEmpty()) {
        return true;
      }
      for (PendingInstall p : pending) {
        if (p.obj() == w.getIntKey()) {
          return true;
        }
      }
    }
    return false;
  }

  /** Installs all of {@code t}'s writes with one timestamp, or (fractured) the first now and the rest later. */
  private void install(MvccTxn t) {
    if (t.writes.isEmpty()) {
      return;
    }
    long ts = ++clock;
    boolean first = true;
    for (Int2ObjectMap.Entry<MvccTxn.Buffered> w : t.writes.int2ObjectEntrySet()) {
      if (first || !faults.contains(Fault.FRACTURED_VISIBILITY)) {
        installOne(t, w.getIntKey(), w.getValue(), ts);
      } else {
        pending.add(new PendingInstall(t, w.getIntKey(), w.getValue()));
      }
      first = false;
    }
  }

  private void installOne(MvccTxn t, int obj, MvccTxn.Buffered w, long ts) {
    if (MvccStore.isList(obj)) {
      store.install(obj, new Version(t.id, ts, History.NIL, concat(store.latestList(obj), w.appends)));
    } else {
      store.install(obj, new Version(t.id, ts, w.value, EMPTY));
    }
  }

  private void end(MvccTxn t, MvccTxn.State state) {
    if (state == MvccTxn.State.ABORTED && faults.contains(Fault.ABORTED_WRITE_VISIBLE)) {
      install(t);
    }
    t.state = state;
    for (Int2ObjectMap.Entry<MvccTxn.Buffered> w : t.writes.int2ObjectEntrySet()) {
      if (listLocks.get(w.getIntKey()) == t.id) {
        listLocks.remove(w.getIntKey());
      }
    }
    active.rem(t.id);
  }

  private MvccTxn activeTxn(int txn) {
    MvccTxn t = txn >= 0 && txn < txns.size() ? txns.get(txn) : null;
    if (t == null || t.state != MvccTxn.State.ACTIVE) {
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
