/**
 * The probe workload: a canary that runs list-append or rw-register transactions against a real
 * database through JDBC, one connection per session, at a chosen isolation level, and records what
 * each client saw as {@link io.isowatch.schemas.Transaction} records ({@link
 * io.isowatch.connectors.probe.Probe}). Records go to any {@link
 * io.isowatch.connectors.recorder.TransactionSink}: a checker history ({@link
 * io.isowatch.connectors.probe.HistoryCollector}) or Kafka. A {@link
 * io.isowatch.connectors.probe.Dialect} holds the SQL of one database; PostgreSQL and MariaDB come
 * with it. {@code docs/connectors.md} describes the probe for users.
 */
package io.isowatch.connectors.probe;
