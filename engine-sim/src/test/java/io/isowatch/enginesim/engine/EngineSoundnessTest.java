package io.isowatch.enginesim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The engines convict and acquit the checkers over many seeded random schedules under contention
 * (4 sessions, 3 keys): every engine's histories satisfy its level, and the weaker ones show the
 * anomalies their level allows. A random driver of its own (the workload package's simulation is
 * the official one), so that the engine is checked on list-append too.
 */
class EngineSoundnessTest {
  private static final int SEEDS = 150;

  /** Runs one seeded random schedule and returns the history. */
  static History run(IsolationEngine engine, long seed, boolean lists) {
    Random rnd = new Random(seed);
    Recorder r = new Recorder(engine);
    int sessions = 4;
    int keys = 3;
    int txnsPerSession = 5;
    int opsPerTxn = 4;
    long[] next = new long[keys];
    Recorder.Tx[] open = new Recorder.Tx[sessions];
    int[] done = new int[sessions];
    int[] ops = new int[sessions];
    for (int s = 0; s < sessions; s++) {
      r.history().session("s" + s);
    }
    while (true) {
      int live = 0;
      for (int s = 0; s < sessions; s++) {
        live += done[s] < txnsPerSession ? 1 : 0;
      }
      if (live == 0) {
        return r.history();
      }
      boolean delivering = engine.pendingDeliveries() > 0;
      int pick = rnd.nextInt(sessions + (delivering ? 1 : 0));
      if (pick == sessions) {
        engine.deliver(rnd);
        continue;
      }
      if (done[pick] == txnsPerSession) {
        continue;
      }
      if (open[pick] == null) {
        open[pick] = r.begin("s" + pick);
        ops[pick] = 0;
        continue;
      }
      Recorder.Tx t = open[pick];
      if (ops[pick] == opsPerTxn) {
        if (rnd.nextInt(10) == 0) {
          t.abort();
        } else {
          t.commit();
        }
        open[pick] = null;
        done[pick]++;
        continue;
      }
      ops[pick]++;
      int k = rnd.nextInt(keys);
      boolean read = rnd.nextBoolean();
      String key = "x" + k;
      if (lists) {
        if (read) {
          t.readList(key);
        } else {
          t.append(key, ++next[k]);
        }
      } else if (read) {
        t.read(key);
      } else {
        t.write(key, ++next[k]);
      }
    }
  }

  private static TreeMap<String, Integer> scan(Supplier<IsolationEngine> engine, boolean lists, Level checkAt) {
    TreeMap<String, Integer> seen = new TreeMap<>();
    for (long seed = 0; seed < SEEDS; seed++) {
      History h = run(engine.get(), seed, lists);
      CheckResult c = Checkers.forLevel(checkAt).check(h);
      for (Anomaly a : EnumSet.copyOf(c.violations().stream().map(Violation::anomaly).toList().isEmpty()
          ? List.of(Anomaly.G0) : c.violations().stream().map(Violation::anomaly).toList())) {
        if (!c.violations().isEmpty()) {
          seen.merge(a.toString(), 1, Integer::sum);
        }
      }
      if (!c.violations().isEmpty() && !seen.containsKey("first seed")) {
        seen.put("first seed", (int) seed);
      }
    }
    return seen;
  }

  private static Supplier<IsolationEngine> engine(Level level) {
    return () -> Engines.create(level, EngineOptions.DEFAULT);
  }

  @Test
  void listEnginesAreSoundAtTheirLevel() {
    assertThat(scan(engine(Level.READ_UNCOMMITTED), true, Level.READ_UNCOMMITTED)).isEmpty();
    assertThat(scan(engine(Level.READ_COMMITTED), true, Level.READ_COMMITTED)).isEmpty();
    assertThat(scan(engine(Level.SNAPSHOT_ISOLATION), true, Level.SNAPSHOT_ISOLATION)).isEmpty();
    assertThat(scan(engine(Level.SERIALIZABLE), true, Level.SERIALIZABLE)).isEmpty();
  }

