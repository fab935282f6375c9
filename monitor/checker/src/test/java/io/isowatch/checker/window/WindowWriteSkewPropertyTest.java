package io.isowatch.checker.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.reference.WriteSkewHistories;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The window on write-skew histories whose rounds in flight use different pairs of keys ({@link
 * WriteSkewHistories}, {@code disjoint}): each round is exactly one G2-item cycle, of its two
 * transactions, and there is no other violation. With windows small enough that generations retire
 * and their transactions are evicted many times over a run, while many cycles (pending edges of the
 * incremental Adya check) are open in each generation: the window reports only G2-items, each of
 * one round's two transactions, each round at most once, and every round that one generation sees
 * whole. A generation starts every W/2 transactions fed and holds W, so it sees a round whole when
 * the round's transactions and the appenders of every element they read lie within W/2 consecutive
 * feed positions; a round spread wider may be missed (a read whose element's appender was evicted
 * is unknown to the later generation, which then cannot place the round's unobserved append after
 * it), as on the code before and after issue 18's pending-edge change alike.
 */
class WindowWriteSkewPropertyTest {
  @Property(tries = 200)
  void everyRoundIsReportedOnceAndNothingElse(@ForAll long seed, @ForAll @IntRange(min = 1, max = 80) int rounds,
      @ForAll @IntRange(min = 24, max = 64) int window) {
    WriteSkewHistories.Generated g = WriteSkewHistories.generate(seed, rounds, true);
    History h = g.history();
    WindowChecker checker = new WindowChecker(
        WindowConfig.of(window, 0, 0).withFamilies(EnumSet.of(CheckFamily.ADYA_POLYGRAPH)), new MemoryJournal());
    List<WindowViolation> found = new ArrayList<>();
    for (int t = 0; t < h.txnCount(); t++) {
      found.addAll(checker.offer(WindowTxns.of(h, t)).violations());
    }
    found.addAll(checker.finish().violations());
    List<Set<String>> all = new ArrayList<>();
    int[] low = new int[rounds];
    int[] high = new int[rounds];
    for (int r = 0; r < rounds; r++) {
      all.add(new TreeSet<>());
      low[r] = Integer.MAX_VALUE;
    }
    Map<String, Integer> appender = new HashMap<>();
    for (int t = 0; t < h.txnCount(); t++) {
      int r = g.round()[t];
      all.get(r).add("T" + h.label(t));
      high[r] = Math.max(high[r], t);
      low[r] = Math.min(low[r], t);
      for (int o = h.opStart(t); o < h.opEnd(t); o++) {
        String element = h.keyName(h.opKey(o)) + "/";
        if (h.opKind(o) == OpKind.APPEND) {
          appender.put(element + h.opValue(o), t);
        } else {
          for (int i = 0; i < h.listLength(o); i++) {
            low[r] = Math.min(low[r], appender.get(element + h.listElement(o, i)));
          }
        }
      }
    }
    Set<Set<String>> mustFind = new HashSet<>();
    for (int r = 0; r < rounds; r++) {
      if (high[r] - low[r] < window / 2) {
        mustFind.add(all.get(r));
      }
    }
    List<Set<String>> actual = new ArrayList<>();
    for (WindowViolation v : found) {
      assertThat(v.finding().anomaly()).as("seed %d: %s", seed, v.finding().summary()).isEqualTo(Anomaly.G2_ITEM);
      Set<String> names = new TreeSet<>();
      v.finding().txns().forEach(x -> names.add(x.name()));
      actual.add(names);
    }
    assertThat(new HashSet<>(actual)).as("seed %d, window %d: reported twice", seed, window).hasSize(actual.size());
    assertThat(all).as("seed %d, window %d", seed, window).containsAll(actual);
    assertThat(actual).as("seed %d, window %d", seed, window).containsAll(mustFind);
  }
}
