/**
 * Publishing isowatch records to Kafka: {@link io.isowatch.connectors.kafka.KafkaTransactionSink},
 * a {@link io.isowatch.connectors.recorder.TransactionSink} over an idempotent producer.
 */
package io.isowatch.connectors.kafka;
