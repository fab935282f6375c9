/**
 * Debezium's standard change-event envelope and transaction-metadata records, decoded into {@link
 * io.isowatch.connectors.debezium.envelope.RowChange} and {@link
 * io.isowatch.connectors.debezium.envelope.TxBoundary}, each naming its database transaction (xid or
 * GTID) rather than Debezium's {@code transaction.id} string.
 */
package io.isowatch.connectors.debezium.envelope;
