/**
 * Outbox mode: the recorder writes each transaction's record into the monitored PostgreSQL
 * database, inside that transaction ({@link io.isowatch.connectors.debezium.outbox.OutboxSink}), and
 * an embedded Debezium engine reads the committed rows back from the log and publishes them ({@link
 * io.isowatch.connectors.debezium.outbox.OutboxRelay}). A committed transaction's record is thus
 * never lost, even when the application dies right after its commit.
 */
package io.isowatch.connectors.debezium.outbox;
