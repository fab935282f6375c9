package io.isowatch.checker.adya;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The register checker against every version order, on small random register histories. For each
 * history, every choice of a total order of each key's writes turns it into a list-append history
 * (a write becomes an append, a read of value v the list of the key's writes up to v in that order,
 * empty for the initial value), which the list checker decides exactly. A level is satisfiable when
 * some order passes it. Then, with and without session order, at each level: a register verdict {@code violated}
 * means no order passes, {@code consistent} means some order does, and at read uncommitted and read
 * committed the verdict is never {@code unknown}. The number of histories is the system property
 * {@code isowatch.property.tries} divided by four (500 by default); seeds are fixed.
 */
class RegisterOrdersPropertyTest {
  private static final List<Level> LEVELS = List.of(
      Level.READ_UNCOMMITTED, Level.READ_COMMITTED, Level.SNAPSHOT_ISOLATION, Level.SERIALIZABLE);

  /** One planned transaction: per key, the value read (-1 none, 0 initial) and whether it writes. */
  private record Plan(int session, long[] read, boolean[] write) {}

  @Test
  void registerVerdictsAgreeWithEveryVersionOrder() {
    int tries = Integer.getInteger("isowatch.property.tries", 2000) / 4;
    Map<Level, Map<Verdict, Integer>> seen = new EnumMap<>(Level.class);
    for (int seed = 0; seed < tries; seed++) {
      List<Plan> plans = randomPlans(new Random(seed));
      History reg = build(plans, null);
      List<int[][]> orders = orders(plans);
      for (boolean so : new boolean[] {true, false}) {
        check(seed, so, reg, plans, orders, seen);
      }
    }
    if (tries >= 500) {
      // every verdict the levels allow occurs (counts for the fixed seeds)
      assertThat(seen.get(Level.READ_COMMITTED).keySet()).containsExactlyInAnyOrder(Verdict.CONSISTENT, Verdict.VIOLATED);
      assertThat(seen.get(Level.SERIALIZABLE).keySet()).containsExactlyInAnyOrder(Verdict.values());
    }
  }

  private static void check(int seed, boolean so, History reg, List<Plan> plans, List<int[][]> orders,
      Map<Level, Map<Verdict, Integer>> seen) {
    boolean[] satisfiable = new boolean[LEVELS.size()];
    for (int[][] order : orders) {
      History list = build(plans, order);
      for (int l = 0; l < LEVELS.size(); l++) {
        satisfiable[l] |= new AdyaChecker(LEVELS.get(l), so).check(list).verdict() == Verdict.CONSISTENT;
      }
    }
    for (int l = 0; l < LEVELS.size(); l++) {
      Level level = LEVELS.get(l);
      Verdict v = new AdyaChecker(level, so).check(reg).verdict();
      seen.computeIfAbsent(level, x -> new EnumMap<>(Verdict.class)).merge(v, 1, Integer::sum);
      String what = "seed " + seed + ", session order " + so + ", at " + level;
      if (v == Verdict.VIOLATED) {
        assertThat(satisfiable[l]).as(what + ": violated, yet some order passes").isFalse();
      } else if (v == Verdict.CONSISTENT) {
        assertThat(satisfiable[l]).as(what + ": consistent, yet no order passes").isTrue();
      } else {
        assertThat(l).as(what + ": unknown below snapshot isolation").isGreaterThanOrEqualTo(2);
      }
    }
  }

  /** 2–4 committed transactions over 1–2 keys and 1–2 sessions; a transaction reads a key before writing it. */
  private static List<Plan> randomPlans(Random rnd) {
    int txns = 2 + rnd.nextInt(3);
    int keys = 1 + rnd.nextInt(2);
    int sessions = 1 + rnd.nextInt(2);
    List<Plan> plans = new ArrayList<>();
    for (int t = 0; t < txns; t++) {
      long[] read = new long[keys];
      boolean[] write = new boolean[keys];
      for (int k = 0; k < keys; k++) {
        read[k] = rnd.nextInt(3) == 0 ? -1 : 0;
        write[k] = rnd.nextBoolean();
      }
      plans.add(new Plan(rnd.nextInt(sessions), read, write));
    }
    for (int t = 0; t < txns; t++) {
      for (int k = 0; k < keys; k++) {
        if (plans.get(t).read[k] == 0) {
          // the initial value or another transaction's write (value = writer index + 1)
          List<Long> choices = new ArrayList<>(List.of(0L));
          for (int u = 0; u < txns; u++) {
            if (u != t && plans.get(u).write[k]) {
              choices.add((long) u + 1);
            }
          }
          plans.get(t).read[k] = choices.get(rnd.nextInt(choices.size()));
        }
      }
    }
    return plans;
  }

  /** @return every choice of an order of each key's writers (transaction indices), per key */
  private static List<int[][]> orders(List<Plan> plans) {
    int keys = plans.get(0).write.length;
    List<int[][]> out = new ArrayList<>();
    out.add(new int[keys][]);
    for (int k = 0; k < keys; k++) {
      List<Integer> writers = new ArrayList<>();
      for (int t = 0; t < plans.size(); t++) {
        if (plans.get(t).write[k]) {
          writers.add(t);
        }
      }
      List<int[][]> next = new ArrayList<>();
      for (int[][] partial : out) {
        for (List<Integer> perm : permutations(writers)) {
          int[][] o = partial.clone();
          o[k] = perm.stream().mapToInt(Integer::intValue).toArray();
          next.add(o);
        }
      }
      out = next;
    }
    return out;
  }

  private static List<List<Integer>> permutations(List<Integer> xs) {
    if (xs.isEmpty()) {
      return List.of(List.of());
    }
    List<List<Integer>> out = new ArrayList<>();
    for (int i = 0; i < xs.size(); i++) {
      List<Integer> rest = new ArrayList<>(xs);
      int x = rest.remove(i);
      for (List<Integer> p : permutations(rest)) {
        List<Integer> q = new ArrayList<>(List.of(x));
        q.addAll(p);
        out.add(q);
      }
    }
    return out;
  }

  /** @return the register history ({@code order} null) or its list-append form under {@code order} */
  private static History build(List<Plan> plans, int[][] order) {
    History h = new History();
    int keys = plans.get(0).write.length;
    for (int k = 0; k < keys; k++) {
      h.key("k" + k);
    }
    for (int t = 0; t < plans.size(); t++) {
      Plan p = plans.get(t);
      h.beginTxn(h.session("s" + p.session), t + 1);
      for (int k = 0; k < keys; k++) {
        if (p.read[k] >= 0) {
          if (order == null) {
            h.read(k, p.read[k] == 0 ? History.NIL : p.read[k]);
          } else {
            long[] prefix = prefix(order[k], p.read[k]);
            h.readList(k, prefix, 0, prefix.length);
          }
        }
        if (p.write[k]) {
          if (order == null) {
            h.write(k, t + 1);
          } else {
            h.append(k, t + 1);
          }
        }
      }
      h.end(TxnStatus.COMMITTED);
    }
    return h;
  }

  /** @return the values of the writers in {@code order} up to and including value {@code v} (none for 0) */
  private static long[] prefix(int[] order, long v) {
    if (v == 0) {
      return new long[0];
    }
    int n = 0;
    while (order[n] + 1 != v) {
      n++;
    }
    long[] out = new long[n + 1];
    for (int i = 0; i <= n; i++) {
      out[i] = order[i] + 1;
    }
    return out;
  }
}
