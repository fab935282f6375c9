package io.isowatch.schemas.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.schemas.EventTimes;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ListAppendRowsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TABLE = "public.isowatch_list_append";
  private static final long T = 1_700_000_000_123_456L;

  private static JsonNode row(String k, String v) {
    return JSON.createObjectNode().put("k", k).put("v", v);
  }

  private static RowChange change(String op, String table, JsonNode before, JsonNode after, long lsn) {
    return new RowChange("postgresql", "771", table, op, before, after, lsn, null, T);
  }

  private static Operation append(String k, long e) {
    return new Operation(OpKind.APPEND, k, e);
  }

  private static Operation read(String k, Long... list) {
    return new Operation(OpKind.READ, k, List.of(list));
  }

  private static Transaction txn(String id, List<Operation> ops, Source source) {
    return new Transaction("db", id, id, 0L, TxnStatus.COMMITTED, ops, EventTimes.instant(T), EventTimes.instant(T),
        source);
  }

  @Test
  void eachRowChangeAppendsWhatItAddedThenReadsItsAfterList() {
    ListAppendRows rows = new ListAppendRows("db", "isowatch_list_append", Set.of("x"));
    ListAppendRows.Converted c = rows.convert("771", List.of(
        change("u", TABLE, row("x", ",1,2"), row("x", ",1,2,5"), 100),
        change("c", "public.other", null, row("x", "9"), 101),
        change("c", TABLE, null, row("y", ",7"), 102)));
    assertThat(c.transactions()).containsExactly(txn("cdc-771",
        List.of(append("x", 5), read("x", 1L, 2L, 5L), append("y", 7), read("y", 7L)), new Source("771", 102L, null)));
    assertThat(c.newKeys()).containsExactly("y");
    assertThat(c.problems()).isEmpty();
  }

  @Test
  void elementsAKeyHeldBeforeItsFirstCaptureAreAppendedOnceByABaseline() {
    ListAppendRows rows = new ListAppendRows("db", "isowatch_list_append", Set.of());
    ListAppendRows.Converted first = rows.convert("771", List.of(change("u", TABLE, row("x", ",3,1"), row("x", ",3,1,8"), 5)));
    assertThat(first.transactions()).containsExactly(
        txn("cdc-baseline-x", List.of(append("x", 3), append("x", 1)), null),
        txn("cdc-771", List.of(append("x", 8), read("x", 3L, 1L, 8L)), new Source("771", 5L, null)));
    assertThat(first.newKeys()).containsExactly("x");
    ListAppendRows.Converted second = rows.convert("771", List.of(change("u", TABLE, row("x", ",3,1,8"), row("x", ",3,1,8,9"), 6)));
    assertThat(second.transactions()).extracting(Transaction::getTxnId).containsExactly("cdc-771");
    assertThat(second.newKeys()).isEmpty();
  }

  @Test
  void aListRewrittenOutOfOrderIsReadAsTheDatabaseWroteIt() {
    ListAppendRows rows = new ListAppendRows("db", "isowatch_list_append", Set.of("y"));
    ListAppendRows.Converted c = rows.convert("771", List.of(change("u", TABLE, row("y", ",2"), row("y", ",4,2"), 5)));
    assertThat(c.transactions().get(0).getOps()).containsExactly(append("y", 4), read("y", 4L, 2L));
  }

  @Test
  void rowChangesThatCannotBeConvertedAreProblemsNamingWhy() {
    ListAppendRows rows = new ListAppendRows("db", "isowatch_list_append", Set.of("x"));
    ListAppendRows.Converted c = rows.convert("9", List.of(
        change("u", TABLE, null, row("x", ",1"), 1),
        change("u", TABLE, row("x", ",1"), row("x", ",a"), 2),
        change("d", TABLE, row("x", ",1"), null, 3),
        change("r", TABLE, null, row("x", ",1"), 4)));
    assertThat(c.transactions()).isEmpty();
    assertThat(c.problems()).containsExactly(
        "database transaction 9, table " + TABLE + ", key x: an update without a before image; set REPLICA IDENTITY"
            + " FULL on the table",
        "database transaction 9, table " + TABLE + ", key x: v is not a list of decimal longs separated by commas:"
            + " For input string: \"a\"",
        "database transaction 9, table " + TABLE + ": a delete (rows of a list-append table are never deleted) is not"
            + " converted",
        "database transaction 9, table " + TABLE + ": a snapshot read (the row as it was, not a commit) is not converted");
  }
}
