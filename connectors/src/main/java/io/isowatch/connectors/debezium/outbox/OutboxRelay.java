package io.isowatch.connectors.debezium.outbox;

import io.isowatch.connectors.debezium.engine.ChangeStream;
import io.isowatch.connectors.debezium.envelope.Rejects;
import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.debezium.OutboxRows;
import java.io.Flushable;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbox's reading side: a {@link ChangeStream.Handler} that turns each row inserted into
 * {@value OutboxSink#TABLE} (as captured by Debezium from PostgreSQL's log) back into its {@link
 * Transaction} and delivers it to a {@link TransactionSink}, for example a {@link
 * io.isowatch.connectors.kafka.KafkaTransactionSink} on the events topic.
 *
 * <p>Delivery follows the log: committed transactions only, in commit order, each once (a crash of
 * the relay between delivery and offset flush may deliver the last batch again; see {@link
 * ChangeStream}). A {@link Flushable} sink is flushed at the end of each batch, before its offsets
 * are stored, so an asynchronous sink cannot lose a record whose offset was stored. Rows are read by
 * {@link OutboxRows} (shared with the monitor's Debezium input): each delivered record gets {@code
 * source} = the database's xid and the change's LSN; deletes and updates of outbox rows (pruning),
 * snapshot reads and transaction metadata are skipped. A row whose
 * record cannot be read is never dropped silently: it goes to the {@link Rejects} callback, is
 * counted ({@link #rejected()}) and logged.
 */
public final class OutboxRelay implements ChangeStream.Handler {
  private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);

  private final TransactionSink sink;
  private final Rejects rejects;
  private final AtomicLong rejected = new AtomicLong();

  /**
   * @param sink receives each committed transaction's record, on the capture's thread
   * @param rejects receives unreadable rows
   */
  public OutboxRelay(TransactionSink sink, Rejects rejects) {
    this.sink = sink;
    this.rejects = rejects;
  }

  @Override
  public void handle(String destination, String key, String value) {
    OutboxRows.Row row = OutboxRows.read(value);
    if (row instanceof OutboxRows.Bad bad) {
      reject(bad.reasonClass() + ": " + bad.detail(), value);
    } else if (row instanceof OutboxRows.Published published) {
      sink.accept(published.transaction());
    }
  }

  /**
   * Flushes the sink when it is {@link Flushable} (as {@link
   * io.isowatch.connectors.kafka.KafkaTransactionSink} is), so that the batch's offsets are stored
   * only once its records are acknowledged.
   *
   * @throws IOException if the flush fails; the engine stops and a restart hands the batch again
   */
  @Override
  public void endBatch() throws IOException {
    if (sink instanceof Flushable f) {
      f.flush();
    }
  }

  /** @return how many rows were rejected so far */
  public long rejected() {
    return rejected.get();
  }

  private void reject(String reason, String value) {
    rejected.incrementAndGet();
    LOG.warn("outbox row rejected: {}", reason);
    rejects.reject(reason, value);
  }
}
