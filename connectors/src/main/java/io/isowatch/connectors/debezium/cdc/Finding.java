package io.isowatch.connectors.debezium.cdc;

/**
 * One disagreement between what the clients recorded and what the database's change stream shows.
 *
 * @param kind what disagrees
 * @param txnId the recorded transaction's {@code txnId}, or null when no recorded transaction is
 *     involved
 * @param dbTxn the database transaction (xid or GTID), or null when the stream has none
 * @param key the key, or null for a finding about a whole transaction
 * @param element the appended element, or null for a finding about a whole transaction or row
 * @param detail one sentence for people, e.g. the row's text that could not be read
 */
public record Finding(Kind kind, String txnId, String dbTxn, String key, Long element, String detail) {
  /** The kinds of finding. */
  public enum Kind {
    /** The client saw the commit, but the element never appears in the change stream: a lost commit. */
    LOST_COMMIT,
    /** The client saw the transaction abort, but the database committed its append. */
    ABORTED_BUT_COMMITTED,
    /** The stream shows an appended element that no recorded transaction appended. */
    UNRECORDED_WRITE,
    /** One recorded transaction's appends were committed by more than one database transaction. */
    SPLIT_TRANSACTION,
    /** A captured transaction whose END or some of whose row changes never arrived. */
    INCOMPLETE_TRANSACTION,
    /**
     * A row change whose appended elements cannot be derived: no before image (PostgreSQL needs
     * {@code REPLICA IDENTITY FULL}; MySQL-family {@code binlog_row_image=FULL}), or a value that is
     * not the probe's list text, or an after image that does not extend the before image.
     */
    UNREADABLE_ROW
  }
}
