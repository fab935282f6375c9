package io.isowatch.checker.window;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.ForbiddenAnomalies;
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
 * ({@link #violatedChecks()}). On a register-only history Adya's levels are not decided ({@link
 * #decidesAdyaLevels()}); snapshot isolation and serializable are decided there by the polygraph
 * checks ({@link io.isowatch.checker.polygraph.PolygraphChecker}: PolySI, VLDB 2023; Cobra, OSDI
 * 2020), run by each generation on its whole history at deterministic points: every K transactions
 * fed to it ({@link WindowConfig#polygraphEvery()}), when it retires, at {@link #finish()} and when
 * {@link #advance(long, boolean)} gives up (where a stream may end). Running out of their budget is
 * unknown: counted ({@link Outcome#undecidedChecks()}), never reported. The Adya check updates only
 * what a transaction touches (its keys' version orders and edges, a Pearce–Kelly order, a cycle
 * search on the components that changed; {@link io.isowatch.checker.adya.IncrementalAdya}):
 * independent of W for bounded transactions and list lengths; the axiomatic checks cost what AWDIT's incremental form costs per transaction; a
 * polygraph run costs a search over a generation (NP-complete in general, bounded by its budget),
 * about 4 + W/K runs per generation.
 *
 * <p><b>No false alarm from windowing.</b> A generation holds a subset of the history's
 * transactions, each with its session's order among them; a read whose writer it lacks is unknown,
 * or a read of a writer not yet fed names a value nothing in it wrote, and the polygraph adds no edge
 * for either. Restricting a commit order that shows the history snapshot isolated (serializable) to
 * the generation's transactions shows the generation so: every read it keeps still reads the last
 * write before it (or before its snapshot) among fewer writers. So a polygraph violation of a
 * generation is one of the history.
 *
 * <p><b>Parts.</b> This class is the facade; each part states its invariant:
 * <ul>
 *   <li>{@link Writers}: the transactions and writes that arrived, and whether a read's writer is
 *       known (with the list prefixes already verified);
 *   <li>{@link EvictedWrites}: fingerprints of the writes evicted from the window, so that reads of
 *       cold keys' values are recognised;
 *   <li>{@link HoldQueue}: committed transactions held, with the later transactions of their session,
 *       until every value they read has a writer that arrived, the read grace ends ({@link
 *       WindowConfig#readGraceMicros()}, on the read clock of {@link WindowConfig.ReadClock}) or
 *       the caller gives them up;
 *   <li>{@link Generations}: the window itself, overlapping generations of incremental checkers
 *       started every W/2 transactions or T/2 of event time, what they find and what they can miss;
 *   <li>{@link Reporter}: each violation reported once ({@link ViolationIds}), ids forgotten once no
 *       live generation can find them again, and the thin-air reads the window establishes.
 * </ul>
 *
 * <p><b>Reads of writers not yet arrived.</b> A held transaction whose grace ended by the read
 * clock is fed with those reads unknown and each is reported once as a {@link
 * Anomaly#THIN_AIR_READ}. With {@link WindowConfig.ReadClock#END_TIMES} that clock is the largest
 * end time offered (or given to {@link #advance(long)}); with {@link
 * WindowConfig.ReadClock#WATERMARKS} it is only the low watermark given to {@link #advance(long,
 * boolean)}, the least progress of every source that could still deliver the writer, so that a
 * source that lags (a slow or restarted partition) never makes its writers look absent. With
 * watermarks, the caller may also give held transactions up ({@link #advance(long, boolean)}: a
 * source stalled, or every source is exhausted): they are fed with those reads unknown,
 * <i>unresolved</i>, counted ({@link Outcome#unresolvedReads()}) and never reported, since the
 * writer's absence is not established.
 *
 * <p><b>State.</b> All state that must survive a crash is reported to the {@link Journal} as it
 * changes, and {@link #restore} rebuilds the checker from it ({@link Snapshot}) by replaying the
 * window's transactions with output suppressed. Not thread-safe.
 */
public final class WindowChecker {
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
   * @param undecidedChecks polygraph checks run by this call that ran out of their budget (unknown:
   *     counted, nothing reported)
   */
  public record Outcome(List<WindowViolation> violations, int checked, int checkedOps, int unresolvedReads,
      int undecidedChecks) {}

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

  /**
   * The durable state of a checker, as its {@link Journal} received it and {@link #meta()} gave it,
   * for {@link #restore}.
   *
   * @param meta the last {@link #meta()} stored
   * @param fed the window's fed transactions, in feed order
   * @param held the held transactions, in arrival order
   * @param reportedIds reported ids and their last positions
   * @param evictedWrites the evicted-write memory, slot by slot
   * @param lastEvictedWrites per key hash, the fingerprint of its latest evicted write
   * @param verifiedLists per list key, the last list given to {@link Journal#verifiedList}
   */
  public record Snapshot(Meta meta, List<Fed> fed, List<Held> held, Map<String, Long> reportedIds,
      long[] evictedWrites, Map<Long, Long> lastEvictedWrites, Map<String, long[]> verifiedLists) {}

  private final WindowConfig config;
  private final Writers writers;
  private final HoldQueue holds;
  private final Reporter reporter;
  private final Generations generations;
  private long streamTime = Long.MIN_VALUE;
  /** With {@link WindowConfig.ReadClock#WATERMARKS}: the low watermark, µs (the read clock). */
  private long watermark = Long.MIN_VALUE;
  private int checked;
  private int checkedOps;
  private int unresolved;

  /**
   * @param config the window's bounds
   * @param journal receives every change of the durable state
   */
  public WindowChecker(WindowConfig config, Journal journal) {
    this.config = config;
    this.writers = new Writers(config.evictedWrites(), journal);
    this.holds = new HoldQueue(config.readGraceMicros(), journal);
    this.reporter = new Reporter(journal);
    this.generations = new Generations(config, journal, writers, reporter);
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
    writers.requireNew(txn);
    startCall();
    streamTime = Math.max(streamTime, txn.eventTime());
    writers.register(txn, Writers.ARRIVED);
    if (!holds.holds(txn.session()) && writers.known(txn)) {
      feed(txn, -1, writers.unchecked(txn), true);
    } else {
      holds.hold(txn);
    }
    release(false, false);
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
    release(false, false);
    return endCall();
  }

  /**
   * Sets the low watermark ({@link WindowConfig.ReadClock#WATERMARKS}): a held transaction whose
   * end time plus the grace is at or before it is fed with its reads of writers that did not arrive
   * reported as thin-air reads; with {@code giveUp}, every other held transaction is fed too, those
   * reads counted as unresolved and not reported, and every live generation fed since its polygraph
   * checks last ran runs them (on a register-only history; the stream may end here).
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
    release(false, giveUp);
    if (giveUp) {
      generations.decide(streamTime);
    }
    return endCall();
  }

  /**
   * Ends the stream: every held transaction is fed, its reads with no arrived writer reported as
   * thin-air reads (the input is complete, so the writer's absence is certain), and every live
   * generation is finished (reads waiting inside them released, its polygraph checks run). For tests and bounded inputs; the
   * checker must not be offered more afterwards.
   *
   * @return what that produced
   */
  public Outcome finish() {
    startCall();
    release(true, false);
    generations.finish(streamTime);
    return endCall();
  }

  /**
   * @return the checks violated so far (counting every violation found, also those deduplicated),
   *     in the vocabulary of {@link LevelPlan#checks} for the whole ladder; for the Adya checks, a
   *     level counts as violated when a violation found breaks it ({@link ForbiddenAnomalies#forbids})
   */
  public Set<LevelPlan.Check> violatedChecks() {
    return reporter.violated();
  }

  /**
   * @return whether the history has shown list-append operations, so that Adya's levels are decided
   *     (and the polygraph's are not)
   */
  public boolean decidesAdyaLevels() {
    return generations.listAppend();
  }

  /** @return the number of transactions in the window (fed to a live generation) */
  public long windowSize() {
    return generations.size();
  }

  /** @return the number of transactions held, waiting for a writer */
  public int heldCount() {
    return holds.count();
  }

  /** @return the small durable state, to be stored with the journal's records */
  public Meta meta() {
    return new Meta(generations.nextSeq(), holds.nextArrival(), streamTime, writers.ringNext(),
        generations.listAppend(), generations.starts());
  }

  /**
   * Rebuilds a checker from its durable state, replaying the window's transactions into fresh
   * generations with output suppressed (violations re-found are not returned; the reported ids
   * restored keep them from being reported again).
   *
   * @param config the bounds (W may differ from the stored run's; the stored generations are kept)
   * @param journal receives the changes from now on (not during the replay)
   * @param state what the journal stored and the last {@link #meta()}
   * @return the checker
   */
  public static WindowChecker restore(WindowConfig config, Journal journal, Snapshot state) {
    WindowChecker c = new WindowChecker(config, journal);
    Meta meta = state.meta();
    c.streamTime = meta.streamTime();
    c.writers.restore(state.verifiedLists(), state.evictedWrites(), meta.ringNext(), state.lastEvictedWrites());
    for (Fed f : state.fed()) {
      c.writers.register(f.txn(), f.seq());
    }
    for (Held h : state.held()) {
      c.writers.register(h.txn(), Writers.ARRIVED);
    }
    c.holds.restore(meta.nextArrival(), state.held());
    c.generations.replay(meta.generationStarts(), meta.nextSeq(), state.fed(), meta.listAppend());
    c.reporter.restore(state.reportedIds());
    return c;
  }

  /** Feeds the held transactions that are due ({@link HoldQueue#release}). */
  private void release(boolean all, boolean giveUp) {
    if (!holds.isEmpty()) {
      int givenUp = holds.release(all, giveUp, readClock(), writers, this::feed); // feed counts too
      unresolved += givenUp;
    }
  }

  /** @return the clock the read grace is measured against, µs ({@link WindowConfig.ReadClock}) */
  private long readClock() {
    return config.readClock() == WindowConfig.ReadClock.WATERMARKS ? watermark : streamTime;
  }

  /**
   * @param certain whether the writers of {@code unresolvedOps} are known to be absent (reported as
   *     thin-air reads) or only given up on (counted by {@link HoldQueue#release}); a read of a key
   *     whose writes the evicted-write memory may have forgotten ({@link Writers#mayHaveForgotten})
   *     is never certain, and is counted as unresolved here
   */
  private void feed(WindowTxn txn, long arrival, int[] unresolvedOps, boolean certain) {
    long seq = generations.feed(txn, arrival, unresolvedOps, streamTime);
    checked++;
    checkedOps += txn.opCount();
    if (certain && txn.status() == TxnStatus.COMMITTED) {
      for (int op : unresolvedOps) {
        if (writers.mayHaveForgotten(txn.keyHash(op))) {
          unresolved++;
        } else {
          reporter.thinAir(seq, txn, op, generations.youngest(), streamTime, generations.listAppend());
        }
      }
    }
  }

  private void startCall() {
    reporter.beginCall();
    checked = 0;
    checkedOps = 0;
    unresolved = 0;
  }

  private Outcome endCall() {
    return new Outcome(reporter.callReports(), checked, checkedOps, unresolved, reporter.callUndecided());
  }
}
