/**
 * The Kafka Connect side of the transactional outbox: {@link
 * io.isowatch.connect.outbox.OutboxTransactionRouter}, a Single Message Transform for the Debezium
 * PostgreSQL connector that publishes the records the connectors module's {@code OutboxSink}
 * writes into {@code isowatch_outbox} as {@code Transaction} records on the monitor's events topic.
 * Packaged as a Connect plugin ({@code deploy/connect/isowatch-connect-plugin.zip}); see
 * docs/connectors.md, "In Kafka Connect".
 */
package io.isowatch.connect.outbox;
