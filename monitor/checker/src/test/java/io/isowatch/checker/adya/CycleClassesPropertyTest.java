package io.isowatch.checker.adya;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The fast checker against {@link SlowAdya} on small random list-append histories: at serializable
 * (every cycle class forbidden), with and without session order, the set of cycle classes reported
 * equals the set of classes of all simple cycles. Histories come from a permissive store: the
 * transactions' operations run interleaved, appends go to the end of the key's list at once (also
 * for transactions that later abort), and a read returns any prefix of the list so far. The number
 * of histories is the system property {@code isowatch.property.tries} (2000 by default); seeds are
 * fixed so a failure names its history.
 */
class CycleClassesPropertyTest {
  private static final Set<Anomaly> CYCLES =
      EnumSet.of(Anomaly.G0, Anomaly.G1C, Anomaly.G_SINGLE, Anomaly.G_NONADJACENT, Anomaly.G2_ITEM);

  @Test
  void fastCheckerFindsExactlyTheCycleClassesOfEverySimpleCycle() {
    int tries = Integer.getInteger("isowatch.property.tries", 2000);
    Map<Anomaly, Integer> seen = new EnumMap<>(Anomaly.class);
    for (int seed = 0; seed < tries; seed++) {
      History h = randomHistory(new Random(seed));
      for (boolean so : new boolean[] {true, false}) {
        Set<Anomaly> fast = EnumSet.noneOf(Anomaly.class);
        for (Violation v : new AdyaChecker(Level.SERIALIZABLE, so).check(h).violations()) {
          if (CYCLES.contains(v.anomaly())) {
            fast.add(v.anomaly());
          }
        }
        Set<Anomaly> slow = SlowAdya.cycleClasses(h, so);
        assertThat(fast).as("seed %d, session order %s", seed, so).isEqualTo(slow);
        slow.forEach(a -> seen.merge(a, 1, Integer::sum));
      }
    }
    if (tries >= 2000) {
      // the generator reaches every class (counts for the fixed seeds 0..tries-1)
      assertThat(seen.keySet()).isEqualTo(CYCLES);
    }
  }

  /** 2–6 transactions over 1–3 keys and 1–3 sessions, 1–4 operations each, 85% committed. */
  static History randomHistory(Random rnd) {
    int txns = 2 + rnd.nextInt(5);
    int keys = 1 + rnd.nextInt(3);
    int sessions = 1 + rnd.nextInt(3);
    // plan: per transaction a list of (key, isAppend)
    int[][] opKey = new int[txns][];
    boolean[][] opAppend = new boolean[txns][];
    for (int t = 0; t < txns; t++) {
      int n = 1 + rnd.nextInt(4);
      opKey[t] = new int[n];
      opAppend[t] = new boolean[n];
      for (int i = 0; i < n; i++) {
        opKey[t][i] = rnd.nextInt(keys);
        opAppend[t][i] = rnd.nextBoolean();
      }
    }
    // run the operations interleaved against per-key lists
    List<List<Long>> state = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      state.add(new ArrayList<>());
    }
    long[] nextElement = new long[keys];
    long[][] appended = new long[txns][];
    long[][][] read = new long[txns][][];
    int[] pc = new int[txns];
    List<Integer> running = new ArrayList<>();
    for (int t = 0; t < txns; t++) {
      appended[t] = new long[opKey[t].length];
      read[t] = new long[opKey[t].length][];
      running.add(t);
    }
    while (!running.isEmpty()) {
      int idx = rnd.nextInt(running.size());
      int t = running.get(idx);
      int i = pc[t]++;
      List<Long> list = state.get(opKey[t][i]);
      if (opAppend[t][i]) {
        appended[t][i] = ++nextElement[opKey[t][i]];
        list.add(appended[t][i]);
      } else {
        int len = rnd.nextBoolean() ? list.size() : rnd.nextInt(list.size() + 1);
        read[t][i] = list.subList(0, len).stream().mapToLong(Long::longValue).toArray();
      }
      if (pc[t] == opKey[t].length) {
        running.remove(idx);
      }
    }
    History h = new History();
    for (int k = 0; k < keys; k++) {
      h.key("k" + k);
    }
    for (int t = 0; t < txns; t++) {
      h.beginTxn(h.session("s" + rnd.nextInt(sessions)), t + 1);
      for (int i = 0; i < opKey[t].length; i++) {
        if (opAppend[t][i]) {
          h.append(opKey[t][i], appended[t][i]);
        } else {
          h.readList(opKey[t][i], read[t][i], 0, read[t][i].length);
        }
      }
      int s = rnd.nextInt(40);
      h.end(s < 34 ? TxnStatus.COMMITTED : s < 37 ? TxnStatus.ABORTED : TxnStatus.UNKNOWN);
    }
    return h;
  }
}
