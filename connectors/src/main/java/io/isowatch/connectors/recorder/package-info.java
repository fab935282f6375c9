/**
 * The application recorder: an API an application calls around its own transactions to report
 * what it read and wrote, producing one {@link io.isowatch.schemas.Transaction} record per ended
 * transaction to a pluggable {@link io.isowatch.connectors.recorder.TransactionSink}.
 *
 * <p>Usage: {@code recorder.begin("conn-7")} returns the session's handle, on which the application
 * calls {@code read}, {@code write}, then {@code commit()} or {@code abort()} once the database has
 * answered. Sessions are independent and may run on different threads at once. A Kafka sink
 * (asynchronous, bounded, idempotent producer), keyed hashing of keys and values, and the JDBC
 * interceptor come later (issue 6).
 */
package io.isowatch.connectors.recorder;
