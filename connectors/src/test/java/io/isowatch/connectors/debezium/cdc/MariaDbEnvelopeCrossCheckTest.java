package io.isowatch.connectors.debezium.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hand-written change events in the shape of Debezium's MariaDB connector (GTID transaction ids,
 * {@code source.db}), as a topic adapter would read them from two topics: grouping by GTID,
 * metadata arriving before or after the rows, and every kind of cross-check finding.
 */
class MariaDbEnvelopeCrossCheckTest {
  private static String row(String gtid, String op, String before, String after) {
    return "{\"before\":" + before + ",\"after\":" + after + ",\"source\":{\"version\":\"3.6.1.Final\","
        + "\"connector\":\"mariadb\",\"name\":\"maria\",\"ts_ms\":1700000000000,\"snapshot\":\"false\","
        + "\"db\":\"probe\",\"table\":\"isowatch_list_append\",\"server_id\":1,\"gtid\":\"" + gtid + "\","
        + "\"file\":\"mysql-bin.000003\",\"pos\":1234,\"row\":0,\"thread\":12},\"op\":\"" + op + "\","
        + "\"ts_ms\":1700000000001,\"transaction\":{\"id\":\"" + gtid + "\",\"total_order\":1,"
        + "\"data_collection_order\":1}}";
  }

  private static String kv(String k, String v) {
    return "{\"k\":\"" + k + "\",\"v\":\"" + v + "\"}";
  }

  private static String begin(String gtid) {
    return "{\"status\":\"BEGIN\",\"id\":\"" + gtid + "\",\"event_count\":null,\"data_collections\":null,"
        + "\"ts_ms\":1700000000000}";
  }

  private static String end(String gtid, int count) {
    return "{\"status\":\"END\",\"id\":\"" + gtid + "\",\"event_count\":" + count + ",\"data_collections\":"
        + "[{\"data_collection\":\"probe.isowatch_list_append\",\"event_count\":" + count + "}],"
        + "\"ts_ms\":1700000000002}";
  }

  private static Transaction txn(String id, TxnStatus status, Operation... ops) {
    return new Transaction("maria", "s1", id, 0L, status, List.of(ops), Instant.EPOCH, Instant.EPOCH, null);
  }

  private static Operation append(String key, long v) {
    return new Operation(OpKind.APPEND, key, v);
  }

  @Test
  void groupsByGtidAndReportsLostCommitsAbortedWritesAndStrays() {
    List<CapturedTransaction> captured = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    TransactionAssembler assembler = new TransactionAssembler(captured::add);
    ChangeAssembly assembly = new ChangeAssembly(assembler, (reason, value) -> rejected.add(reason));
    // GTID 0-1-7: rows then metadata; 0-1-8: END first (another topic), then its row; a schema-wrapped row.
    assembly.handle("maria.transaction", null, begin("0-1-7"));
    assembly.handle("maria.probe.isowatch_list_append", null, row("0-1-7", "u", kv("a", ",1"), kv("a", ",1,5")));
    assembly.handle("maria.probe.isowatch_list_append", null, row("0-1-7", "c", "null", kv("b", ",6")));
    assembly.handle("maria.transaction", null, end("0-1-7", 2));
    assembly.handle("maria.transaction", null, end("0-1-8", 2));
    assembly.handle("maria.probe.isowatch_list_append", null, row("0-1-8", "u", kv("b", ",6"), kv("b", ",6,8")));
    assembly.handle("maria.probe.isowatch_list_append", null,
        "{\"schema\":{\"type\":\"struct\",\"optional\":false},\"payload\":"
            + row("0-1-8", "u", kv("a", ",1,5"), kv("a", ",1,5,11")) + "}");
    assembly.handle("maria.probe.isowatch_list_append", null, "{\"op\":\"u\",\"source\":{\"connector\":\"mariadb\","
        + "\"db\":\"probe\",\"table\":\"isowatch_list_append\"}}");
    assembly.handle("maria.probe.isowatch_list_append", null, null); // tombstone: skipped

    assertThat(rejected).containsExactly("bad-envelope: mariadb change has no source.gtid: turn GTID mode on"
        + " so that each change names its transaction");
    assertThat(assembly.rejected()).isEqualTo(1);
    assertThat(assembler.hasPending()).isFalse();
    assertThat(captured).extracting(CapturedTransaction::txn, t -> t.changes().size(), CapturedTransaction::complete)
        .containsExactly(tuple("0-1-7", 2, true), tuple("0-1-8", 2, true));
    assertThat(captured.get(0).source()).isEqualTo(new Source("0-1-7", null, "0-1-7"));

    List<Transaction> recorded = List.of(
        txn("maria/s1/0", TxnStatus.COMMITTED, append("a", 5), append("b", 6)),
        txn("maria/s1/1", TxnStatus.COMMITTED, append("a", 9)),
        txn("maria/s1/2", TxnStatus.ABORTED, append("b", 8)));
    CrossCheckReport report = CommitCrossCheck.check(recorded, captured, "isowatch_list_append");

    assertThat(report.findings()).extracting(Finding::kind, Finding::txnId, Finding::dbTxn, Finding::key, Finding::element)
        .containsExactly(
            tuple(Finding.Kind.LOST_COMMIT, "maria/s1/1", null, "a", 9L),
            tuple(Finding.Kind.ABORTED_BUT_COMMITTED, "maria/s1/2", "0-1-8", "b", 8L),
            tuple(Finding.Kind.UNRECORDED_WRITE, null, "0-1-8", "a", 11L));
    assertThat(report.versionOrder()).isEqualTo(Map.of("a", List.of(5L, 11L), "b", List.of(6L, 8L)));
    assertThat(report.confirmed()).containsExactly(new Transaction("maria", "s1", "maria/s1/0", 0L,
        TxnStatus.COMMITTED, List.of(append("a", 5), append("b", 6)), Instant.EPOCH, Instant.EPOCH,
        new Source("0-1-7", null, "0-1-7")));
  }

  @Test
  void anUpdateWithoutBeforeImageIsUnreadableNotGuessed() {
    List<CapturedTransaction> captured = new ArrayList<>();
    ChangeAssembly assembly = new ChangeAssembly(new TransactionAssembler(captured::add), (r, v) -> {
      throw new AssertionError(r);
    });
    assembly.handle("t", null, row("0-1-9", "u", "null", kv("a", ",1,5")));
    assembly.handle("t", null, end("0-1-9", 1));
    CrossCheckReport report = CommitCrossCheck.check(List.of(), captured, "isowatch_list_append");
    assertThat(report.findings()).containsExactly(new Finding(Finding.Kind.UNREADABLE_ROW, null, "0-1-9", "a", null,
        "update without a before image; set REPLICA IDENTITY FULL (PostgreSQL) or binlog_row_image=FULL"));
  }
}
