package io.isowatch.checker.window;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.ForbiddenAnomalies;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import it.unimi.dsi.fastutil.objects.Object2LongMap;
import it.unimi.dsi.fastutil.objects.Object2LongOpenHashMap;
import it.unimi.dsi.fastutil.objects.Object2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Incremental checking of one history over a sliding window, for the streaming monitor: ended
 * transactions arrive one at a time ({@link #offer}) in an order consistent with session order; the
 * violations they complete come back at once, each once, in a form that needs no history ({@link
 * WindowViolation}).
 *
 * <p><b>Checks.</b> The whole ladder, as {@link LevelPlan} chooses for it: read committed, read
 * atomic and causal consistency by {@link io.isowatch.checker.awdit.IncrementalChecker} (AWDIT,
 * Møldrup &amp; Pavlogiannis, PLDI 2025, cycles found as edges arrive with Pearce &amp; Kelly's dynamic
 * topological order, ACM JEA 2006) on every history; once a list-append operation is seen, Adya's
 * phenomena (Adya, MIT 1999; Elle, VLDB 2020) by one {@link
 * io.isowatch.checker.adya.IncrementalAdya} at serializable, whose violations each name the weakest
 * level they break, which decides read uncommitted, PL-2, snapshot isolation and serializable at once
 * ({@link #violatedChecks()}). A register-only history cannot decide snapshot isolation or
 * serializable: those levels are never checked for it ({@link #decidesAdyaLevels()}). The Adya check
 * re-analyses its generation on every transaction: O(W) per transaction, acceptable for list-append
 * histories for now; the axiomatic checks cost what AWDIT's incremental form costs per transaction.
 *
 * <p><b>Window.</b> Transactions are fed to <i>generations</i> ({@link Generation}): each has its own
 * history and checkers. A new generation starts when the youngest holds W/2 transactions or spans
 * T/2 of event time (W = {@link WindowConfig#windowTransactions()}, T = {@link
 * WindowConfig#windowTimeMicros()}); starting a third retires the oldest, which then holds about W
 * transactions (or spans about T). So at most two are live and memory is bounded by about 2 W
 * transactions. Every transaction is fed to every live generation. <b>What is found:</b> every
 * violation whose transactions were all fed within W/2 consecutive feed positions and within T/2 of
 * event time lies in one generation and is found. <b>What can be missed:</b> a cycle whose
 * transactions are further apart (one end evicted, or fed before the youngest generation began)
 * is not seen by any generation holding all of it and is not reported; a generation also sees
 * fewer inferred commit-order edges near its start, since the reads that force them may be
 * outside it. <b>What is never invented:</b> a read whose writer is not in a generation (fed before
 * it started, or evicted) enters it as an unknown read ({@link History#UNKNOWN_VALUE}, or an unknown
 * list read when the list's last element is such a write; earlier such elements are dropped, which
 * keeps the version order among the generation's own appends). An unknown read gives no edge and no
 * basic-axiom violation, so every edge of a reported cycle is a real dependency, or (for a dropped
 * element) a real path of dependencies of the same type through transactions outside the window.
 *
 * <p><b>Reads of writers not yet arrived.</b> A committed transaction (the reads of others are not
 * checked, and they are never held) reading a (key, value) that no arrived
 * transaction wrote is held here, with the later transactions of its session, until every value it
 * read has a writer that arrived, or until the read clock says the writer will not come: its end
 * time plus the read grace period ({@link WindowConfig#readGraceMicros()}) is at or before the
 * <i>read clock</i>. With {@link WindowConfig.ReadClock#END_TIMES} that clock is the largest end time
 * offered (or given to {@link #advance(long)}); with {@link WindowConfig.ReadClock#WATERMARKS} it is
 * only the low watermark given to {@link #advance(long, boolean)}, the least progress of every source
 * that could still deliver the writer, so that a source that lags (a slow or restarted partition)
 * never makes its writers look absent. The transaction is then fed with those reads unknown and each
 * is reported once as a {@link Anomaly#THIN_AIR_READ}. With watermarks, the caller may also give
 * held transactions up ({@link #advance(long, boolean)}: a source stalled, or every source is
 * exhausted): they are fed with those reads unknown, <i>unresolved</i>, counted ({@link
 * Outcome#unresolvedReads()}) and never reported, since the writer's absence is not established.
 * "Arrived" only grows, so holding never deadlocks. Writes of evicted transactions are remembered as
 * fingerprints ({@link Fingerprints}): the last {@link WindowConfig#evictedWrites()} of them (8 bytes each), and
 * per key the latest evicted write (16 bytes per key ever written: this memory grows with the key
 * space, not with time), so that reads of the current or recent values of cold keys are
 * recognised; a read of an older value evicted longer ago than the recent-write memory reaches is
 * reported as unresolved, the one report the bounded memory can make wrongly. A list read
 * needs every element's appender to have arrived, except for the prefix it shares with the longest
 * list read of the key fed before with all elements known (kept per list key, journaled). A fingerprint
 * collision (probability about 2^-64 per pair of writes) can only hide an unresolved read. Inside a
 * generation, a read of a writer that arrived but is still held waits in the incremental checker
 * until that writer is fed; transactions that can only wait for each other there (a cycle of {@code
 * so ∪ wr}) are released by the incremental checker as soon as the cycle is fed, so the cycle is
 * reported without {@link #finish()}, which a stream never calls. When the generation retires it is
 * {@link io.isowatch.checker.awdit.IncrementalChecker#finish() finished} and its thin-air reports
 * are dropped (the window owns those).
 *
 * <p><b>Ids.</b> A violation's id includes the weakest level broken ({@link ViolationIds#of(Anomaly,
 * List, String, Level)}); one re-found at the same or a stronger level is not reported again, one
 * re-found at a weaker level is (a stronger claim), and within one call the weakest are reported
 * first.
 *
 * <p><b>Identity and state.</b> Violations are deduplicated by {@link ViolationIds} across
 * generations; an id is forgotten once every live generation starts after its transactions. All
 * state that must survive a crash is reported to the {@link Journal} as it changes, and {@link
 * #restore} rebuilds the checker from it by replaying the window's transactions with output
 * suppressed. Not thread-safe.
 */
public final class WindowChecker {
  /** Writer position of a transaction that arrived and is held (not fed yet). */
  static final long ARRIVED = Long.MAX_VALUE;

  /**
   * Receives every change of the durable state, in order. Default methods do nothing.
   */
  public interface Journal {
    /** Transaction {@code txn} arrived and is held, at arrival position {@code arrival}. */
    default void held(long arrival, WindowTxn txn) {}

    /**
     * Transaction {@code txn} was fed at position {@code seq}.
     *
     * @param arrival its arrival position if it was {@link #held}, else -1
     * @param unresolved sorted operation indexes fed as unknown reads
     */
    default void fed(long seq, long arrival, WindowTxn txn, int[] unresolved) {}

    /** Transactions at positions {@code from} (inclusive) to {@code to} (exclusive) left the window. */
    default void evicted(long from, long to) {}

    /** Slot {@code slot} of the evicted-write memory now holds {@code fingerprint}. */
    default void evictedWrite(int slot, long fingerprint) {}

    /** The latest evicted write of the key whose hash is {@code keyHash} has {@code fingerprint}. */
    default void evictedLastWrite(long keyHash, long fingerprint) {}

    /**
     * The longest list read of {@code key} fed with every element known is now {@code elements}
     * (oldest first; not to be modified).
     */
    default void verifiedList(String key, long[] elements) {}

    /** Violation {@code id} was reported; its latest transaction is at position {@code lastSeq}. */
    default void reported(String id, long lastSeq) {}

    /** Violation {@code id} can no longer be re-found and is forgotten. */
    default void forgotten(String id) {}
  }

  /**
   * What one call produced.
   *
   * @param violations new violations, in the order found
   * @param checked transactions fed to the checkers by this call
   * @param checkedOps their operations
   * @param unresolvedReads reads given up on as unresolved by this call ({@link #advance(long,
   *     boolean)} with {@code giveUp}, before the low watermark passed them: counted, not in {@code
   *     violations})
   */
  public record Outcome(List<WindowViolation> violations, int checked, int checkedOps, int unresolvedReads) {}

  /**
   * The small durable state besides the transactions.
   *
   * @param nextSeq the next feed position
   * @param nextArrival the next arrival position of a held transaction
   * @param streamTime the largest event time seen, µs
   * @param ringNext the next slot of the evicted-write memory to fill
   * @param listAppend whether list-append operations were seen
   * @param generationStarts feed positions where the live generations start, oldest first
   */
  public record Meta(long nextSeq, long nextArrival, long streamTime, int ringNext, boolean listAppend,
      long[] generationStarts) {}

  /** A fed transaction of the window, for {@link #restore}. */
  public record Fed(long seq, WindowTxn txn, int[] unresolved) {}

  /** A held transaction, for {@link #restore}. */
  public record Held(long arrival, WindowTxn txn) {}

  private static final int[] NONE = new int[0];
  /** Slots the evicted-write memory starts with (a monitor may check many small histories). */
  private static final int INITIAL_RING = 1024;
  private static final List<LevelPlan.Check> AXIOMATIC = LevelPlan.checks(List.of(Level.values()), false)
      .stream().filter(c -> c.model() == LevelPlan.Model.AXIOMATIC).toList();
  private static final LevelPlan.Check ADYA = new LevelPlan.Check(LevelPlan.Model.ADYA, Level.SERIALIZABLE);

  private final WindowConfig config;
  private final Journal journal;
  private final ObjectArrayList<Generation> generations = new ObjectArrayList<>();
  private final ObjectArrayList<WindowTxn> live = new ObjectArrayList<>();
  private long liveBase;
  private long nextSeq;
  private long nextArrival;
  private long streamTime = Long.MIN_VALUE;
  /** With {@link WindowConfig.ReadClock#WATERMARKS}: the low watermark, µs (the read clock). */
  private long watermark = Long.MIN_VALUE;
  private boolean listAppend;

  private final Long2LongOpenHashMap writers = new Long2LongOpenHashMap();
  private final Object2LongOpenHashMap<String> txnIds = new Object2LongOpenHashMap<>();
  private final LongOpenHashSet evicted = new LongOpenHashSet();
  /** Per key hash, the fingerprint of its latest evicted write. */
  private final Long2LongOpenHashMap lastEvicted = new Long2LongOpenHashMap();
  /** The evicted-write memory, grown on demand up to {@link #ringCapacity} slots. */
  private long[] ring;
  private int ringCapacity;
  private int ringNext;
  private int ringSize;

  private final Map<String, ArrayDeque<Held>> held = new LinkedHashMap<>();
  /** The number of transactions in {@link #held}. */
  private int heldCount;
  private final Object2LongOpenHashMap<String> reported = new Object2LongOpenHashMap<>();
  /** Per list key, the longest list read fed whose elements all had known writers. */
  private final Object2ObjectOpenHashMap<String, long[]> verified = new Object2ObjectOpenHashMap<>();
  private final Set<LevelPlan.Check> violated = new LinkedHashSet<>();

  private final List<Generation.Found> found = new ArrayList<>();
  /** Scratch of {@link #readWriters(WindowTxn)}. */
  private long[] readWriters = new long[16];
  private List<WindowViolation> out = new ArrayList<>();
  private int checked;
  private int checkedOps;
  private int unresolved;
  private boolean replaying;

  /**
   * @param config the window's bounds
   * @param journal receives every change of the durable state
   */
  public WindowChecker(WindowConfig config, Journal journal) {
    this.config = config;
    this.journal = journal;
    this.ringCapacity = config.evictedWrites();
    this.ring = new long[Math.min(ringCapacity, INITIAL_RING)];
    writers.defaultReturnValue(-1);
    txnIds.defaultReturnValue(-1);
  }

  /**
   * Accepts one ended transaction.
   *
   * @param txn the transaction; its session's earlier transactions must have been offered before
   * @return the violations it completed (and those of held transactions it released or whose grace
   *     ended with its event time)
   * @throws RejectedTransactionException before any change of state if its txnId is in the window
   *     or held ({@code duplicate-txn}) or it writes a (key, value) written by a transaction in the
   *     window, held, or in the evicted-write memory ({@code duplicate-write})
   */
  public Outcome offer(WindowTxn txn) {
    if (txnIds.containsKey(txn.id())) {
      throw new RejectedTransactionException(RejectedTransactionException.DUPLICATE_TXN,
          "transaction " + txn.id() + " arrived before");
    }
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      if (OpKind.isWrite(txn.kind(i))) {
        long fp = Fingerprints.of(txn.keyHash(i), txn.value(i));
        if (knownWrite(txn.keyHash(i), fp)) {
          throw new RejectedTransactionException(RejectedTransactionException.DUPLICATE_WRITE,
              "operation " + i + " of " + txn.id() + " writes " + txn.value(i) + " to " + txn.key(i)
                  + ", which an earlier transaction wrote");
        }
      }
    }
    startCall();
    streamTime = Math.max(streamTime, txn.eventTime());
    txnIds.put(txn.id(), ARRIVED);
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      if (OpKind.isWrite(txn.kind(i))) {
        writers.put(Fingerprints.of(txn.keyHash(i), txn.value(i)), ARRIVED);
      }
    }
    ArrayDeque<Held> queue = held.get(txn.session());
    if (queue == null && known(txn)) {
      feed(txn, -1, unchecked(txn), true);
    } else {
      Held hd = new Held(nextArrival++, txn);
      held.computeIfAbsent(txn.session(), s -> new ArrayDeque<>()).add(hd);
      heldCount++;
      journal.held(hd.arrival(), txn);
    }
    if (!held.isEmpty()) {
      release(false, false);
    }
    return endCall();
  }

  /**
   * Moves the read clock forward: held transactions whose grace period ended are fed with their
   * reads of writers that did not arrive reported as thin-air reads. With {@link
   * WindowConfig.ReadClock#WATERMARKS} this is {@code advance(now, false)}; otherwise it moves the
   * stream time (the largest end time, also the clock of the window's time bound).
   *
   * @param now event time, µs; earlier than the current clock changes nothing
   * @return what that produced
   */
  public Outcome advance(long now) {
    if (config.readClock() == WindowConfig.ReadClock.WATERMARKS) {
      return advance(now, false);
    }
    startCall();
    streamTime = Math.max(streamTime, now);
    if (!held.isEmpty()) {
      release(false, false);
    }
    return endCall();
  }

  /**
   * Sets the low watermark ({@link WindowConfig.ReadClock#WATERMARKS}): a held transaction whose
   * end time plus the grace is at or before it is fed with its reads of writers that did not arrive
   * reported as thin-air reads; with {@code giveUp}, every other held transaction is fed too, those
   * reads counted as unresolved and not reported.
   *
   * @param lowWatermark µs: no source can still deliver a transaction that ended more than the grace
   *     before it. It replaces the current one and may be smaller: what was released stays released
   * @param giveUp whether to stop waiting for the rest (a source stalled, or every source is
   *     exhausted for now)
   * @return what that produced
   * @throws IllegalStateException with {@link WindowConfig.ReadClock#END_TIMES}
   */
  public Outcome advance(long lowWatermark, boolean giveUp) {
    if (config.readClock() != WindowConfig.ReadClock.WATERMARKS) {
      throw new IllegalStateException("this checker's read grace runs on end times, not watermarks");
    }
    startCall();
    watermark = lowWatermark;
    if (!held.isEmpty()) {
      release(false, giveUp);
    }
    return endCall();
  }

  /**
   * Ends the stream: every held transaction is fed, its reads with no arrived writer reported as
   * thin-air reads (the input is complete, so the writer's absence is certain), and every live
   * generation is finished (reads waiting inside them released). For tests and bounded inputs; the
   * checker must not be offered more afterwards.
   *
   * @return what that produced
   */
  public Outcome finish() {
    startCall();
    release(true, false);
    for (Generation g : generations) {
      g.finish(found);
      drainFound(g);
    }
    return endCall();
  }

  /**
   * @return the checks violated so far (counting every violation found, also those deduplicated),
   *     in the vocabulary of {@link LevelPlan#checks} for the whole ladder; for the Adya checks, a
   *     level counts as violated when a violation found breaks it ({@link ForbiddenAnomalies#forbids})
   */
  public Set<LevelPlan.Check> violatedChecks() {
    return Collections.unmodifiableSet(violated);
  }

  /** @return whether the history has shown list-append operations, so that Adya's levels are decided */
  public boolean decidesAdyaLevels() {
    return listAppend;
  }

  /** @return the number of transactions in the window (fed to a live generation) */
  public long windowSize() {
    return live.size();
  }

  /** @return the number of transactions held, waiting for a writer */
  public int heldCount() {
    return heldCount;
  }

  /** @return the small durable state, to be stored with the journal's records */
  public Meta meta() {
    long[] starts = new long[generations.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = generations.get(i).start;
    }
    return new Meta(nextSeq, nextArrival, streamTime, ringNext, listAppend, starts);
  }

  /**
   * Rebuilds a checker from its durable state, replaying the window's transactions into fresh
   * generations with output suppressed (violations re-found are not returned; the reported ids
   * restored keep them from being reported again).
   *
   * @param config the bounds (W may differ from the stored run's; the stored generations are kept)
   * @param journal receives the changes from now on (not during the replay)
   * @param meta the last {@link #meta()} stored
   * @param fed the window's fed transactions, in feed order
   * @param heldTxns the held transactions, in arrival order
   * @param reportedIds reported ids and their last positions
   * @param evictedWrites the evicted-write memory, slot by slot
   * @param lastEvictedWrites per key hash, the fingerprint of its latest evicted write
   * @param verifiedLists per list key, the last list given to {@link Journal#verifiedList}
   * @return the checker
   */
  public static WindowChecker restore(WindowConfig config, Journal journal, Meta meta, List<Fed> fed,
      List<Held> heldTxns, Map<String, Long> reportedIds, long[] evictedWrites, Map<Long, Long> lastEvictedWrites,
      Map<String, long[]> verifiedLists) {
    WindowChecker c = new WindowChecker(config, journal);
    c.replaying = true;
    c.nextArrival = meta.nextArrival();
    c.streamTime = meta.streamTime();
    c.listAppend = meta.listAppend();
    c.ringCapacity = Math.max(c.ringCapacity, evictedWrites.length);
    c.ring = Arrays.copyOf(evictedWrites, Math.max(evictedWrites.length, c.ring.length));
    c.ringSize = evictedWrites.length;
    c.ringNext = c.ringCapacity == 0 ? 0 : meta.ringNext() % c.ringCapacity;
    for (long fp : evictedWrites) {
      c.evicted.add(fp);
    }
    lastEvictedWrites.forEach(c.lastEvicted::put);
    c.verified.putAll(verifiedLists);
    for (Fed f : fed) {
      c.registerWrites(f.txn(), f.seq());
      c.txnIds.put(f.txn().id(), f.seq());
    }
    for (Held h : heldTxns) {
      c.registerWrites(h.txn(), ARRIVED);
      c.txnIds.put(h.txn().id(), ARRIVED);
      c.held.computeIfAbsent(h.txn().session(), s -> new ArrayDeque<>()).add(h);
      c.heldCount++;
    }
    long[] starts = meta.generationStarts();
    List<LevelPlan.Check> axiomatic = AXIOMATIC;
    int next = 0;
    c.liveBase = fed.isEmpty() ? meta.nextSeq() : fed.get(0).seq();
    for (Fed f : fed) {
      while (next < starts.length && starts[next] <= f.seq()) {
        c.generations.add(new Generation(starts[next++], axiomatic, ADYA, false));
      }
      if (f.txn().hasListOps()) {
        c.listAppend = true;
      }
      c.live.add(f.txn());
      c.nextSeq = f.seq() + 1;
      long[] readWriters = c.readWriters(f.txn());
      for (Generation g : c.generations) {
        if (c.listAppend) {
          g.enableAdya(c.found);
        }
        g.feed(f.seq(), f.txn(), f.unresolved(), readWriters, c.writers, c.found);
      }
      c.found.clear();
    }
    while (next < starts.length) {
      c.generations.add(new Generation(starts[next++], axiomatic, ADYA, c.listAppend));
    }
    c.nextSeq = meta.nextSeq();
    c.reported.putAll(reportedIds);
    c.replaying = false;
    return c;
  }

  // ---------------------------------------------------------------- arrival and holding

  private void registerWrites(WindowTxn txn, long seq) {
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      if (OpKind.isWrite(txn.kind(i))) {
        writers.put(Fingerprints.of(txn.keyHash(i), txn.value(i)), seq);
      }
    }
  }

  /**
   * @return whether every value {@code txn} reads has a writer that arrived (or was evicted); true
   *     for a transaction that did not commit, whose reads are not checked
   */
  private boolean known(WindowTxn txn) {
    if (txn.status() != TxnStatus.COMMITTED) {
      return true;
    }
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      if (!known(txn, i)) {
        return false;
      }
    }
    return true;
  }

  private boolean known(WindowTxn txn, int i) {
    byte k = txn.kind(i);
    if (k == OpKind.READ) {
      long v = txn.value(i);
      return v == History.NIL || knownWrite(txn.keyHash(i), Fingerprints.of(txn.keyHash(i), v));
    }
    if (k == OpKind.READ_LIST) {
      long kh = txn.keyHash(i);
      long[] seen = verified.get(txn.key(i));
      int j = 0;
      int n = txn.listLength(i);
      if (seen != null) {
        for (int m = Math.min(n, seen.length); j < m && seen[j] == txn.listElement(i, j); j++) {
          // a prefix of a list read whose elements all had writers: known
        }
      }
      for (; j < n; j++) {
        if (!knownWrite(kh, Fingerprints.of(kh, txn.listElement(i, j)))) {
          return false;
        }
      }
    }
    return true;
  }

  private boolean knownWrite(long keyHash, long fp) {
    return writers.containsKey(fp) || evicted.contains(fp)
        || (lastEvicted.containsKey(keyHash) && lastEvicted.get(keyHash) == fp);
  }

  /**
   * Feeds every held session head that is known or whose grace ended (all of them if {@code all},
   * reported; all of them if {@code giveUp}, those not due counted as unresolved). Sessions are
   * visited in the order of their heads' arrival, which {@link #restore} rebuilds exactly, so that a
   * restored checker reports what it releases in the same order as the uninterrupted one (the map's
   * own order is that of the queues' creation, which the journal does not keep).
   */
  private void release(boolean all, boolean giveUp) {
    boolean progress = true;
    List<ArrayDeque<Held>> queues = new ArrayList<>(held.size());
    while (progress) {
      progress = false;
      queues.clear();
      queues.addAll(held.values());
      queues.sort(Comparator.comparingLong(q -> q.peekFirst().arrival()));
      for (ArrayDeque<Held> q : queues) {
        while (!q.isEmpty()) {
          Held head = q.peekFirst();
          WindowTxn t = head.txn();
          int[] missing;
          boolean certain = true;
          long due = saturatedSum(t.eventTime(), config.readGraceMicros());
          if (known(t)) {
            missing = unchecked(t);
          } else if (all || due <= readClock()) {
            missing = missing(t);
          } else if (giveUp) {
            missing = missing(t);
            certain = false;
          } else {
            break;
          }
          q.pollFirst();
          heldCount--;
          feed(t, head.arrival(), missing, certain);
          progress = true;
        }
      }
      held.values().removeIf(ArrayDeque::isEmpty);
    }
  }

  /** @return {@code a + b} for {@code b >= 0}, {@link Long#MAX_VALUE} where it would overflow */
  private static long saturatedSum(long a, long b) {
    return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
  }

  /** @return the clock the read grace is measured against, µs ({@link WindowConfig.ReadClock}) */
  private long readClock() {
    return config.readClock() == WindowConfig.ReadClock.WATERMARKS ? watermark : streamTime;
  }

  /** Remembers the list reads of {@code txn} that were fed with every element known. */
  private void noteVerifiedLists(WindowTxn txn, int[] unresolvedOps) {
    int u = 0;
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      if (u < unresolvedOps.length && unresolvedOps[u] == i) {
        u++;
        continue;
      }
      if (txn.kind(i) == OpKind.READ_LIST && txn.status() == TxnStatus.COMMITTED) {
        long[] prev = verified.get(txn.key(i));
        if (prev == null || prev.length < txn.listLength(i)) {
          verified.put(txn.key(i), txn.listRef(i));
          if (!replaying) {
            journal.verifiedList(txn.key(i), txn.listRef(i));
          }
        }
      }
    }
  }

  /**
   * @return for a transaction that did not commit (never held, its reads not checked), the reads
   *     whose writer has not arrived, fed as unknown without a report, so that a replay after a
   *     restart feeds them the same way; none for a committed one
   */
  private int[] unchecked(WindowTxn txn) {
    return txn.status() == TxnStatus.COMMITTED ? NONE : missing(txn);
  }

  private int[] missing(WindowTxn txn) {
    IntArrayList ops = new IntArrayList(0);
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      if (!known(txn, i)) {
        ops.add(i);
      }
    }
    return ops.toIntArray();
  }

  // ---------------------------------------------------------------- feeding

  /**
   * @param certain whether the writers of {@code unresolvedOps} are known to be absent (reported as
   *     thin-air reads) or only given up on (counted as unresolved)
   */
  private void feed(WindowTxn txn, long arrival, int[] unresolvedOps, boolean certain) {
    long seq = nextSeq++;
    admit();
    live.add(txn);
    registerWrites(txn, seq);
    txnIds.put(txn.id(), seq);
    noteVerifiedLists(txn, unresolvedOps);
    journal.fed(seq, arrival, txn, unresolvedOps);
    boolean firstList = !listAppend && txn.hasListOps();
    if (firstList) {
      listAppend = true;
    }
    long[] readWriters = readWriters(txn);
    for (Generation g : generations) {
      if (firstList) {
        g.enableAdya(found);
        drainFound(g);
      }
      g.feed(seq, txn, unresolvedOps, readWriters, writers, found);
      drainFound(g);
    }
    checked++;
    checkedOps += txn.opCount();
    if (txn.status() == TxnStatus.COMMITTED) {
      for (int op : unresolvedOps) {
        if (certain) {
          reportThinAir(seq, txn, op);
        } else {
          unresolved++;
        }
      }
    }
  }

  /**
   * @return per operation of {@code txn}, for a register read of a value other than {@link
   *     History#NIL}, its writer's entry in {@link #writers} (-1 for none); a scratch array reused by
   *     the next call, other entries stale
   */
  private long[] readWriters(WindowTxn txn) {
    int n = txn.opCount();
    if (readWriters.length < n) {
      readWriters = new long[Math.max(n, 2 * readWriters.length)];
    }
    for (int i = 0; i < n; i++) {
      if (txn.kind(i) == OpKind.READ && txn.value(i) != History.NIL) {
        readWriters[i] = writers.get(Fingerprints.of(txn.keyHash(i), txn.value(i)));
      }
    }
    return readWriters;
  }

  /** Starts a generation when the youngest is half full (by count or time), retiring the oldest of three. */
  private void admit() {
    long seq = nextSeq - 1;
    if (generations.isEmpty()) {
      generations.add(new Generation(seq, AXIOMATIC, ADYA, listAppend));
      liveBase = seq;
      return;
    }
    Generation young = generations.get(generations.size() - 1);
    int half = Math.max(1, config.windowTransactions() / 2);
    boolean byCount = young.size() >= half;
    boolean byTime = config.windowTimeMicros() > 0 && young.size() > 0
        && streamTime - young.firstTime() >= config.windowTimeMicros() / 2;
    if (!byCount && !byTime) {
      return;
    }
    generations.add(new Generation(seq, AXIOMATIC, ADYA, listAppend));
    if (generations.size() > 2) {
      retire();
    }
  }

  private void retire() {
    Generation old = generations.remove(0);
    old.finish(found);
    drainFound(old);
    long newBase = generations.get(0).start;
    int n = (int) (newBase - liveBase);
    for (int i = 0; i < n; i++) {
      WindowTxn t = live.get(i);
      txnIds.removeLong(t.id());
      for (int j = 0, m = t.opCount(); j < m; j++) {
        if (OpKind.isWrite(t.kind(j))) {
          long fp = Fingerprints.of(t.keyHash(j), t.value(j));
          writers.remove(fp);
          remember(fp);
          lastEvicted.put(t.keyHash(j), fp);
          journal.evictedLastWrite(t.keyHash(j), fp);
        }
      }
    }
    live.removeElements(0, n);
    journal.evicted(liveBase, newBase);
    liveBase = newBase;
    Iterator<Object2LongMap.Entry<String>> it = reported.object2LongEntrySet().iterator();
    while (it.hasNext()) {
      Object2LongMap.Entry<String> e = it.next();
      if (e.getLongValue() < newBase) {
        journal.forgotten(e.getKey());
        it.remove();
      }
    }
  }

  private void remember(long fp) {
    if (ringCapacity == 0) {
      return;
    }
    if (ringSize == ringCapacity) {
      evicted.remove(ring[ringNext]);
    } else {
      ringSize++;
      if (ringNext >= ring.length) {
        ring = Arrays.copyOf(ring, Math.min(ringCapacity, Math.max(1, ring.length * 2)));
      }
    }
    ring[ringNext] = fp;
    evicted.add(fp);
    journal.evictedWrite(ringNext, fp);
    ringNext = (ringNext + 1) % ringCapacity;
  }

  // ---------------------------------------------------------------- reporting

  private void drainFound(Generation g) {
    if (found.isEmpty()) {
      return;
    }
    // the weakest claim first, so that re-findings of it by stronger checks are not published
    found.sort(Comparator.comparing(f -> f.violation().weakestLevelBroken()));
    for (Generation.Found f : found) {
      Anomaly a = f.violation().anomaly();
      if (a == Anomaly.THIN_AIR_READ) {
        continue; // the window reports unresolved reads itself
      }
      markViolated(f.check(), a);
      if (replaying) {
        continue;
      }
      if (reportedAtOrBelow(g, f.violation())) {
        continue;
      }
      String id = g.identity(f.violation(), f.violation().weakestLevelBroken());
      WindowViolation v = g.convert(id, f.check(), f.violation(), streamTime);
      reported.put(id, v.lastSeq());
      journal.reported(id, v.lastSeq());
      out.add(v);
    }
    found.clear();
  }

  /**
   * @return whether the same anomaly over the same transactions was reported breaking the same
   *     level or a weaker one (a re-finding by a stronger check adds nothing)
   */
  private boolean reportedAtOrBelow(Generation g, Violation v) {
    for (Level l : Level.values()) {
      if (v.weakestLevelBroken().atLeast(l) && reported.containsKey(g.identity(v, l))) {
        return true;
      }
    }
    return false;
  }

  private void markViolated(LevelPlan.Check check, Anomaly a) {
    if (check != null && check.model() == LevelPlan.Model.AXIOMATIC) {
      violated.add(check);
      return;
    }
    for (LevelPlan.Check c : LevelPlan.checks(List.of(Level.values()), listAppend)) {
      boolean sameModel = check == null || c.model() == LevelPlan.Model.ADYA;
      if (sameModel && ForbiddenAnomalies.forbids(c.level(), a)) {
        violated.add(c);
      }
    }
  }

  private void reportThinAir(long seq, WindowTxn txn, int op) {
    markViolated(null, Anomaly.THIN_AIR_READ);
    String id = ViolationIds.of(Anomaly.THIN_AIR_READ, List.of(txn.id()), txn.id() + "#" + op);
    if (reported.containsKey(id)) {
      return;
    }
    String seen = txn.kind(op) == OpKind.READ_LIST ? Arrays.toString(txn.list(op))
        : Long.toString(txn.value(op));
    String summary = txn.id() + " read " + txn.key(op) + " = " + seen
        + ", which no transaction wrote within the read grace period";
    Generation g = generations.get(generations.size() - 1);
    Finding finding = new Finding(Anomaly.THIN_AIR_READ, ForbiddenAnomalies.weakestForbidding(Anomaly.THIN_AIR_READ),
        summary, List.of(txn.finding()), List.of(), List.of(), List.of());
    WindowViolation v = new WindowViolation(id, null, finding, g.minTime(), g.maxTime(), g.size(), streamTime, seq);
    reported.put(id, seq);
    journal.reported(id, seq);
    out.add(v);
  }

  private void startCall() {
    out = new ArrayList<>(0);
    checked = 0;
    checkedOps = 0;
    unresolved = 0;
  }

  private Outcome endCall() {
    return new Outcome(out, checked, checkedOps, unresolved);
  }
}
