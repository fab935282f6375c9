package io.isowatch.checker.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.adya.AdyaChecker;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.reference.PermissiveHistories;
import io.isowatch.checker.reference.PermissiveListHistories;
import io.isowatch.checker.witness.CheckResult;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * With a window that holds the whole history, the {@link WindowChecker} fed the transactions in a
 * random order consistent with session order finds exactly the violated checks that the offline
 * batch checkers find on the same history (register and list-append permissive histories; checks
 * whose offline verdict is unknown are left out, Adya's levels only when the history has list-append
 * operations and the polygraph's when it has none, as the window decides them). On histories where a committed transaction
 * reads a value (or list element) nobody wrote, the window feeds that unresolved read as unknown and
 * reports it as an unresolved read, so it does not see what the read's content alone shows offline
 * (internal inconsistency, incompatible list orders), a documented difference: there the window's
 * violated checks must be a subset of the offline ones, never more. Likewise when a transaction that
 * did not commit arrives before the writer of a value it reads: the window feeds it at once, that
 * read unknown (its reads are not checked), while the polygraph, which counts a transaction of
 * unknown outcome as committed once it is read from, may use the read offline: there the polygraph
 * checks must be a subset, the others equal. And when a transaction of unknown outcome is read from
 * ({@link PermissiveHistories#hasReadUnknownOutcome}): the batch checkers count it as committed from
 * the start, the window only from its first counted reader's arrival on (what was processed
 * before, the writer itself included, had its writes out of the axioms' premises), so there the
 * window's violated checks must be a subset of the offline ones, never more.
 */
class WindowVersusBatchPropertyTest {
  @Property(tries = 600)
  void violatedChecksEqualOffline(@ForAll long seed) {
    assertEqualOffline(seed, true);
  }

  /**
   * The same without {@link WindowChecker#finish()}, as a stream runs it: the stream time moved past
   * every read grace ({@link WindowChecker#advance}) must surface every violation, the polygraph
   * checks running after every transaction fed (K = 1).
   */
  @Property(tries = 600)
  void violatedChecksEqualOfflineWithoutFinish(@ForAll long seed) {
    assertEqualOffline(seed, false);
  }

  /**
   * The Adya checks on list-append histories with every list anomaly common ({@link
   * PermissiveListHistories}), which the window decides with the incremental Adya check, with and
   * without {@link WindowChecker#finish()}: the window's violated Adya checks equal the offline ones
   * (those whose offline verdict is not unknown), with the exceptions of {@link
   * #assertEqualOffline} for thin-air reads and reads of transactions of unknown outcome (there:
   * a subset). Where two committed reads of a key are incompatible ({@link #ambiguousOrder}), the
   * version order is a guess from the longest read so far (Elle §3), which a later, longer read can
   * replace: a cycle found on a prefix (and reported then, as the batch checker reports it on that
   * prefix: {@code IncrementalAdyaPropertyTest}) may be gone from the whole history. There the
   * window must find at least what the offline checker finds: both guess the same order from the
   * same reads, whatever their arrival order (on two equally long reads, the least element by
   * element; seed 16624334731355 differed while each took the first it met). (The axiomatic checks
   * on list-append histories are not compared here.)
   */
  @Property(tries = 600)
  void listAppendAdyaChecksEqualOffline(@ForAll long seed, @ForAll boolean finish) {
    History h = PermissiveListHistories.generate(seed);
    Set<LevelPlan.Check> compared = new LinkedHashSet<>();
    Set<LevelPlan.Check> expected = new LinkedHashSet<>();
    for (LevelPlan.Check c : LevelPlan.checks(List.of(Level.values()), true)) {
      if (c.model() != LevelPlan.Model.ADYA) {
        continue;
      }
      Verdict v = c.batch(true).check(h).verdict();
      if (v != Verdict.UNKNOWN) {
        compared.add(c);
      }
      if (v == Verdict.VIOLATED) {
        expected.add(c);
      }
    }
    Set<LevelPlan.Check> actual = windowChecks(h, seed, finish);
    actual.retainAll(compared);
    boolean partial = PermissiveHistories.hasThinAirRead(h) || PermissiveHistories.hasReadUnknownOutcome(h);
    boolean ambiguous = ambiguousOrder(h);
    if (ambiguous && !partial) {
      assertThat(actual).as("seed %d", seed).containsAll(expected);
    } else if (partial && !ambiguous) {
      assertThat(expected).as("seed %d", seed).containsAll(actual);
    } else if (!partial) {
      assertThat(actual).as("seed %d", seed).isEqualTo(expected);
    }
  }

  /**
   * With eviction, on list-append histories whose reads agree on each key's order: whatever the
   * window size, the window's violated Adya checks are among the offline ones (each generation's
   * incremental Adya check reports exactly what the batch analysis reports on the generation's
   * transactions: {@code IncrementalAdyaPropertyTest}).
   */
  @Property(tries = 600)
  void listAppendSmallWindowsFindNoMoreThanOffline(@ForAll long seed, @ForAll @IntRange(min = 2, max = 12) int w) {
    History h = PermissiveListHistories.generate(seed);
    if (ambiguousOrder(h)) {
      return;
    }
    WindowChecker window = new WindowChecker(new WindowConfig(w, 0, 1_000_000_000L, 10_000), new WindowChecker.Journal() {});
    for (WindowTxn t : WindowTxns.shuffled(h, seed ^ 0x5eed)) {
      window.offer(t);
    }
    window.finish();
    Set<LevelPlan.Check> offline = new LinkedHashSet<>();
    Set<LevelPlan.Check> actual = new LinkedHashSet<>();
    for (LevelPlan.Check c : LevelPlan.checks(List.of(Level.values()), true)) {
      if (c.model() == LevelPlan.Model.ADYA && c.batch(true).check(h).verdict() != Verdict.CONSISTENT) {
        offline.add(c);
      }
      if (c.model() == LevelPlan.Model.ADYA && window.violatedChecks().contains(c)) {
        actual.add(c);
      }
    }
    assertThat(offline).as("seed %d, W %d", seed, w).containsAll(actual);
  }

  /** @return whether two committed list reads of some key are incompatible (neither a prefix of the other) */
  private static boolean ambiguousOrder(History h) {
    return new AdyaChecker(Level.READ_COMMITTED).check(h).violations().stream()
        .anyMatch(v -> v.anomaly() == Anomaly.INCOMPATIBLE_ORDER);
  }

  /** @return the checks the window finds violated, fed the history whole (no eviction) */
  private static Set<LevelPlan.Check> windowChecks(History h, long seed, boolean finish) {
    WindowConfig config = WindowConfig.of(Math.max(2, 2 * h.txnCount()), 0, 1_000_000_000L);
    WindowChecker window = new WindowChecker(finish ? config : config.withPolygraphEvery(1),
        new WindowChecker.Journal() {});
    for (WindowTxn t : WindowTxns.shuffled(h, seed ^ 0x5eed)) {
      window.offer(t);
    }
    if (finish) {
      window.finish();
    } else {
      window.advance(Long.MAX_VALUE / 2);
    }
    return new LinkedHashSet<>(window.violatedChecks());
  }

  private static void assertEqualOffline(long seed, boolean finish) {
    assertEqualOffline(PermissiveHistories.generate(seed), seed, finish);
  }

  private static void assertEqualOffline(History h, long seed, boolean finish) {
    boolean listAppend = LevelPlan.hasListAppend(h);
    WindowConfig config = WindowConfig.of(Math.max(2, 2 * h.txnCount()), 0, 1_000_000_000L);
    WindowChecker window = new WindowChecker(finish ? config : config.withPolygraphEvery(1),
        new WindowChecker.Journal() {});
    List<WindowTxn> order = WindowTxns.shuffled(h, seed ^ 0x5eed);
    for (WindowTxn t : order) {
      window.offer(t);
    }
    if (finish) {
      window.finish();
    } else {
      window.advance(Long.MAX_VALUE / 2);
    }
    Set<LevelPlan.Check> expected = new LinkedHashSet<>();
    Set<LevelPlan.Check> compared = new LinkedHashSet<>();
    for (LevelPlan.Check c : LevelPlan.checks(List.of(Level.values()), listAppend)) {
      if (c.model() == LevelPlan.Model.ADYA && !listAppend) {
        continue; // a register history does not decide Adya's levels in the window
      }
      CheckResult r = c.batch(true).check(h);
      if (r.verdict() == Verdict.UNKNOWN) {
        continue;
      }
      compared.add(c);
      if (r.verdict() == Verdict.VIOLATED) {
        expected.add(c);
      }
    }
    Set<LevelPlan.Check> actual = new LinkedHashSet<>(window.violatedChecks());
    actual.retainAll(compared);
    if (PermissiveHistories.hasThinAirRead(h) || PermissiveHistories.hasReadUnknownOutcome(h)) {
      assertThat(expected).as("seed %d", seed).containsAll(actual);
    } else if (uncommittedReadAhead(order)) {
      assertThat(expected).as("seed %d", seed).containsAll(actual);
      expected.removeIf(c -> c.model() == LevelPlan.Model.POLYGRAPH);
      actual.removeIf(c -> c.model() == LevelPlan.Model.POLYGRAPH);
      assertThat(actual).as("seed %d", seed).isEqualTo(expected);
    } else {
      assertThat(actual).as("seed %d", seed).isEqualTo(expected);
    }
  }

  /** @return whether a transaction that did not commit reads a value written only after it in {@code order} */
  private static boolean uncommittedReadAhead(List<WindowTxn> order) {
    Set<String> written = new HashSet<>();
    for (WindowTxn t : order) {
      for (int i = 0; i < t.opCount(); i++) {
        if (t.status() != TxnStatus.COMMITTED && t.kind(i) == OpKind.READ
            && t.value(i) != History.NIL && !written.contains(t.key(i) + "=" + t.value(i))) {
          return true;
        }
      }
      for (int i = 0; i < t.opCount(); i++) {
        if (t.kind(i) == OpKind.WRITE) {
          written.add(t.key(i) + "=" + t.value(i));
        }
      }
    }
    return false;
  }

  /**
   * Eviction never invents: with any window size, the window's violated checks are among the offline
   * ones. The evicted-write memory is made large enough for the whole history: a smaller one
   * reports reads of values evicted longer ago as unresolved, the documented limit. On a history
   * with list-append operations, a generation that happens to hold register operations only decides
   * snapshot isolation and serializable with the polygraph (WindowChecker), where the batch checker
   * decides them with Adya's phenomena: a polygraph check of the window stands for the Adya check of
   * its level there.
   */
  @Property(tries = 600)
  void smallWindowsFindNoMoreThanOffline(@ForAll long seed, @ForAll @IntRange(min = 2, max = 12) int w) {
    smallWindowFindsNoMoreThanOffline(seed, w);
  }

  /** The seed on which a register-only generation of a mixed history first ran the polygraph (CI, 2026-12-03). */
  @Example
  void aRegisterOnlyGenerationOfAMixedHistoryDecidesWithThePolygraph() {
    smallWindowFindsNoMoreThanOffline(60842, 2);
  }

  private static void smallWindowFindsNoMoreThanOffline(long seed, int w) {
    History h = PermissiveHistories.generate(seed);
    boolean listAppend = LevelPlan.hasListAppend(h);
    WindowChecker window = new WindowChecker(new WindowConfig(w, 0, 1_000_000_000L, 10_000), new WindowChecker.Journal() {});
    for (WindowTxn t : WindowTxns.shuffled(h, seed ^ 0x5eed)) {
      window.offer(t);
    }
    window.finish();
    Set<LevelPlan.Check> offline = new LinkedHashSet<>();
    for (LevelPlan.Check c : LevelPlan.checks(List.of(Level.values()), listAppend)) {
      if (c.batch(true).check(h).verdict() != Verdict.CONSISTENT) {
        offline.add(c);
      }
    }
    for (LevelPlan.Check c : window.violatedChecks()) {
      LevelPlan.Check offlineCheck = listAppend && c.model() == LevelPlan.Model.POLYGRAPH
          ? new LevelPlan.Check(LevelPlan.Model.ADYA, c.level()) : c;
      assertThat(offline).as("seed %d, W %d, window's %s", seed, w, c).contains(offlineCheck);
    }
  }

  /**
   * Windowing never makes the polygraph invent: a generation holds a subset of the history's
   * transactions, the reads of writers it lacks unknown, and a sub-history of a snapshot-isolated
   * (serializable) history is one too. With any window size and the polygraph run every K
   * transactions (K = 0: only at retirement and finish), on register histories, the window's violated
   * polygraph checks are among the offline ones.
   */
  @Property(tries = 400)
  void thePolygraphInSmallWindowsFindsNoMoreThanOffline(@ForAll long seed,
      @ForAll @IntRange(min = 2, max = 12) int w, @ForAll @IntRange(min = 0, max = 3) int k) {
    History h = PermissiveHistories.generate(seed);
    if (LevelPlan.hasListAppend(h)) {
      return;
    }
    WindowChecker window = new WindowChecker(new WindowConfig(w, 0, 1_000_000_000L, 10_000).withPolygraphEvery(k),
        new WindowChecker.Journal() {});
    for (WindowTxn t : WindowTxns.shuffled(h, seed ^ 0x5eed)) {
      window.offer(t);
    }
    window.finish();
    Set<LevelPlan.Check> offline = new LinkedHashSet<>();
    for (LevelPlan.Check c : LevelPlan.checks(List.of(Level.values()), false)) {
      if (c.batch(true).check(h).verdict() != Verdict.CONSISTENT) {
        offline.add(c);
      }
    }
    assertThat(offline).as("seed %d, W %d, K %d", seed, w, k).containsAll(window.violatedChecks());
  }

  /**
   * A restart changes nothing: a checker restored from its journal at any point reports exactly
   * what the uninterrupted checker reports from that point on (small windows, a short grace so that
   * reads are held and expire).
   */
  @Property(tries = 300)
  void aRestoredCheckerReportsWhatTheUninterruptedOneReports(@ForAll long seed,
      @ForAll @IntRange(min = 2, max = 10) int w, @ForAll @IntRange(min = 0, max = 40) int cutAt) {
    History h = PermissiveHistories.generate(seed);
    List<WindowTxn> txns = WindowTxns.shuffled(h, seed);
    int cut = Math.min(cutAt, txns.size());
    WindowConfig config = new WindowConfig(w, 0, 3, 4 * w);
    WindowChecker straight = new WindowChecker(config, new WindowChecker.Journal() {});
    List<String> expected = new java.util.ArrayList<>();
    for (WindowTxn t : txns) {
      straight.offer(t).violations().forEach(v -> expected.add(v.id()));
    }
    straight.finish().violations().forEach(v -> expected.add(v.id()));

    MemoryJournal journal = new MemoryJournal();
    WindowChecker first = new WindowChecker(config, journal);
    List<String> actual = new java.util.ArrayList<>();
    for (WindowTxn t : txns.subList(0, cut)) {
      first.offer(t).violations().forEach(v -> actual.add(v.id()));
    }
    WindowChecker second = journal.restore(config, first.meta());
    for (WindowTxn t : txns.subList(cut, txns.size())) {
      second.offer(t).violations().forEach(v -> actual.add(v.id()));
    }
    second.finish().violations().forEach(v -> actual.add(v.id()));
    assertThat(actual).as("seed %d, W %d, cut %d", seed, w, cut).isEqualTo(expected);
  }

  /**
   * A seed the property met in CI: after the restart two sessions' held heads were visited in
   * another order (the held map's order is that of the queues' creation, which the journal does
   * not keep), so the last two violations came in the other order.
   */
  @Example
  void aRestoredCheckerReportsInTheSameOrderOnARecordedSeed() {
    aRestoredCheckerReportsWhatTheUninterruptedOneReports(-1116103840L, 2, 19);
  }

  /**
   * A seed CI met: two equally long committed reads of a key disagree, and the batch checker took
   * the first in history order while the window took the first to arrive (offline G0 on one guess,
   * none on the other). Both now take the least element by element.
   */
  @Example
  void equallyLongIncompatibleReadsGiveOneOrderOnARecordedSeed() {
    listAppendAdyaChecksEqualOffline(16624334731355L, false);
    listAppendAdyaChecksEqualOffline(16624334731355L, true);
  }
}
