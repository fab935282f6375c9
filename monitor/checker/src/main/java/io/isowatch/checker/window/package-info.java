/**
 * Windowed incremental checking of one history for the streaming monitor: {@link
 * io.isowatch.checker.window.WindowChecker} feeds transactions to overlapping generations of
 * incremental checkers, holds reads whose writer has not arrived, and reports each violation once
 * in a history-free form ({@link io.isowatch.checker.window.WindowViolation}). No Kafka, no Avro.
 */
package io.isowatch.checker.window;
