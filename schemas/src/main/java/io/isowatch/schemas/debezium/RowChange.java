package io.isowatch.schemas.debezium;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One row change from Debezium's standard change-event envelope (Debezium connector documentation,
 * "Change event values": {@code before}, {@code after}, {@code source}, {@code op}).
 *
 * @param connector {@code source.connector}, e.g. {@code postgresql}, {@code mariadb}, {@code mysql}
 * @param txn the database transaction the change belongs to, the grouping key: PostgreSQL's xid
 *     ({@code source.txId}) as decimal text, or the GTID ({@code source.gtid}) for MySQL-family
 *     databases; not Debezium's {@code transaction.id}
 * @param table {@code <schema or database>.<table>}, e.g. {@code public.isowatch_list_append}
 * @param op {@code c} insert, {@code u} update, {@code d} delete, {@code r} snapshot read, {@code t}
 *     truncate
 * @param before the row before the change (an object of column to value), or null when the
 *     envelope has none (inserts; PostgreSQL updates without {@code REPLICA IDENTITY FULL})
 * @param after the row after the change, or null for deletes
 * @param lsn PostgreSQL {@code source.lsn} of the change, or null
 * @param gtid MySQL-family {@code source.gtid}, or null
 * @param timeMicros when the database made the change, microseconds since the epoch (UTC): {@code
 *     source.ts_us}, else {@code source.ts_ms} times 1,000, else null; for PostgreSQL the commit
 *     time of the transaction, the same in every event of it and in every reading of the log
 * @param lastCommitLsn PostgreSQL: the first element of {@code source.sequence}, the LSN of the last
 *     commit the connector had processed before this change (the commit before its transaction's);
 *     with {@link #lsn} it orders the changes as the connector emits them, strictly increasing, the
 *     order Debezium gives it for consumers that drop repeated events (Debezium PostgreSQL connector
 *     documentation, "source" field {@code sequence}); null for other databases or when absent
 */
public record RowChange(
    String connector, String txn, String table, String op, JsonNode before, JsonNode after, Long lsn, String gtid,
    Long timeMicros, Long lastCommitLsn)
    implements Envelope {
  /**
   * A change without {@link #lastCommitLsn}.
   *
   * @see #RowChange(String, String, String, String, JsonNode, JsonNode, Long, String, Long, Long)
   */
  public RowChange(String connector, String txn, String table, String op, JsonNode before, JsonNode after, Long lsn,
      String gtid, Long timeMicros) {
    this(connector, txn, table, op, before, after, lsn, gtid, timeMicros, null);
  }

  /**
   * @return whether this change comes after {@code earlier} in the connector's order, by ({@link
   *     #lastCommitLsn}, {@link #lsn}); false if either lacks them
   */
  public boolean after(RowChange earlier) {
    return earlier.lastCommitLsn != null && earlier.lsn != null && after(earlier.lastCommitLsn, earlier.lsn);
  }

  /**
   * @param earlierLastCommitLsn the {@link #lastCommitLsn} of a place in the connector's order
   * @param earlierLsn its {@link #lsn}
   * @return whether this change comes after that place; false if this change lacks its own
   */
  public boolean after(long earlierLastCommitLsn, long earlierLsn) {
    if (lastCommitLsn == null || lsn == null) {
      return false;
    }
    int c = Long.compareUnsigned(lastCommitLsn, earlierLastCommitLsn);
    return c > 0 || c == 0 && Long.compareUnsigned(lsn, earlierLsn) > 0;
  }
}
