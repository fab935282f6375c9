/**
 * The session assembler: the first stage of the monitor's topology. It turns the raw records of the
 * events topic (op-level {@code TxnEvent}s or whole {@code Transaction}s) into whole transactions
 * in program order ({@code po}) and session order ({@code so}), keyed by historyId, and turns every
 * record it cannot use into a {@code DeadLetter} with a precise reason.
 */
package io.isowatch.stream.assembly;
