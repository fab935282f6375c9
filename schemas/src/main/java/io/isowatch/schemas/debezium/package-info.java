/**
 * Debezium's standard change-event envelope and transaction-metadata records, decoded into {@link
 * io.isowatch.schemas.debezium.RowChange} and {@link
 * io.isowatch.schemas.debezium.TxBoundary}, each naming its database transaction (xid or
 * GTID) rather than Debezium's {@code transaction.id} string; and the two tables isowatch reads
 * through them: the recorder's outbox ({@link io.isowatch.schemas.debezium.OutboxRows}) and a
 * list-append table ({@link io.isowatch.schemas.debezium.ListAppendRows}, lists as {@link
 * io.isowatch.schemas.debezium.ListValues} text).
 */
package io.isowatch.schemas.debezium;
