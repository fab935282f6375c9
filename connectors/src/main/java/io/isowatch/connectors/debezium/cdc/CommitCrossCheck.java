package io.isowatch.connectors.debezium.cdc;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.schemas.debezium.ListValues;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.debezium.RowChange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cross-checks what clients recorded (the probe's list-append transactions) against the database's
 * change stream of the list table, grouped into database transactions ({@link
 * TransactionAssembler}).
 *
 * <p>Each row change of the list table (columns {@code k} key, {@code v} list text, {@link
 * ListValues}) appends to its key the elements its after image has beyond its before image; read in
 * the stream's commit order these give each key's version order. Each element is unique per key
 * (the probe's values are unique in the run), so it names both the recorded transaction that
 * appended it and the database transaction that committed it. The check then reports ({@link
 * Finding.Kind}): a recorded COMMITTED append that the stream lacks (a lost commit), a recorded
 * ABORTED append that the stream has, an element no record claims, a recorded transaction split over
 * database transactions, incomplete captured transactions, and rows it cannot read.
 *
 * <p>Run it once the stream has passed every recorded commit (for example after the stream shows a
 * row committed after the last recorded transaction ended); before that, commits still in flight
 * show up as lost. Time and memory O(recorded operations + captured changes).
 */
public final class CommitCrossCheck {
  private record Appended(String key, long element) {}

  private CommitCrossCheck() {}

  /**
   * @param recorded the clients' transactions, any order; READ and WRITE operations are not checked
   * @param captured the stream's transactions in commit order, whole ones and (at the end) pending
   *     ones
   * @param table the list table's name without schema, e.g. {@code isowatch_list_append}; changes
   *     of other tables are skipped
   * @return the report
   */
  public static CrossCheckReport check(List<Transaction> recorded, List<CapturedTransaction> captured, String table) {
    List<Finding> streamFindings = new ArrayList<>();
    Map<String, List<Long>> versionOrder = new LinkedHashMap<>();
    Map<Appended, Integer> committedBy = new HashMap<>();
    Map<Appended, Boolean> claimed = new LinkedHashMap<>();
    for (int i = 0; i < captured.size(); i++) {
      CapturedTransaction ct = captured.get(i);
      if (!ct.complete()) {
        streamFindings.add(new Finding(Finding.Kind.INCOMPLETE_TRANSACTION, null, ct.txn(), null, null,
            ct.changes().size() + " row changes seen, END missing or counting more"));
      }
      for (RowChange row : ct.changes()) {
        if (!row.table().equals(table) && !row.table().endsWith("." + table) || row.after() == null) {
          continue;
        }
        List<Long> appended = appended(row, streamFindings);
        if (appended == null) {
          continue;
        }
        String key = row.after().path("k").asText();
        versionOrder.computeIfAbsent(key, k -> new ArrayList<>()).addAll(appended);
        for (long e : appended) {
          Appended a = new Appended(key, e);
          committedBy.put(a, i);
          claimed.put(a, false);
        }
      }
    }

    List<Finding> findings = new ArrayList<>();
    Map<Integer, List<Transaction>> confirmedAt = new HashMap<>();
    for (Transaction t : recorded) {
      Set<Integer> dbTxns = new LinkedHashSet<>();
      boolean allFound = true;
      boolean anyAppend = false;
      for (Operation op : t.getOps()) {
        if (op.getKind() != OpKind.APPEND) {
          continue;
        }
        anyAppend = true;
        Appended a = new Appended(op.getKey(), (Long) op.getValue());
        Integer at = committedBy.get(a);
        if (at != null) {
          claimed.put(a, true);
          dbTxns.add(at);
        }
        if (t.getStatus() == TxnStatus.COMMITTED && at == null) {
          allFound = false;
          findings.add(new Finding(Finding.Kind.LOST_COMMIT, t.getTxnId(), null, a.key(), a.element(),
              "the client saw the commit; the change stream never shows the element"));
        } else if (t.getStatus() == TxnStatus.ABORTED && at != null) {
          findings.add(new Finding(Finding.Kind.ABORTED_BUT_COMMITTED, t.getTxnId(), captured.get(at).txn(),
              a.key(), a.element(), "the client saw the abort; the database committed the append"));
        }
      }
      if (dbTxns.size() > 1) {
        findings.add(new Finding(Finding.Kind.SPLIT_TRANSACTION, t.getTxnId(), null, null, null,
            "appends committed by database transactions "
                + dbTxns.stream().map(i -> captured.get(i).txn()).toList()));
      } else if (anyAppend && allFound && dbTxns.size() == 1 && t.getStatus() != TxnStatus.ABORTED) {
        int at = dbTxns.iterator().next();
        confirmedAt.computeIfAbsent(at, k -> new ArrayList<>()).add(new Transaction(t.getHistoryId(),
            t.getSessionId(), t.getTxnId(), t.getTxnSeq(), TxnStatus.COMMITTED, t.getOps(), t.getBeginTime(),
            t.getEndTime(), captured.get(at).source()));
      }
    }
    claimed.forEach((a, byRecord) -> {
      if (!byRecord) {
        findings.add(new Finding(Finding.Kind.UNRECORDED_WRITE, null, captured.get(committedBy.get(a)).txn(),
            a.key(), a.element(), "no recorded transaction appended the element"));
      }
    });
    findings.addAll(streamFindings);
    List<Transaction> confirmed = new ArrayList<>();
    for (int i = 0; i < captured.size(); i++) {
      confirmed.addAll(confirmedAt.getOrDefault(i, List.of()));
    }
    return new CrossCheckReport(confirmed, findings, versionOrder);
  }

  /** @return the elements the change appends, or null (with a finding) when they cannot be derived */
  private static List<Long> appended(RowChange row, List<Finding> findings) {
    JsonNode after = row.after();
    String key = after.path("k").asText(null);
    try {
      List<Long> now = ListValues.parse(after.path("v").asText(""));
      if (row.op().equals("r")) {
        return List.of(); // a snapshot read is the starting state, not a commit
      }
      if (row.op().equals("c")) {
        return now;
      }
      if (row.before() == null || !row.before().has("v")) {
        findings.add(new Finding(Finding.Kind.UNREADABLE_ROW, null, row.txn(), key, null,
            "update without a before image; set REPLICA IDENTITY FULL (PostgreSQL) or binlog_row_image=FULL"));
        return null;
      }
      List<Long> before = ListValues.parse(row.before().path("v").asText(""));
      if (now.size() < before.size() || !now.subList(0, before.size()).equals(before)) {
        findings.add(new Finding(Finding.Kind.UNREADABLE_ROW, null, row.txn(), key, null,
            "after image " + now + " does not extend before image " + before));
        return null;
      }
      return now.subList(before.size(), now.size());
    } catch (NumberFormatException e) {
      findings.add(new Finding(Finding.Kind.UNREADABLE_ROW, null, row.txn(), key, null,
          "v is not the probe's list text: " + e.getMessage()));
      return null;
    }
  }
}
