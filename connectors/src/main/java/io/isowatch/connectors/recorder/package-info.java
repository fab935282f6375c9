/**
 * The application recorder: an API an application calls around its own transactions to report
 * what it read and wrote, producing one {@link io.isowatch.schemas.Transaction} record per ended
 * transaction to a pluggable {@link io.isowatch.connectors.recorder.TransactionSink}.
 *
 * <p>Usage: {@code recorder.begin("conn-7")} returns the session's handle, on which the application
 * calls {@code read}, {@code write}, then {@code commit()}, {@code abort()} or {@code unknown()}
 * once the database has answered. Sessions are independent and may run on different threads at
 * once. Keys and values are recorded through a {@link io.isowatch.connectors.privacy.Privacy}
 * (keyed hashes, or plaintext when so configured).
 *
 * <p>Publishing without holding the application: a {@link
 * io.isowatch.connectors.recorder.BufferedSink} (bounded buffer, bounded wait, one background
 * thread) in front of a {@link io.isowatch.connectors.kafka.KafkaTransactionSink}, with every
 * record's fate counted in {@link io.isowatch.connectors.recorder.PublishMetrics}. The JDBC
 * interceptor ({@link io.isowatch.connectors.jdbc}) drives a recorder from the application's SQL.
 */
package io.isowatch.connectors.recorder;
