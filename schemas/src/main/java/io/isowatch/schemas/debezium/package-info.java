/**
 * Debezium's standard change-event envelope and transaction-metadata records, decoded into {@link
 * io.isowatch.schemas.debezium.RowChange} and {@link
 * io.isowatch.schemas.debezium.TxBoundary}, each naming its database transaction (xid or
 * GTID) rather than Debezium's {@code transaction.id} string.
 */
package io.isowatch.schemas.debezium;
