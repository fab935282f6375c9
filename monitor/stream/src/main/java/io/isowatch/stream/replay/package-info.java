/**
 * Histories into the events topic: {@link io.isowatch.stream.replay.HistoryRecords} turns a
 * checker {@code History} into {@code TxnEvent} or {@code Transaction} records, and {@link
 * io.isowatch.stream.replay.Replayer} publishes them with an idempotent producer.
 */
package io.isowatch.stream.replay;
