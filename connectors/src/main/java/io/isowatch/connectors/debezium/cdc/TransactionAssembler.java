package io.isowatch.connectors.debezium.cdc;

import io.isowatch.schemas.debezium.Envelope;
import io.isowatch.schemas.debezium.RowChange;
import io.isowatch.schemas.debezium.TxBoundary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Groups a change stream's row changes into database transactions by database transaction id
 * ({@code source.txId} or GTID, {@link RowChange#txn}), and emits each transaction once it is
 * whole: its transaction-metadata {@code END} has arrived and as many row changes as {@code END}'s
 * {@code event_count} (Debezium connector documentation, "Transaction metadata";
 * {@code provide.transaction.metadata=true}).
 *
 * <p>Row changes and {@code END} may arrive in either order (in Kafka they come from different
 * topics), so the assembler counts both ways. A transaction is emitted in the order its last piece
 * arrives; from one embedded engine or one partition that is commit order. Not thread-safe: feed it
 * from one thread. Memory: the row changes of transactions not yet whole.
 */
public final class TransactionAssembler {
  private static final class Pending {
    final List<RowChange> changes = new ArrayList<>();
    long expected = -1;
  }

  private final Consumer<CapturedTransaction> out;
  private final Map<String, Pending> pending = new LinkedHashMap<>();

  /** @param out receives each whole transaction */
  public TransactionAssembler(Consumer<CapturedTransaction> out) {
    this.out = out;
  }

  /** Takes one decoded change event; {@code BEGIN} records are not needed and ignored. */
  public void accept(Envelope e) {
    if (e instanceof RowChange row) {
      Pending p = pending.computeIfAbsent(row.txn(), k -> new Pending());
      p.changes.add(row);
      emitIfWhole(row.txn(), p);
    } else if (e instanceof TxBoundary b && b.end()) {
      Pending p = pending.computeIfAbsent(b.txn(), k -> new Pending());
      p.expected = b.eventCount();
      emitIfWhole(b.txn(), p);
    }
  }

  /**
   * @return the transactions not yet whole, in order of first arrival, each with {@code complete =
   *     false}: at the end of a finite read these are the ones with changes missing
   */
  public List<CapturedTransaction> pending() {
    List<CapturedTransaction> list = new ArrayList<>();
    pending.forEach((txn, p) -> list.add(new CapturedTransaction(txn, p.changes, false)));
    return list;
  }

  /** @return whether some transaction has started arriving and is not yet whole */
  public boolean hasPending() {
    return !pending.isEmpty();
  }

  private void emitIfWhole(String txn, Pending p) {
    if (p.expected >= 0 && p.changes.size() >= p.expected) {
      pending.remove(txn);
      out.accept(new CapturedTransaction(txn, p.changes, true));
    }
  }
}
