package io.isowatch.schemas.debezium;

/**
 * A record of Debezium's transaction-metadata topic (Debezium connector documentation, "Transaction
 * metadata"): the {@code BEGIN} or {@code END} of a database transaction.
 *
 * @param txn the transaction, in the same form as {@link RowChange#txn}: Debezium's {@code id}
 *     {@code <xid>:<lsn>} for PostgreSQL is cut to its xid; a GTID stays as it is
 * @param end true for {@code END}, false for {@code BEGIN}
 * @param eventCount for {@code END}, how many row changes the transaction has across all its
 *     tables ({@code event_count}); 0 for {@code BEGIN}
 */
public record TxBoundary(String txn, boolean end, long eventCount) implements Envelope {}
