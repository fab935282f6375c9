package io.isowatch.checker.window;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.adya.IncrementalAdya;
import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.finding.Findings;
import io.isowatch.checker.awdit.IncrementalChecker;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.polygraph.PolygraphChecker;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.Witness;
import io.isowatch.checker.witness.WitnessRenderer;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.List;

/**
 * One generation of the {@link WindowChecker}: a fresh {@link History} holding the transactions fed
 * from position {@link #start} on, with the incremental checkers over it. A read whose writer was
 * fed before {@link #start} (or is not known at all) enters this history as {@link
 * History#UNKNOWN_VALUE}; a list read keeps only the elements appended from {@link #start} on, and
 * becomes an unknown read when its last element was appended before (see {@link Generations}).
 * On a register-only history its polygraph checks decide snapshot isolation and serializable on the
 * whole of {@link #h} when asked ({@link #decide}), from scratch each time: they keep no state.
 */
final class Generation {
  /** A violation as a checker of this generation reported it. */
  record Found(LevelPlan.Check check, Violation violation) {}

  private static final long[] NO_ELEMENTS = new long[0];

  /** Feed position of this generation's first transaction. */
  final long start;
  private final History h = new History();
  private final ObjectArrayList<WindowTxn> txns = new ObjectArrayList<>();
  private final LevelPlan.Check[] axiomaticChecks;
  private final IncrementalChecker[] axiomatic;
  private final LevelPlan.Check adyaCheck;
  private IncrementalAdya adya;
  private final LevelPlan.Check[] polygraphChecks;
  private final PolygraphChecker[] polygraph;
  /** {@link #size()} when the polygraph checks last ran or were skipped ({@link #decided}). */
  private int decidedAt;
  private long firstTime;
  private long minTime;
  private long maxTime;
  private final LongArrayList elements = new LongArrayList();
  /** Key hash ({@link WindowTxn#keyHash}) to key id in {@link #h}, -1 default; the first key of each hash. */
  private final Long2IntOpenHashMap keysByHash = new Long2IntOpenHashMap();
  private WitnessRenderer renderer;

  /**
   * @param start feed position of the first transaction
   * @param axiomaticChecks the axiomatic checks to run
   * @param adyaCheck the Adya check to run once list-append operations are seen; null for none
   * @param polygraphChecks the polygraph checks to run ({@link #decide}) while none are seen, weakest level first
   * @param listAppend whether they have been seen already
   */
  Generation(long start, List<LevelPlan.Check> axiomaticChecks, LevelPlan.Check adyaCheck,
      List<LevelPlan.Check> polygraphChecks, boolean listAppend) {
    this.start = start;
    keysByHash.defaultReturnValue(-1);
    this.axiomaticChecks = axiomaticChecks.toArray(new LevelPlan.Check[0]);
    this.axiomatic = new IncrementalChecker[this.axiomaticChecks.length];
    for (int i = 0; i < axiomatic.length; i++) {
      axiomatic[i] = new IncrementalChecker(h, this.axiomaticChecks[i].level());
    }
    this.adyaCheck = adyaCheck;
    this.polygraphChecks = polygraphChecks.toArray(new LevelPlan.Check[0]);
    this.polygraph = new PolygraphChecker[this.polygraphChecks.length];
    for (int i = 0; i < polygraph.length; i++) {
      // strong session variants, as the axiomatic checks read session order
      polygraph[i] = new PolygraphChecker(this.polygraphChecks[i].level());
    }
    if (listAppend && adyaCheck != null) {
      adya = new IncrementalAdya(h, adyaCheck.level(), true);
    }
  }

  /** @return the number of transactions fed */
  int size() {
    return txns.size();
  }

  /** @return event time of the first transaction fed, µs (0 before any) */
  long firstTime() {
    return firstTime;
  }

  /** @return the earliest event time among the transactions fed, µs */
  long minTime() {
    return minTime;
  }

  /** @return the latest event time among the transactions fed, µs */
  long maxTime() {
    return maxTime;
  }

  /** Starts the Adya check (if this generation runs one), catching up on the transactions fed so far, one by one. */
  void enableAdya(List<Found> out) {
    if (adya != null || adyaCheck == null) {
      return;
    }
    adya = new IncrementalAdya(h, adyaCheck.level(), true);
    if (h.txnCount() > 0) {
      collect(adyaCheck, adya.acceptThrough(h.txnCount() - 1), out);
    }
  }

