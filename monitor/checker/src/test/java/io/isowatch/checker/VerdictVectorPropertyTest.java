package io.isowatch.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.adya.SlowAdya;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.polygraph.AxiomBruteForce;
import io.isowatch.checker.polygraph.CommitOrderBruteForce;
import io.isowatch.checker.reference.HistoryText;
import io.isowatch.checker.reference.PermissiveListHistories;
import io.isowatch.checker.reference.ReferenceChecker;
import io.isowatch.checker.reference.SmallRegisterHistories;
import io.isowatch.checker.witness.CheckResult;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The verdict vector of all six levels, as {@code isowatch check --level all} computes it (the checks
 * of {@link LevelPlan#checks}, each run in batch with session order, read by {@link LevelVerdicts}),
 * on {@code isowatch.property.tries} register histories and as many list-append histories (2,000 by
 * default; fixed seeds, so a failure names its history), with and without session order in the
 * history (one session per transaction): (a) it is monotone and never unknown; (b) it equals, level
 * by level, a slow literal reference that applies each level's definition, conjoined with the
 * weaker levels' (the ladder, read uncommitted ⊂ ... ⊂ serializable, is part of the definitions):
 *
 * <ul>
 *   <li><b>Registers</b> ({@link SmallRegisterHistories}, at most 7 transactions). Read uncommitted:
 *       always consistent. Literally, PL-1 forbids G0, a cycle of {@code ww} (and {@code so})
 *       edges; a register history's reads do not fix its version order, and ordering every key's
 *       versions by any total order containing {@code so} has no such cycle (Adya §4.1; the list-only
 *       anomaly of the row, duplicate elements, cannot occur). Read committed, read atomic, causal:
 *       Biswas &amp; Enea's axioms over every commit order ({@link AxiomBruteForce}). Snapshot
 *       isolation, serializable: the definitions over every commit order and snapshot ({@link
 *       CommitOrderBruteForce}).
 *   <li><b>List-append</b> ({@link PermissiveListHistories}, at most 8 transactions, since the
 *       reference enumerates every simple cycle). Read uncommitted: no duplicate element in a
 *       committed list read and no G0 cycle in Adya's graph ({@link SlowAdya}); read committed: the
 *       axioms read element by element ({@link ReferenceChecker}), no G1c, no incompatible order,
 *       and a read after the transaction's own appends ends with them; read atomic: the axioms, and
 *       such a read is the previous read followed by the appends; causal: the axioms; snapshot
 *       isolation: no G-single, G-nonadjacent or lost update; serializable: no cycle.
 * </ul>
 *
 * <p>Plain loops over fixed seeds, as the neighbouring property tests ({@code
 * PolygraphVersusBruteForcePropertyTest}, {@code CycleClassesPropertyTest}): a failure names its
 * seed and prints the history and what isowatch found. About 5 s at 2,000 per kind.
 */
class VerdictVectorPropertyTest {
  private static final int TRIES = Integer.getInteger("isowatch.property.tries", 2000);
  private static final int MAX_LIST_TXNS = 8;

  @Test
  void registerVectorsAreMonotoneAndEqualTheBruteForce() {
    Map<String, Integer> seen = new TreeMap<>();
    for (long seed = 0; seed < TRIES; seed++) {
      History h = SmallRegisterHistories.generate(seed);
      compare(h, "register seed " + seed, registerReference(h), seen);
    }
    System.out.println("verdict vectors, " + TRIES + " register histories (RU RC RA CC SI SER): " + seen);
    assertThat(seen.keySet()).contains("CCCCCC", "CVVVVV", "CCVVVV", "CCCVVV", "CCCCVV", "CCCCCV");
  }

  @Test
  void listAppendVectorsAreMonotoneAndEqualTheReference() {
    Map<String, Integer> seen = new TreeMap<>();
    int checked = 0;
    for (long seed = 0; checked < TRIES; seed++) {
      History h = PermissiveListHistories.generate(seed);
      if (h.txnCount() > MAX_LIST_TXNS) {
        continue;
      }
      checked++;
      compare(h, "list seed " + seed, listReference(h), seen);
    }
    System.out.println("verdict vectors, " + TRIES + " list-append histories (RU RC RA CC SI SER): " + seen);
    assertThat(seen.keySet()).contains("CCCCCC", "CVVVVV", "CCCCVV", "CCCCCV");
  }

  /** @return the level verdicts of all six levels, as {@code isowatch check --level all} reads them */
  static LevelVerdicts verdicts(History h) {
    List<LevelPlan.Check> checks = LevelPlan.checks(List.of(Level.values()), LevelPlan.hasListAppend(h));
    List<CheckResult> results = new ArrayList<>();
    for (LevelPlan.Check c : checks) {
      results.add(c.batch(true).check(h));
    }
    return LevelVerdicts.of(checks, results, true);
  }

  private static void compare(History h, String name, Map<Level, Verdict> expected, Map<String, Integer> seen) {
    LevelVerdicts verdicts = verdicts(h);
    Map<Level, Verdict> actual = new EnumMap<>(Level.class);
    verdicts.levels().forEach(v -> actual.put(v.level(), v.verdict()));
    StringBuilder found = new StringBuilder();
    for (LevelVerdicts.Line line : verdicts.lines()) {
      line.result().violations().forEach(v -> found.append(line.check().label()).append(": ")
          .append(v.anomaly()).append(' ').append(v.witness()).append('\n'));
    }
    String text = name + ":\n" + HistoryText.of(h) + "isowatch finds:\n" + found;
    boolean violatedBelow = false;
    for (Level l : Level.values()) {
      Verdict v = actual.get(l);
      assertThat(v).as("never unknown: %s at %s", text, l).isNotEqualTo(Verdict.UNKNOWN);
      assertThat(violatedBelow && v != Verdict.VIOLATED).as("monotone: %s at %s, vector %s", text, l, actual)
          .isFalse();
      violatedBelow |= v == Verdict.VIOLATED;
    }
    assertThat(actual).as("against the reference: %s", text).isEqualTo(expected);
    StringBuilder key = new StringBuilder();
    actual.values().forEach(v -> key.append(v == Verdict.CONSISTENT ? 'C' : 'V'));
    seen.merge(key.toString(), 1, Integer::sum);
  }

  private static Map<Level, Verdict> registerReference(History h) {
    List<Boolean> holds = new ArrayList<>();
    holds.add(true);
    holds.add(AxiomBruteForce.satisfiable(h, Level.READ_COMMITTED));
    holds.add(AxiomBruteForce.satisfiable(h, Level.READ_ATOMIC));
    holds.add(AxiomBruteForce.satisfiable(h, Level.CAUSAL));
    holds.add(CommitOrderBruteForce.satisfiable(h, Level.SNAPSHOT_ISOLATION, true));
    holds.add(CommitOrderBruteForce.satisfiable(h, Level.SERIALIZABLE, true));
    return ladder(holds);
  }

  private static Map<Level, Verdict> listReference(History h) {
    Set<Anomaly> cycles = SlowAdya.cycleClasses(h, true);
    List<Boolean> holds = new ArrayList<>();
    holds.add(!cycles.contains(Anomaly.G0) && !duplicateElements(h));
    holds.add(consistent(h, Level.READ_COMMITTED) && !cycles.contains(Anomaly.G1C)
        && ownAppends(h, false) && !incompatibleOrder(h));
    holds.add(consistent(h, Level.READ_ATOMIC) && ownAppends(h, true));
    holds.add(consistent(h, Level.CAUSAL));
    holds.add(!cycles.contains(Anomaly.G_SINGLE) && !cycles.contains(Anomaly.G_NONADJACENT) && !lostUpdate(h));
    holds.add(cycles.isEmpty());
    return ladder(holds);
  }

  private static boolean consistent(History h, Level level) {
    return new ReferenceChecker(level).check(h).verdict() == Verdict.CONSISTENT;
  }

  /**
   * A list read after the transaction's own appends to the key reads the version its last append
   * wrote (Biswas &amp; Enea §2, an append a read of the previous version and a write): it ends with
   * the appends since the transaction's previous read of the key (read committed); when there was
   * such a read, it is that read's list followed by them, else the key changed between two of the
   * transaction's reads, a non-repeatable read (read atomic).
   *
   * @param repeatable whether to require the previous read's list before the appends too
   * @return whether every committed list read after its own appends passes
   */
  private static boolean ownAppends(History h, boolean repeatable) {
    for (int t = 0; t < h.txnCount(); t++) {
      if (!h.committed(t)) {
        continue;
      }
      for (int r = h.opStart(t); r < h.opEnd(t); r++) {
        if (h.opKind(r) != OpKind.READ_LIST || !h.listKnown(r)) {
          continue;
        }
        List<Long> appended = new ArrayList<>();
        List<Long> previous = null;
        boolean unknownPrevious = false;
        for (int o = h.opStart(t); o < r; o++) {
          if (h.opKey(o) != h.opKey(r)) {
            continue;
          }
          if (h.opKind(o) == OpKind.APPEND) {
            appended.add(h.opValue(o));
          } else if (h.opKind(o) == OpKind.READ_LIST) {
            appended.clear();
            unknownPrevious = !h.listKnown(o);
            previous = unknownPrevious ? null : elements(h, o);
          }
        }
        if (appended.isEmpty() || unknownPrevious) {
          continue;
        }
        List<Long> read = elements(h, r);
        List<Long> expected = new ArrayList<>(previous == null ? List.of() : previous);
        expected.addAll(appended);
        boolean endsWith = read.size() >= appended.size()
            && read.subList(read.size() - appended.size(), read.size()).equals(appended);
        if (!endsWith || (repeatable && previous != null && !read.equals(expected))) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Lost update (Berenson et al., P4; the anomaly table's row, forbidden from snapshot isolation):
   * two committed transactions read the same version of a key (the same last element, or both the
   * empty list) before appending to it, then both append to it. Adya's graph leaves their appends
   * unordered when no read shows them, but every version order makes a G-single of them.
   */
  private static boolean lostUpdate(History h) {
    Set<List<Long>> seen = new HashSet<>();
    for (int t = 0; t < h.txnCount(); t++) {
      if (!h.committed(t)) {
        continue;
      }
      Map<Integer, Long> readFirst = new HashMap<>();
      Set<Integer> appended = new HashSet<>();
      Set<Integer> counted = new HashSet<>();
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        int k = h.opKey(op);
        if (h.opKind(op) == OpKind.READ_LIST && h.listKnown(op) && !appended.contains(k)
            && !readFirst.containsKey(k)) {
          int n = h.listLength(op);
          readFirst.put(k, n == 0 ? History.NIL : h.listElement(op, n - 1));
        } else if (h.opKind(op) == OpKind.APPEND) {
          appended.add(k);
          if (readFirst.containsKey(k) && counted.add(k) && !seen.add(List.of((long) k, readFirst.get(k)))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Incompatible order (the anomaly table's row, read committed; Elle: implies G1a): two committed
   * list reads of one key, neither a prefix of the other.
   */
  private static boolean incompatibleOrder(History h) {
    for (int a = 0; a < h.opCount(); a++) {
      for (int b = 0; b < h.opCount(); b++) {
        if (listRead(h, a) && listRead(h, b) && h.opKey(a) == h.opKey(b)) {
          List<Long> x = elements(h, a);
          List<Long> y = elements(h, b);
          if (x.size() <= y.size() && !y.subList(0, x.size()).equals(x)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean listRead(History h, int op) {
    return h.opKind(op) == OpKind.READ_LIST && h.listKnown(op) && h.committed(h.opTxn(op));
  }

  private static List<Long> elements(History h, int op) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < h.listLength(op); i++) {
      out.add(h.listElement(op, i));
    }
    return out;
  }

  /** @return a committed list read holds some element twice */
  private static boolean duplicateElements(History h) {
    for (int op = 0; op < h.opCount(); op++) {
      if (h.opKind(op) == OpKind.READ_LIST && h.listKnown(op) && h.committed(h.opTxn(op))) {
        Set<Long> elements = new HashSet<>();
        for (int i = 0; i < h.listLength(op); i++) {
          if (!elements.add(h.listElement(op, i))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** @return level i consistent when its own definition and every weaker level's hold */
  private static Map<Level, Verdict> ladder(List<Boolean> holds) {
    Map<Level, Verdict> out = new EnumMap<>(Level.class);
    boolean all = true;
    for (Level l : Level.values()) {
      all &= holds.get(l.ordinal());
      out.put(l, all ? Verdict.CONSISTENT : Verdict.VIOLATED);
    }
    return out;
  }
}
