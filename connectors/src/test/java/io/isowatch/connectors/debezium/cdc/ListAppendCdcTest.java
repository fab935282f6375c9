package io.isowatch.connectors.debezium.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.isowatch.connectors.debezium.engine.CaptureConfig;
import io.isowatch.connectors.debezium.engine.ChangeStream;
import io.isowatch.connectors.probe.Dialect;
import io.isowatch.schemas.debezium.ListValues;
import io.isowatch.connectors.probe.Probe;
import io.isowatch.connectors.probe.ProbeConfig;
import io.isowatch.connectors.probe.ProbeIsolation;
import io.isowatch.connectors.probe.ProbeResult;
import io.isowatch.connectors.probe.ProbeWorkload;
import io.isowatch.connectors.probe.Scenario;
import io.isowatch.connectors.testdb.PostgresServer;
import io.isowatch.connectors.testdb.PrivateServer;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.debezium.Envelope;
import io.isowatch.schemas.debezium.EnvelopeException;
import io.isowatch.schemas.debezium.JsonEnvelopes;
import io.isowatch.schemas.debezium.RowChange;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * CDC mode against a private PostgreSQL: the probe runs at REPEATABLE READ while the embedded engine
 * captures its list table; the stream, grouped by xid, confirms every committed append, and an
 * event removed from the stream is reported as a lost commit.
 */
@Timeout(240)
class ListAppendCdcTest {
  private static final String SENTINEL = "cdc-test-sentinel";
  @RegisterExtension
  static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);

  @BeforeAll
  static void start() throws Exception {
    try (Connection c = POSTGRES.get().connect()) {
      ListAppendCapture.prepare(c);
    }
  }

  @Test
  void streamConfirmsEveryCommitAndARemovedEventIsALostCommit(@TempDir Path dir) throws Exception {
    CaptureConfig config = ListAppendCapture.config(POSTGRES.get().jdbcUrl(), dir.resolve("offsets.dat"), false);
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    List<Transaction> recorded = Collections.synchronizedList(new ArrayList<>());
    ProbeConfig probe = new ProbeConfig(POSTGRES.get().jdbcUrl(), null, null, ProbeIsolation.REPEATABLE_READ,
        ProbeWorkload.LIST_APPEND, Scenario.RANDOM, 4, 3, 150, null, "cdc", "cdc", 7);
    ProbeResult result;
    try (ChangeStream stream = ChangeStream.start(config, (dest, key, value) -> events.add(value))) {
      await().atMost(Duration.ofSeconds(60)).until(config::slotActive);
      result = new Probe(probe, Dialect.forUrl(POSTGRES.get().jdbcUrl()), recorded::add).run();
      try (Connection c = POSTGRES.get().connect(); Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO " + Dialect.LIST_TABLE + " (k, v) VALUES ('" + SENTINEL + "', '')");
      }
      // commit order: once the sentinel's transaction is whole, every probe commit has been streamed
      await().atMost(Duration.ofSeconds(60)).until(() -> assemble(List.copyOf(events), e -> false).stream()
          .anyMatch(t -> t.complete() && t.changes().stream().anyMatch(r -> SENTINEL.equals(r.after().path("k").asText()))));
    }
    assertThat(result.committed()).isEqualTo(150);
    List<Transaction> txns = List.copyOf(recorded);
    List<CapturedTransaction> captured = assemble(List.copyOf(events), e -> false);

    CrossCheckReport report = CommitCrossCheck.check(txns, captured, Dialect.LIST_TABLE);
    assertThat(report.findings()).isEmpty();
    Map<String, List<Long>> finalLists = finalLists(probe);
    finalLists.put(SENTINEL, List.of());
    assertThat(report.versionOrder()).isEqualTo(finalLists);
    List<String> committedWithAppends = txns.stream()
        .filter(t -> t.getStatus() == TxnStatus.COMMITTED && t.getOps().stream().anyMatch(o -> o.getKind() == OpKind.APPEND))
        .map(Transaction::getTxnId).sorted().toList();
    assertThat(report.confirmed().stream().map(Transaction::getTxnId).sorted().toList())
        .isEqualTo(committedWithAppends);
    assertThat(report.confirmed()).allSatisfy(t -> assertThat(t.getSource().getDbTxnId()).matches("[0-9]+"));

    // Remove one update from the stream: its element becomes a lost commit, its transaction incomplete.
    RowChange removed = captured.stream().flatMap(t -> t.changes().stream())
        .filter(r -> "u".equals(r.op())).findFirst().orElseThrow();
    String key = removed.after().path("k").asText();
    List<Long> after = ListValues.parse(removed.after().path("v").asText());
    long element = after.get(after.size() - 1);
    String writer = txns.stream().filter(t -> t.getOps().stream()
        .anyMatch(o -> o.getKind() == OpKind.APPEND && o.getKey().equals(key) && o.getValue().equals(element)))
        .map(Transaction::getTxnId).findFirst().orElseThrow();
    List<CapturedTransaction> damaged = assemble(List.copyOf(events), e -> e.equals(removed));
    CrossCheckReport lost = CommitCrossCheck.check(txns, damaged, Dialect.LIST_TABLE);
    assertThat(lost.findings()).extracting(Finding::kind, Finding::txnId, Finding::dbTxn, Finding::key, Finding::element)
        .containsExactly(
            tuple(Finding.Kind.LOST_COMMIT, writer, null, key, element),
            tuple(Finding.Kind.INCOMPLETE_TRANSACTION, null, removed.txn(), null, null));
    assertThat(lost.confirmed()).hasSize(report.confirmed().size() - 1);
  }

  /** Decodes and groups the captured events, dropping those {@code drop} selects; whole then pending. */
  private static List<CapturedTransaction> assemble(List<String> events, Predicate<Envelope> drop) {
    List<CapturedTransaction> out = new ArrayList<>();
    TransactionAssembler assembler = new TransactionAssembler(out::add);
    for (String v : events) {
      try {
        JsonEnvelopes.parse(v).filter(drop.negate()).ifPresent(assembler::accept);
      } catch (EnvelopeException e) {
        throw new AssertionError(e);
      }
    }
    out.addAll(assembler.pending());
    return out;
  }

  private static Map<String, List<Long>> finalLists(ProbeConfig probe) throws Exception {
    Map<String, List<Long>> lists = new HashMap<>();
    try (Connection c = POSTGRES.get().connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT k, v FROM " + Dialect.LIST_TABLE + " WHERE k LIKE 'cdc-k%'")) {
      while (rs.next()) {
        lists.put(rs.getString(1), ListValues.parse(rs.getString(2)));
      }
    }
    return lists;
  }
}