  /**
   * Appends {@code txn} and runs the checkers on it.
   *
   * @param seq its feed position (its label in this history)
   * @param unresolved sorted operation indexes whose reads enter as unknown (grace expired)
   * @param readWriters per operation {@code i} of {@code txn}, for a register read of a value other
   *     than {@link History#NIL}: its writer's feed position, {@code writers}' entry for the read's
   *     fingerprint (looked up once by the window for all generations); other entries unused
   * @param writers fingerprint of each written (key, value) to its writer's feed position ({@link
   *     Long#MAX_VALUE} for one that arrived and is not fed yet; -1 default for none)
   * @param out receives what the checkers report
   */
  void feed(long seq, WindowTxn txn, int[] unresolved, long[] readWriters, Long2LongOpenHashMap writers,
      List<Found> out) {
    if (txns.isEmpty()) {
      firstTime = txn.eventTime();
      minTime = txn.eventTime();
      maxTime = txn.eventTime();
    }
    minTime = Math.min(minTime, txn.eventTime());
    maxTime = Math.max(maxTime, txn.eventTime());
    txns.add(txn);
    int t = h.beginTxn(h.session(txn.session()), seq);
    int u = 0;
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      boolean forced = u < unresolved.length && unresolved[u] == i;
      if (forced) {
        u++;
      }
      int key = key(txn, i);
      switch (txn.kind(i)) {
        case OpKind.READ: {
          long v = txn.value(i);
          if (v != History.NIL && (forced || readWriters[i] < start)) {
            v = History.UNKNOWN_VALUE;
          }
          h.read(key, v);
          break;
        }
        case OpKind.READ_LIST:
          feedList(txn, i, key, forced, writers);
          break;
        case OpKind.WRITE:
          h.write(key, txn.value(i));
          break;
        default:
          h.append(key, txn.value(i));
      }
    }
    h.end(txn.status());
    for (int c = 0; c < axiomatic.length; c++) {
      collect(axiomaticChecks[c], axiomatic[c].accept(t), out);
    }
    if (adya != null) {
      collect(adyaCheck, adya.accept(t), out);
    }
  }

  /**
   * Interns operation {@code i}'s key through its 64-bit hash: one long-keyed lookup, and a string
   * comparison that is cheap for the equal strings it almost always meets; a key whose hash is taken
   * by another key (probability about 2^-64 per pair) is interned by name.
   */
  private int key(WindowTxn txn, int i) {
    long kh = txn.keyHash(i);
    int id = keysByHash.get(kh);
    String name = txn.key(i);
    if (id >= 0 && h.keyName(id).equals(name)) {
      return id;
    }
    id = h.key(name);
    keysByHash.putIfAbsent(kh, id);
    return id;
  }

  private void feedList(WindowTxn txn, int i, int key, boolean forced, Long2LongOpenHashMap writers) {
    int n = txn.listLength(i);
    if (n == 0) {
      h.readList(key, NO_ELEMENTS, 0, 0);
      return;
    }
    long kh = txn.keyHash(i);
    if (forced || writers.get(Fingerprints.of(kh, txn.listElement(i, n - 1))) < start) {
      h.readListUnknown(key);
      return;
    }
    elements.clear();
    for (int j = 0; j < n; j++) {
      long e = txn.listElement(i, j);
      if (writers.get(Fingerprints.of(kh, e)) >= start) {
        elements.add(e);
      }
    }
    h.readList(key, elements.elements(), 0, elements.size());
  }

  /** Ends the generation: held-back reads are released (their thin-air reports are the caller's to drop). */
  void finish(List<Found> out) {
    for (int c = 0; c < axiomatic.length; c++) {
      collect(axiomaticChecks[c], axiomatic[c].finish(), out);
    }
    if (adya != null) {
      collect(adyaCheck, adya.finish(), out);
    }
  }

  /**
   * Runs the polygraph checks on the generation's history as it is, unless it is a list-append
   * history (Adya's check decides it) or nothing was fed since they last ran. The strongest level
   * goes first: if it finds the history consistent, so is every weaker level (a serializable
   * history is snapshot isolated) and nothing else runs, which is the common case and saves the
   * snapshot isolation search, the costlier of the two (docs/PERFORMANCE.md). Otherwise the
   * checks go weakest level first; once one finds a violation, the stronger ones report the same
   * violations (a proof against the weaker level refutes the stronger: the same lost update is not
   * also reported as the G2-item the stronger search would find over the same transactions), and
   * the strongest's own result is used only if no weaker level is violated. So what is reported and
   * counted is what running them weakest first would report and count.
   *
   * @param out receives the violations they find
   * @return how many of them ran out of their budget ({@link Verdict#UNKNOWN}: nothing reported),
   *     among those whose result is used
   */
  int decide(List<Found> out) {
    if (adya != null || decidedAt == txns.size() || polygraph.length == 0) {
      return 0;
    }
    decidedAt = txns.size();
    int strongest = polygraph.length - 1;
    CheckResult strongestResult = polygraph[strongest].check(h);
    if (strongestResult.verdict() == Verdict.CONSISTENT) {
      return 0;
    }
    int undecided = 0;
    List<Violation> weaker = List.of();
    for (int c = 0; c < polygraph.length; c++) {
      if (weaker.isEmpty()) {
        CheckResult r = c == strongest ? strongestResult : polygraph[c].check(h);
        if (r.verdict() == Verdict.UNKNOWN) {
          undecided++;
        }
        weaker = r.violations();
      }
      collect(polygraphChecks[c], weaker, out);
    }
    return undecided;
  }

  /** Counts the history as it is as decided without running the checks (a replay, whose output is suppressed). */
  void decided() {
    decidedAt = txns.size();
  }

  private static void collect(LevelPlan.Check check, List<Violation> vs, List<Found> out) {
    for (Violation v : vs) {
      out.add(new Found(check, v));
    }
  }

  /**
   * @param level the level the id is for ({@link ViolationIds#of(Anomaly, List, String, Level)})
   * @return the violation's stable id
   */
  String identity(Violation v, Level level) {
    return ViolationIds.of(v.identity(), h, this::name, level);
  }

  /**
   * @param closingTime event time of what completed the violation, µs
   * @return the violation in the history-free form ({@link Findings#of}), its transactions as they
   *     arrived
   */
  WindowViolation convert(String id, LevelPlan.Check check, Violation v, long closingTime) {
    if (renderer == null) {
      renderer = new WitnessRenderer(h, this::name);
    }
    long lastSeq = -1;
    for (int t : v.witness().involved()) {
      if (t != Witness.INIT) {
        lastSeq = Math.max(lastSeq, h.label(t));
      }
    }
    Finding finding = Findings.of(h, v, renderer, t -> txns.get(t).finding());
    return new WindowViolation(id, check, finding, minTime, maxTime, txns.size(), closingTime, lastSeq);
  }

  private String name(int t) {
    return t == Witness.INIT ? WindowTxn.INITIAL.id() : txns.get(t).id();
  }
}
