package io.isowatch.connectors.recorder;

import io.isowatch.schemas.Transaction;
import java.util.ArrayList;
import java.util.List;

/** An in-memory, thread-safe sink for tests: keeps every transaction in delivery order. */
final class CollectingSink implements TransactionSink {
  private final List<Transaction> received = new ArrayList<>();

  @Override
  public synchronized void accept(Transaction txn) {
    received.add(txn);
  }

  /** @return a copy of what was delivered so far, in delivery order */
  synchronized List<Transaction> received() {
    return List.copyOf(received);
  }
}
