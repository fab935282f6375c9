/**
 * Histories into the events topic: {@link io.isowatch.stream.replay.HistoryRecords} turns a
 * checker {@code History} into {@code TxnEvent} or {@code Transaction} records, {@link
 * io.isowatch.stream.replay.Replayer} publishes them with an idempotent producer, and {@link
 * io.isowatch.stream.replay.WriteSkewWorkload} (temporary, until the engine simulator lands)
 * generates snapshot-isolation runs with injected write skew.
 */
package io.isowatch.stream.replay;
