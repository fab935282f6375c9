package io.isowatch.connectors.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import io.isowatch.connectors.testdb.MariaDbServer;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe against real servers, one session at a time, where the right answer is known exactly:
 * with a single session every read returns what the session itself last wrote.
 */
@Timeout(120)
class ProbeTest {
  @RegisterExtension
  static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);
  @RegisterExtension
  static final PrivateServer<MariaDbServer> MARIADB = PrivateServer.of(() -> MariaDbServer.start(false));

  private static ProbeConfig config(String url, ProbeWorkload workload, String tag, int sessions, long txns) {
    return new ProbeConfig(url, null, null, ProbeIsolation.SERIALIZABLE, workload, Scenario.RANDOM,
        sessions, 3, txns, null, "probe-test", tag, 42);
  }

  private static History run(ProbeConfig config, long committed) throws Exception {
    HistoryCollector collector = new HistoryCollector();
    ProbeResult r = new Probe(config, Dialect.forUrl(config.jdbcUrl()), collector).run();
    assertThat(r.committed()).isEqualTo(committed);
    assertThat(r.aborted()).isZero();
    assertThat(r.unknown()).isZero();
    return collector.history();
  }

  /**
   * Replays a one-session history: every list read must be exactly the appends to its key so far,
   * every register read the last write (or the initial value).
   */
  private static void assertSequential(History h) {
    Map<Integer, List<Long>> lists = new HashMap<>();
    Map<Integer, Long> registers = new HashMap<>();
    for (int t = 0; t < h.txnCount(); t++) {
      assertThat(h.status(t)).isEqualTo(TxnStatus.COMMITTED);
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        int key = h.opKey(op);
        byte kind = h.opKind(op);
        if (kind == OpKind.APPEND) {
          lists.computeIfAbsent(key, k -> new ArrayList<>()).add(h.opValue(op));
        } else if (kind == OpKind.WRITE) {
          registers.put(key, h.opValue(op));
        } else if (kind == OpKind.READ_LIST) {
          List<Long> read = new ArrayList<>();
          for (int i = 0; i < h.listLength(op); i++) {
            read.add(h.listElement(op, i));
          }
          assertThat(read).as("read of %s in T%d", h.keyName(key), h.label(t))
              .isEqualTo(lists.getOrDefault(key, List.of()));
        } else {
          assertThat(h.opValue(op)).as("read of %s in T%d", h.keyName(key), h.label(t))
              .isEqualTo(registers.getOrDefault(key, History.NIL));
        }
      }
    }
  }

  @Test
  void listAppendOnPostgresReadsBackEveryAppendInOrder() throws Exception {
    History h = run(config(POSTGRES.get().jdbcUrl(), ProbeWorkload.LIST_APPEND, "pt-la", 1, 60), 60);
    assertThat(h.txnCount()).isEqualTo(60);
    assertThat(h.keyCount()).isLessThanOrEqualTo(3);
    assertSequential(h);
  }

  @Test
  void rwRegisterOnPostgresReadsBackTheLastWrite() throws Exception {
    History h = run(config(POSTGRES.get().jdbcUrl(), ProbeWorkload.RW_REGISTER, "pt-rw", 1, 60), 60);
    assertThat(h.txnCount()).isEqualTo(60);
    assertSequential(h);
  }

  @Test
  void listAppendOnMariaDbReadsBackEveryAppendInOrder() throws Exception {
    History h = run(config(MARIADB.get().jdbcUrl(), ProbeWorkload.LIST_APPEND, "mt-la", 1, 60), 60);
    assertSequential(h);
  }

  @Test
  void rwRegisterOnMariaDbReadsBackTheLastWrite() throws Exception {
    History h = run(config(MARIADB.get().jdbcUrl(), ProbeWorkload.RW_REGISTER, "mt-rw", 1, 60), 60);
    assertSequential(h);
  }

  @Test
  void historyFileReadsBackTheSameTransactions(@TempDir Path dir) throws Exception {
    History h = run(config(POSTGRES.get().jdbcUrl(), ProbeWorkload.LIST_APPEND, "pt-file", 1, 20), 20);
    Path file = dir.resolve("probe.jsonl");
    HistoryFiles.write(h, HistoryFormat.JSONL, file);
    History back = HistoryFiles.read(file, HistoryFormat.JSONL, n -> { });
    assertThat(back.txnCount()).isEqualTo(20);
    assertThat(back.opCount()).isEqualTo(h.opCount());
    assertSequential(back);
  }

  @Test
  void concurrentSessionsCommitExactlyTheAskedNumber() throws Exception {
    HistoryCollector collector = new HistoryCollector();
    ProbeConfig c = new ProbeConfig(POSTGRES.get().jdbcUrl(), null, null, ProbeIsolation.SERIALIZABLE,
        ProbeWorkload.LIST_APPEND, Scenario.RANDOM, 4, 2, 100, null, "probe-test", "pt-conc", 7);
    ProbeResult r = new Probe(c, Dialect.forUrl(c.jdbcUrl()), collector).run();
    History h = collector.history();
    assertThat(r.committed()).isEqualTo(100);
    assertThat(h.txnCount()).isEqualTo(r.total());
    int committed = 0;
    for (int t = 0; t < h.txnCount(); t++) {
      committed += h.status(t) == TxnStatus.COMMITTED ? 1 : 0;
    }
    assertThat(committed).isEqualTo(100);
    // the commits are shared: under load a session can start after the others committed all 100,
    // so the history holds at most the 4 sessions asked, each under one of their names
    Set<String> sessions = new HashSet<>();
    for (int i = 0; i < h.sessionCount(); i++) {
      sessions.add(h.sessionName(i));
    }
    assertThat(Set.of(c.sessionName(0), c.sessionName(1), c.sessionName(2), c.sessionName(3))).containsAll(sessions);
    assertThat(sessions).isNotEmpty();
  }

  /**
   * @return per physical key of the history, the appends to it in every status (committed, aborted,
   *     unknown), keyed by name
   */
  private static Map<String, Integer> appendsPerKey(History h) {
    Map<String, Integer> appends = new TreeMap<>();
    for (int op = 0; op < h.opCount(); op++) {
      if (h.opKind(op) == OpKind.APPEND) {
        appends.merge(h.keyName(h.opKey(op)), 1, Integer::sum);
      }
    }
    return appends;
  }

  /** @return per slot of {@code tag}, the generations of its keys seen in the history, ascending */
  private static Map<Integer, List<Integer>> generations(History h, String tag) {
    Pattern name = Pattern.compile(Pattern.quote(tag) + "-k(\\d+)(?:\\.(\\d+))?");
    Map<Integer, Set<Integer>> seen = new TreeMap<>();
    for (int k = 0; k < h.keyCount(); k++) {
      Matcher m = name.matcher(h.keyName(k));
      assertThat(m.matches()).as("key %s", h.keyName(k)).isTrue();
      seen.computeIfAbsent(Integer.parseInt(m.group(1)), i -> new TreeSet<>())
          .add(m.group(2) == null ? 0 : Integer.parseInt(m.group(2)));
    }
    Map<Integer, List<Integer>> out = new TreeMap<>();
    seen.forEach((slot, gens) -> out.put(slot, List.copyOf(gens)));
    return out;
  }

  /**
   * One session, lost-update shapes (read a key, append to it), at most 4 appends per key: each
   * slot's keys fill up to exactly 4 appends in turn, and every read is exactly the appends to its
   * own physical key so far, so no read holds more than 3 elements (it precedes the append).
   */
  @Test
  void oneSessionFillsEachKeyToTheBoundThenMovesToAFreshOne() throws Exception {
    ProbeConfig c = new ProbeConfig(POSTGRES.get().jdbcUrl(), null, null, ProbeIsolation.SERIALIZABLE,
        ProbeWorkload.LIST_APPEND, Scenario.LOST_UPDATE, 1, 2, 4, 30, null, "probe-test", "pt-fill", 11);
    History h = run(c, 30);
    assertSequential(h);
    Map<String, Integer> appends = appendsPerKey(h);
    assertThat(appends.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(30);
    for (Map.Entry<Integer, List<Integer>> slot : generations(h, "pt-fill").entrySet()) {
      List<Integer> gens = slot.getValue();
      int total = 0;
      for (int g = 0; g < gens.size(); g++) {
        assertThat(gens.get(g)).isEqualTo(g);
        int n = appends.get(c.keyName(slot.getKey(), g));
        total += n;
        if (g < gens.size() - 1) {
          assertThat(n).as("appends to %s", c.keyName(slot.getKey(), g)).isEqualTo(4);
        } else {
          assertThat(n).as("appends to %s", c.keyName(slot.getKey(), g)).isBetween(1, 4);
        }
      }
      assertThat(gens).hasSize((total + 3) / 4);
    }
    int longest = 0;
    for (int op = 0; op < h.opCount(); op++) {
      if (h.opKind(op) == OpKind.READ_LIST) {
        longest = Math.max(longest, h.listLength(op));
      }
    }
    assertThat(longest).isEqualTo(3);
  }

  /**
   * The write-skew known answer of PostgreSQL REPEATABLE READ (8 sessions on one pair of keys, 200
   * commits) with at most 4 appends per key: no physical key gets more than 4 appends in any status,
   * no read returns more than 4 elements, the slots did move to fresh keys many times, and the
   * checker still finds write skew (G2-item) and nothing snapshot isolation forbids.
   */
  @Test
  void writeSkewStaysDetectableWithFourAppendsPerKey() throws Exception {
    ProbeConfig c = new ProbeConfig(POSTGRES.get().jdbcUrl(), null, null, ProbeIsolation.REPEATABLE_READ,
        ProbeWorkload.LIST_APPEND, Scenario.WRITE_SKEW, 8, 2, 4, 200, null, "probe-test", "pt-rot", 2);
    HistoryCollector collector = new HistoryCollector();
    ProbeResult r = new Probe(c, Dialect.forUrl(c.jdbcUrl()), collector).run();
    History h = collector.history();
    assertThat(r.committed()).isEqualTo(200);
    assertThat(r.unknown()).isZero();

    Map<String, Integer> appends = appendsPerKey(h);
    assertThat(appends.values()).allSatisfy(n -> assertThat(n).isBetween(1, 4));
    int committedAppends = 0;
    int longest = 0;
    for (int t = 0; t < h.txnCount(); t++) {
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        committedAppends += h.status(t) == TxnStatus.COMMITTED && h.opKind(op) == OpKind.APPEND ? 1 : 0;
        longest = h.opKind(op) == OpKind.READ_LIST ? Math.max(longest, h.listLength(op)) : longest;
      }
    }
    assertThat(committedAppends).isEqualTo(200);
    assertThat(longest).isBetween(1, 4);
    Map<Integer, List<Integer>> gens = generations(h, "pt-rot");
    assertThat(gens.keySet()).containsExactly(0, 1);
    int physical = 0;
    for (List<Integer> g : gens.values()) {
      assertThat(g.get(g.size() - 1)).as("generations %s", g).isEqualTo(g.size() - 1);
      physical += g.size();
    }
    // 200 committed appends, at most 4 per key: at least 50 keys
    assertThat(physical).isGreaterThanOrEqualTo(50);

    Set<Anomaly> found = EnumSet.noneOf(Anomaly.class);
    for (Violation v : Checkers.adya(Level.SERIALIZABLE, true).check(h).violations()) {
      found.add(v.anomaly());
    }
    assertThat(found).contains(Anomaly.G2_ITEM);
    CheckResult si = Checkers.adya(Level.SNAPSHOT_ISOLATION, true).check(h);
    assertThat(si.violations()).isEmpty();
    assertThat(si.verdict()).isEqualTo(Verdict.CONSISTENT);
  }

  /** rw-register ignores the bound: with 1 append per key allowed, its 3 keys are never retired. */
  @Test
  void rwRegisterKeepsItsKeysWhateverTheBound() throws Exception {
    ProbeConfig c = new ProbeConfig(POSTGRES.get().jdbcUrl(), null, null, ProbeIsolation.SERIALIZABLE,
        ProbeWorkload.RW_REGISTER, Scenario.LOST_UPDATE, 1, 3, 1, 40, null, "probe-test", "pt-rw1", 3);
    History h = run(c, 40);
    assertSequential(h);
    assertThat(generations(h, "pt-rw1")).containsOnlyKeys(0, 1, 2)
        .allSatisfy((slot, gens) -> assertThat(gens).containsExactly(0));
  }

  @Test
  void refusedConnectionNamesTheUrl() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/nowhere";
    assertThatThrownBy(() -> new Probe(config(url, ProbeWorkload.LIST_APPEND, "x", 1, 1),
        Dialect.forUrl(url), t -> { }).run())
        .isInstanceOf(ProbeException.class)
        .hasMessageStartingWith("cannot connect to " + url + ": ")
        .hasMessageEndingWith("(check that the server runs, the URL, the user and the password)");
  }

  @Test
  void unknownJdbcUrlNamesTheSupportedOnes() {
    assertThatThrownBy(() -> Dialect.forUrl("jdbc:oracle:thin:@x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no probe dialect for JDBC URL 'jdbc:oracle:thin:@x'; supported: jdbc:postgresql:,"
            + " jdbc:mariadb:, jdbc:mysql: (or implement io.isowatch.connectors.probe.Dialect)");
  }
}
