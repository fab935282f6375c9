/**
 * The topic adapter: Debezium change events already in Kafka (from Kafka Connect or Debezium
 * Server, any supported connector) read into the same grouping and cross-checks as the embedded
 * engine ({@link io.isowatch.connectors.debezium.adapter.TopicAdapter}).
 */
package io.isowatch.connectors.debezium.adapter;
