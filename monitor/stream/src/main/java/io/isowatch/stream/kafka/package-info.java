/**
 * Kafka plumbing of the monitor that is not the topology: {@link
 * io.isowatch.stream.kafka.EmbeddedKafka}, an in-process single-node KRaft cluster for the demo and
 * the integration tests, {@link io.isowatch.stream.kafka.Topics}, which checks and creates the
 * monitor's topics through the Admin API, and {@link io.isowatch.stream.kafka.Brokers}, which asks
 * with a short bound whether a cluster answers at all.
 */
package io.isowatch.stream.kafka;
