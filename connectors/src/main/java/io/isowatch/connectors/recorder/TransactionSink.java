package io.isowatch.connectors.recorder;

import io.isowatch.schemas.Transaction;

/**
 * Where a {@link TransactionRecorder} delivers each ended transaction.
 *
 * <p>Called from the application's threads, one call per ended transaction, in each session's order
 * ({@code txnSeq} 0, 1, 2, ...); calls for different sessions may come concurrently, so
 * implementations must be thread-safe.
 */
@FunctionalInterface
public interface TransactionSink {
  /**
   * Takes one transaction. The record is not used by the recorder afterwards.
   *
   * @param txn a committed or aborted transaction
   * @throws RuntimeException if the sink cannot take it; the recorder passes the exception to the
   *     application's {@code commit()} or {@code abort()} call
   */
  void accept(Transaction txn);
}
