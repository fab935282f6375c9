package io.isowatch.checker.window;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Level;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The window of a {@link WindowChecker}: the live {@link Generation}s, each with its own history
 * and incremental checkers, and the transactions fed to them.
 *
 * <p><b>Invariant.</b> At most two generations are live, oldest first, each starting at a feed
 * position; the window holds exactly the transactions fed from the oldest one's start on, and
 * every transaction fed is fed to every live generation. A new generation starts when the youngest
 * holds W/2 transactions or spans T/2 of event time (W = {@link WindowConfig#windowTransactions()},
 * T = {@link WindowConfig#windowTimeMicros()}); starting a third retires the oldest, which then
 * holds about W transactions (or spans about T): it is finished, what it finds reported, its
 * transactions evicted ({@link Writers#evict}, journaled) and the ids that no live generation can
 * find again forgotten ({@link Reporter#forgetBefore}). So memory is bounded by about 2 W
 * transactions.
 *
 * <p><b>What is found:</b> every violation whose transactions were all fed within W/2 consecutive
 * feed positions and within T/2 of event time lies in one generation and is found. <b>What can be
 * missed:</b> a cycle whose transactions are further apart (one end evicted, or fed before the
 * youngest generation began) is not seen by any generation holding all of it and is not reported;
 * a generation also sees fewer inferred commit-order edges near its start, since the reads that
 * force them may be outside it. <b>What is never invented:</b> a read whose writer is not in a
 * generation (fed before it started, or evicted) enters it as an unknown read ({@link
 * History#UNKNOWN_VALUE}, or an unknown list read when the list's last element is such a write;
 * earlier such elements are dropped, which keeps the version order among the generation's own
 * appends). An unknown read gives no edge and no basic-axiom violation, so every edge of a reported
 * cycle is a real dependency, or (for a dropped element) a real path of dependencies of the same
 * type through transactions outside the window.
 *
 * <p><b>The polygraph checks</b> (register-only histories) run on a generation's whole history
 * when it has been fed a multiple of K transactions ({@link WindowConfig#polygraphEvery()}; not
 * during a {@link #replay}, which only counts those points as run, what they found having been
 * reported before the restart), when it retires, at {@link #finish} and at {@link #decide} (the
 * window gave up waiting), only those of levels up to {@link WindowConfig#polygraphUpTo()}. Their
 * soundness on a sub-history is argued in {@link WindowChecker}.
 *
 * <p>Inside a generation, a read of a writer that arrived but is still held waits in the
 * incremental checker until that writer is fed; transactions that can only wait for each other
 * there (a cycle of {@code so ∪ wr}) are released by the incremental checker as soon as the cycle
 * is fed, so the cycle is reported without {@link WindowChecker#finish()}, which a stream never
 * calls. When a generation retires it is {@link io.isowatch.checker.awdit.IncrementalChecker#finish()
 * finished} and its thin-air reports are dropped (the window owns those).
 */
final class Generations {
  private static final List<LevelPlan.Check> AXIOMATIC = LevelPlan.checks(List.of(Level.values()), false)
      .stream().filter(c -> c.model() == LevelPlan.Model.AXIOMATIC).toList();
  private static final LevelPlan.Check ADYA = new LevelPlan.Check(LevelPlan.Model.ADYA, Level.SERIALIZABLE);
  private static final List<LevelPlan.Check> POLYGRAPH = LevelPlan.checks(List.of(Level.values()), false)
      .stream().filter(c -> c.model() == LevelPlan.Model.POLYGRAPH).toList();

  private final WindowConfig config;
  /**
   * The checks of the config's families ({@link WindowConfig#families()}), the polygraph's up to
   * {@link WindowConfig#polygraphUpTo()}; no Adya check is null.
   */
  private final List<LevelPlan.Check> axiomaticChecks;
  private final LevelPlan.Check adyaCheck;
  private final List<LevelPlan.Check> polygraphChecks;
  private final WindowChecker.Journal journal;
  private final Writers writers;
  private final Reporter reporter;
  private final ObjectArrayList<Generation> generations = new ObjectArrayList<>();
  /** The window's transactions, from feed position {@link #liveBase} on. */
  private final ObjectArrayList<WindowTxn> live = new ObjectArrayList<>();
  private long liveBase;
  private long nextSeq;
  private boolean listAppend;
  private final List<Generation.Found> found = new ArrayList<>();
  /** Scratch of {@link #readWriters(WindowTxn)}. */
  private long[] readWriters = new long[16];

  /**
   * @param config the window's bounds
   * @param journal receives each transaction fed and each eviction
   * @param writers the writers known, updated as transactions are fed and evicted
   * @param reporter reports what the generations find
   */
  Generations(WindowConfig config, WindowChecker.Journal journal, Writers writers, Reporter reporter) {
    this.config = config;
    this.axiomaticChecks = only(AXIOMATIC, config.families());
    this.adyaCheck = only(List.of(ADYA), config.families()).isEmpty() ? null : ADYA;
    this.polygraphChecks = only(POLYGRAPH, config.families()).stream()
        .filter(c -> config.polygraphUpTo().atLeast(c.level())).sorted(Comparator.comparing(LevelPlan.Check::level))
        .toList();
    this.journal = journal;
    this.writers = writers;
    this.reporter = reporter;
  }

  /**
   * Feeds {@code txn} at the next feed position to every live generation, starting one (and
   * retiring the oldest) first if the youngest is half full, and reports what they find.
   *
   * @param arrival its arrival position if it was held, else -1
   * @param unresolvedOps sorted operation indexes to feed as unknown reads
   * @param streamTime the largest event time seen, µs (the time bound's clock, and the closing time
   *     of what is found)
   * @return its feed position
   */
  long feed(WindowTxn txn, long arrival, int[] unresolvedOps, long streamTime) {
    long seq = nextSeq++;
    admit(seq, streamTime);
    live.add(txn);
    writers.fed(txn, seq, unresolvedOps);
    journal.fed(seq, arrival, txn, unresolvedOps);
    boolean firstList = !listAppend && txn.hasListOps();
    if (firstList) {
      listAppend = true;
    }
    long[] rw = readWriters(txn);
    for (Generation g : generations) {
      if (firstList) {
        g.enableAdya(found);
        reporter.drain(found, g, streamTime, listAppend);
      }
      g.feed(seq, txn, unresolvedOps, rw, writers.positions(), found);
      if (polygraphDue(g)) {
        reporter.undecided(g.decide(found));
      }
      reporter.drain(found, g, streamTime, listAppend);
    }
    return seq;
  }

  /**
   * Finishes every live generation (reads waiting inside them released) and reports what that
   * finds.
   *
   * @param streamTime the closing time of what is found, µs
   */
  void finish(long streamTime) {
    for (Generation g : generations) {
      g.finish(found);
      reporter.undecided(g.decide(found));
      reporter.drain(found, g, streamTime, listAppend);
    }
  }

  /**
   * Runs the polygraph checks of every live generation fed since they last ran (the window gave up
   * waiting: the stream may end here) and reports what they find.
   *
   * @param streamTime the closing time of what is found, µs
   */
  void decide(long streamTime) {
    for (Generation g : generations) {
      reporter.undecided(g.decide(found));
      reporter.drain(found, g, streamTime, listAppend);
    }
  }

  /**
   * Rebuilds the generations of a stored run by feeding its window's transactions again, nothing
   * reported or journaled; {@code writers} must already hold every stored transaction.
   *
   * @param starts feed positions where the stored generations start, oldest first
   * @param storedNextSeq the stored run's next feed position
   * @param fed the window's fed transactions, in feed order
   * @param storedListAppend whether the stored run had seen list-append operations
   */
  void replay(long[] starts, long storedNextSeq, List<WindowChecker.Fed> fed, boolean storedListAppend) {
    listAppend = storedListAppend;
    int next = 0;
    liveBase = fed.isEmpty() ? storedNextSeq : fed.get(0).seq();
    for (WindowChecker.Fed f : fed) {
      while (next < starts.length && starts[next] <= f.seq()) {
        generations.add(generation(starts[next++], false));
      }
      if (f.txn().hasListOps()) {
        listAppend = true;
      }
      live.add(f.txn());
      long[] rw = readWriters(f.txn());
      for (Generation g : generations) {
        if (listAppend) {
          g.enableAdya(found);
        }
        g.feed(f.seq(), f.txn(), f.unresolved(), rw, writers.positions(), found);
        if (polygraphDue(g)) {
          g.decided(); // what it found then was reported before the restart
        }
      }
      found.clear();
    }
    while (next < starts.length) {
      generations.add(generation(starts[next++], listAppend));
    }
    nextSeq = storedNextSeq;
  }

  /** @return a generation starting at {@code start} running the checks of the config's families */
  private Generation generation(long start, boolean listAppendSeen) {
    return new Generation(start, axiomaticChecks, adyaCheck, polygraphChecks, listAppendSeen);
  }

  private static List<LevelPlan.Check> only(List<LevelPlan.Check> checks, Set<CheckFamily> families) {
    return checks.stream().filter(c -> families.stream().anyMatch(f -> f.runs(c))).toList();
  }

  /** @return the youngest live generation; there is one once a transaction was fed */
  Generation youngest() {
    return generations.get(generations.size() - 1);
  }

  /** @return feed positions where the live generations start, oldest first */
  long[] starts() {
    long[] starts = new long[generations.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = generations.get(i).start;
    }
    return starts;
  }

  /** @return the next feed position */
  long nextSeq() {
    return nextSeq;
  }

  /** @return whether list-append operations were fed, so that the Adya check runs */
  boolean listAppend() {
    return listAppend;
  }

  /** @return the number of transactions in the window */
  long size() {
    return live.size();
  }

  /**
   * @return per operation of {@code txn}, for a register read of a value other than {@link
   *     History#NIL}, its writer's entry in {@link Writers#positions()} (-1 for none); a scratch
   *     array reused by the next call, other entries stale
   */
  private long[] readWriters(WindowTxn txn) {
    int n = txn.opCount();
    if (readWriters.length < n) {
      readWriters = new long[Math.max(n, 2 * readWriters.length)];
    }
    for (int i = 0; i < n; i++) {
      if (txn.kind(i) == OpKind.READ && txn.value(i) != History.NIL) {
        readWriters[i] = writers.positions().get(Fingerprints.of(txn.keyHash(i), txn.value(i)));
      }
    }
    return readWriters;
  }

  /** @return whether {@code g} has just been fed a multiple of K transactions ({@link WindowConfig#polygraphEvery()}) */
  private boolean polygraphDue(Generation g) {
    int k = config.polygraphEvery();
    return k > 0 && g.size() % k == 0;
  }

  /** Starts a generation at {@code seq} when the youngest is half full (by count or time), retiring the oldest of three. */
  private void admit(long seq, long streamTime) {
    if (generations.isEmpty()) {
      generations.add(generation(seq, listAppend));
      liveBase = seq;
      return;
    }
    Generation young = youngest();
    int half = Math.max(1, config.windowTransactions() / 2);
    boolean byCount = young.size() >= half;
    boolean byTime = config.windowTimeMicros() > 0 && young.size() > 0
        && streamTime - young.firstTime() >= config.windowTimeMicros() / 2;
    if (!byCount && !byTime) {
      return;
    }
    generations.add(generation(seq, listAppend));
    if (generations.size() > 2) {
      retire(streamTime);
    }
  }

  private void retire(long streamTime) {
    Generation old = generations.remove(0);
    old.finish(found);
    reporter.undecided(old.decide(found));
    reporter.drain(found, old, streamTime, listAppend);
    long newBase = generations.get(0).start;
    int n = (int) (newBase - liveBase);
    for (int i = 0; i < n; i++) {
      writers.evict(live.get(i));
    }
    live.removeElements(0, n);
    journal.evicted(liveBase, newBase);
    liveBase = newBase;
    reporter.forgetBefore(newBase);
  }
}