  @Test
  void registerEnginesAreSoundAtTheirLevel() {
    assertThat(scan(engine(Level.READ_UNCOMMITTED), false, Level.READ_UNCOMMITTED)).isEmpty();
    assertThat(scan(engine(Level.READ_COMMITTED), false, Level.READ_COMMITTED)).isEmpty();
    assertThat(scan(engine(Level.READ_ATOMIC), false, Level.READ_ATOMIC)).isEmpty();
    assertThat(scan(engine(Level.CAUSAL), false, Level.CAUSAL)).isEmpty();
    assertThat(scan(engine(Level.SNAPSHOT_ISOLATION), false, Level.CAUSAL)).isEmpty();
    assertThat(scan(engine(Level.SERIALIZABLE), false, Level.CAUSAL)).isEmpty();
    assertThat(scan(engine(Level.SNAPSHOT_ISOLATION), false, Level.SNAPSHOT_ISOLATION)).isEmpty();
    assertThat(scan(engine(Level.SERIALIZABLE), false, Level.SERIALIZABLE)).isEmpty();
  }

  @Test
  void theSameSeedGivesTheSameHistory() {
    for (Level level : Level.values()) {
      for (boolean lists : new boolean[] {false, true}) {
        History a = run(Engines.create(level), 7, lists);
        History b = run(Engines.create(level), 7, lists);
        assertThat(render(b)).as("%s", level).isEqualTo(render(a));
      }
    }
  }

  private static String render(History h) {
    StringBuilder sb = new StringBuilder();
    for (int t = 0; t < h.txnCount(); t++) {
      sb.append(h.sessionOf(t)).append(' ').append(h.label(t)).append(' ').append(h.status(t)).append(':');
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        sb.append(' ').append(h.opKind(op)).append(h.opKey(op)).append('=');
        if (h.opKind(op) == io.isowatch.checker.history.OpKind.READ_LIST) {
          for (int i = 0; i < h.listLength(op); i++) {
            sb.append(h.listElement(op, i)).append(',');
          }
        } else {
          sb.append(h.opValue(op));
        }
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /** Each weaker engine shows, at some seed, an anomaly the next rung forbids (first such seed pinned). */
  @Test
  void weakerEnginesShowWhatTheNextLevelForbids() {
    TreeMap<String, Integer> ru = scan(engine(Level.READ_UNCOMMITTED), false, Level.READ_COMMITTED);
    assertThat(ru).containsEntry("first seed", 0).containsKeys("G1a", "G1b");
    TreeMap<String, Integer> rc = scan(engine(Level.READ_COMMITTED), false, Level.READ_ATOMIC);
    assertThat(rc).containsEntry("first seed", 0).containsKey("non-repeatable-read");
    assertThat(scan(engine(Level.READ_ATOMIC), false, Level.CAUSAL))
        .isEqualTo(new TreeMap<>(Map.of("commit-order-cycle", 1, "first seed", 37)));
    assertThat(scan(engine(Level.CAUSAL), false, Level.SNAPSHOT_ISOLATION)).containsKey("lost-update");
    assertThat(scan(engine(Level.SNAPSHOT_ISOLATION), true, Level.SERIALIZABLE))
        .isEqualTo(new TreeMap<>(Map.of("G2-item", 89, "first seed", 0)));
    // per mille, with 10% of transactions aborted by the client and 3 keys for 4 sessions
    assertThat(commitRate(Level.SERIALIZABLE)).isEqualTo(364);
    assertThat(commitRate(Level.SNAPSHOT_ISOLATION)).isEqualTo(416);
  }

  /** @return committed transactions per 1000 over all seeds, list-append */
  private static int commitRate(Level level) {
    int committed = 0;
    int total = 0;
    for (long seed = 0; seed < SEEDS; seed++) {
      History h = run(engine(level).get(), seed, true);
      for (int t = 0; t < h.txnCount(); t++) {
        total++;
        committed += h.status(t) == TxnStatus.COMMITTED ? 1 : 0;
      }
    }
    return committed * 1000 / total;
  }
}
