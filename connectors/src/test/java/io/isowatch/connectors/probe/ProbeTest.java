package io.isowatch.connectors.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.connectors.testdb.MariaDbServer;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
