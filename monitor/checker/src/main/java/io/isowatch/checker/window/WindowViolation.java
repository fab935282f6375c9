package io.isowatch.checker.window;

import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.finding.Finding;

/**
 * A violation found by the {@link WindowChecker}: the history-free {@link Finding} and what the
 * window adds to it.
 *
 * @param id stable identity: a hex SHA-256 prefix (32 characters) of the anomaly, the sorted txnIds
 *     of the witness's transactions and, for an anomaly without a cycle, its first evidence operation
 *     ({@code txnId#index}); the same anomaly re-found (in another generation, after a restart) has
 *     the same id ({@link ViolationIds})
 * @param check the check that found it ({@code null} for an unresolved read, which the window
 *     itself reports)
 * @param finding the violation; its transactions are named by their txnIds and show their operations
 *     as they arrived ({@link WindowTxn#finding()})
 * @param windowStart the earliest event time of the transactions of the generation it was found in, µs
 * @param windowEnd the latest one, µs
 * @param windowTxns transactions in that generation
 * @param closingTime event time of the transaction whose arrival completed it (or of the stream
 *     time that expired a grace period), µs
 * @param lastSeq the latest feed position among its transactions; its id is forgotten once every
 *     generation starts after it
 */
public record WindowViolation(
    String id,
    LevelPlan.Check check,
    Finding finding,
    long windowStart,
    long windowEnd,
    long windowTxns,
    long closingTime,
    long lastSeq) {}
