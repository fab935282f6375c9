package io.isowatch.connectors.debezium.cdc;

import io.isowatch.schemas.Source;
import io.isowatch.schemas.debezium.RowChange;
import java.util.List;

/**
 * One database transaction as the change stream shows it: its row changes grouped by database
 * transaction id ({@link RowChange#txn}).
 *
 * @param txn the database transaction id: PostgreSQL xid or MySQL-family GTID
 * @param changes its row changes in stream order
 * @param complete true if its {@code END} record arrived and as many changes as that record counts
 *     were seen; false for a transaction still pending when the stream was read (missing changes or
 *     no {@code END})
 */
public record CapturedTransaction(String txn, List<RowChange> changes, boolean complete) {
  /** Copies the list. */
  public CapturedTransaction {
    changes = List.copyOf(changes);
  }

  /**
   * @return the transaction's identifiers for an isowatch record: {@code dbTxnId} = {@link #txn},
   *     {@code lsn} = the last change's PostgreSQL LSN (null for other databases), {@code gtid} = the
   *     GTID (null for PostgreSQL)
   */
  public Source source() {
    RowChange last = changes.isEmpty() ? null : changes.get(changes.size() - 1);
    return new Source(txn, last == null ? null : last.lsn(), last == null ? null : last.gtid());
  }
}
