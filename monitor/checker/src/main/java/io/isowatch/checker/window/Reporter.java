package io.isowatch.checker.window;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.ForbiddenAnomalies;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import it.unimi.dsi.fastutil.objects.Object2LongMap;
import it.unimi.dsi.fastutil.objects.Object2LongOpenHashMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a {@link WindowChecker} reports: the violations its generations find, each once, and the
 * thin-air reads the window itself establishes.
 *
 * <p><b>Invariant.</b> Every id reported and not forgotten is kept with the latest feed position
 * among its transactions; a violation is reported only if neither its id nor the id of the same
 * anomaly over the same transactions at a weaker level is kept. A violation's id includes the
 * weakest level broken ({@link ViolationIds#of(Anomaly, List, String, Level)}): one re-found (in
 * another generation, or by a stronger check) at the same or a stronger level is not reported
 * again, one re-found at a weaker level is (a stronger claim), and within one drain the weakest are
 * reported first. An id is forgotten once every live generation starts after its transactions
 * ({@link #forgetBefore}), since no generation can find it again. Reports and forgettings go to the
 * {@link WindowChecker.Journal}. The checks violated count every violation found, also those
 * deduplicated.
 */
final class Reporter {
  private final WindowChecker.Journal journal;
  private final Object2LongOpenHashMap<String> reported = new Object2LongOpenHashMap<>();
  private final Set<LevelPlan.Check> violated = new LinkedHashSet<>();
  private List<WindowViolation> out = new ArrayList<>(0);
  private int undecided;

  /** @param journal receives each id reported and forgotten */
  Reporter(WindowChecker.Journal journal) {
    this.journal = journal;
  }

  /**
   * Puts the stored ids back, without journaling them.
   *
   * @param ids reported ids and their last feed positions
   */
  void restore(Map<String, Long> ids) {
    reported.putAll(ids);
  }

  /**
   * Reports what generation {@code g} found (thin-air reads excepted: the window reports those
   * itself) and empties {@code found}.
   *
   * @param closingTime event time of what completed the violations, µs
   * @param listAppend whether the history has shown list-append operations (which Adya checks run)
   */
  void drain(List<Generation.Found> found, Generation g, long closingTime, boolean listAppend) {
    if (found.isEmpty()) {
      return;
    }
    // the weakest claim first, so that re-findings of it by stronger checks are not published
    found.sort(Comparator.comparing(f -> f.violation().weakestLevelBroken()));
    for (Generation.Found f : found) {
      Anomaly a = f.violation().anomaly();
      if (a == Anomaly.THIN_AIR_READ) {
        continue;
      }
      markViolated(f.check(), a, listAppend);
      if (reportedAtOrBelow(g, f.violation())) {
        continue;
      }
      String id = g.identity(f.violation(), f.violation().weakestLevelBroken());
      WindowViolation v = g.convert(id, f.check(), f.violation(), closingTime);
      reported.put(id, v.lastSeq());
      journal.reported(id, v.lastSeq());
      out.add(v);
    }
    found.clear();
  }

  /**
   * Reports operation {@code op} of {@code txn} as a {@link Anomaly#THIN_AIR_READ}, unless it was.
   *
   * @param seq {@code txn}'s feed position
   * @param youngest the youngest generation, whose bounds the violation cites
   * @param closingTime event time of what expired the read grace, µs
   * @param listAppend whether the history has shown list-append operations
   */
  void thinAir(long seq, WindowTxn txn, int op, Generation youngest, long closingTime, boolean listAppend) {
    markViolated(null, Anomaly.THIN_AIR_READ, listAppend);
    String id = ViolationIds.of(Anomaly.THIN_AIR_READ, List.of(txn.id()), txn.id() + "#" + op);
    if (reported.containsKey(id)) {
      return;
    }
    String seen = txn.kind(op) == OpKind.READ_LIST ? Arrays.toString(txn.list(op))
        : Long.toString(txn.value(op));
    String summary = txn.id() + " read " + txn.key(op) + " = " + seen
        + ", which no transaction wrote within the read grace period";
    Finding finding = new Finding(Anomaly.THIN_AIR_READ, ForbiddenAnomalies.weakestForbidding(Anomaly.THIN_AIR_READ),
        summary, List.of(txn.finding()), List.of(), List.of(), List.of());
    WindowViolation v = new WindowViolation(id, null, finding, youngest.minTime(), youngest.maxTime(), youngest.size(),
        closingTime, seq);
    reported.put(id, seq);
    journal.reported(id, seq);
    out.add(v);
  }

  /** Forgets (journaled) every id whose latest transaction is before feed position {@code base}. */
  void forgetBefore(long base) {
    Iterator<Object2LongMap.Entry<String>> it = reported.object2LongEntrySet().iterator();
    while (it.hasNext()) {
      Object2LongMap.Entry<String> e = it.next();
      if (e.getLongValue() < base) {
        journal.forgotten(e.getKey());
        it.remove();
      }
    }
  }

  /** Starts a call of the checker: what it reports goes to a new list ({@link #callReports()}). */
  void beginCall() {
    out = new ArrayList<>(0);
    undecided = 0;
  }

  /** Counts {@code n} checks that ran out of their budget in this call: unknown, nothing reported. */
  void undecided(int n) {
    undecided += n;
  }

  /** @return the checks counted by {@link #undecided} since {@link #beginCall()} */
  int callUndecided() {
    return undecided;
  }

  /** @return the violations reported since {@link #beginCall()}, in the order reported */
  List<WindowViolation> callReports() {
    return out;
  }

  /** @return the checks violated so far ({@link WindowChecker#violatedChecks()}) */
  Set<LevelPlan.Check> violated() {
    return Collections.unmodifiableSet(violated);
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

  private void markViolated(LevelPlan.Check check, Anomaly a, boolean listAppend) {
    if (check != null && check.model() != LevelPlan.Model.ADYA) {
      violated.add(check);
      return;
    }
    for (LevelPlan.Check c : LevelPlan.checks(List.of(Level.values()), listAppend)) {
      if (c.model() == LevelPlan.Model.POLYGRAPH) {
        continue; // a polygraph check is marked only by what it found itself
      }
      boolean sameModel = check == null || c.model() == LevelPlan.Model.ADYA;
      if (sameModel && ForbiddenAnomalies.forbids(c.level(), a)) {
        violated.add(c);
      }
    }
  }
}
