package io.isowatch.connectors.debezium.cdc;

import io.isowatch.schemas.Transaction;
import java.util.List;
import java.util.Map;

/**
 * What {@link CommitCrossCheck} found.
 *
 * @param confirmed the recorded transactions whose every append the change stream shows in one
 *     database transaction, in the database's commit order, each with {@code source} set to that
 *     database transaction (xid, LSN, GTID) and with status COMMITTED (an UNKNOWN outcome the stream
 *     resolves becomes COMMITTED)
 * @param findings every disagreement, in the order of the recorded transactions and then of the
 *     stream; empty when the two agree
 * @param versionOrder for each key of the list table, the elements appended to it in the order the
 *     database committed them (the version order, from the row images)
 */
public record CrossCheckReport(
    List<Transaction> confirmed, List<Finding> findings, Map<String, List<Long>> versionOrder) {
  /** Copies the collections. */
  public CrossCheckReport {
    confirmed = List.copyOf(confirmed);
    findings = List.copyOf(findings);
    versionOrder = Map.copyOf(versionOrder);
  }

  /** @return the findings of one kind, in order */
  public List<Finding> findings(Finding.Kind kind) {
    return findings.stream().filter(f -> f.kind() == kind).toList();
  }
}
