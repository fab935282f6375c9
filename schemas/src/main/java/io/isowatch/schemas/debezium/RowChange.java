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
 */
public record RowChange(
    String connector, String txn, String table, String op, JsonNode before, JsonNode after, Long lsn, String gtid,
    Long timeMicros)
    implements Envelope {}
