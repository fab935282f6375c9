package io.isowatch.connectors.debezium.outbox;

import io.isowatch.connectors.debezium.engine.ChangeStream;
import io.isowatch.connectors.debezium.envelope.Envelope;
import io.isowatch.connectors.debezium.envelope.EnvelopeException;
import io.isowatch.connectors.debezium.envelope.JsonEnvelopes;
import io.isowatch.connectors.debezium.envelope.Rejects;
import io.isowatch.connectors.debezium.envelope.RowChange;
import io.isowatch.connectors.recorder.TransactionSink;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.serde.RecordCodec;
import java.io.Flushable;
import java.io.IOException;
import java.util.Base64;
import java.util.Optional;
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
 * are stored, so an asynchronous sink cannot lose a record whose offset was stored. Each delivered record gets {@code source} = the database's xid and the change's LSN.
 * Deletes and updates of outbox rows (pruning) and transaction metadata are ignored. A row whose
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
    Optional<Envelope> parsed;
    try {
      parsed = JsonEnvelopes.parse(value);
    } catch (EnvelopeException e) {
      reject("bad-envelope: " + e.getMessage(), value);
      return;
    }
    if (parsed.isEmpty() || !(parsed.get() instanceof RowChange row) || !"c".equals(row.op())
        || !row.table().endsWith("." + OutboxSink.TABLE)) {
      return;
    }
    if (row.after() == null || !row.after().hasNonNull("record")) {
      reject("bad-row: outbox insert without a record column", value);
      return;
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(row.after().get("record").asText());
    } catch (IllegalArgumentException e) {
      reject("bad-row: record is not base64: " + e.getMessage(), value);
      return;
    }
    RecordCodec.Decoded d = RecordCodec.decode(bytes);
    if (d.error() != null) {
      reject(d.reasonClass() + ": " + d.error(), value);
      return;
    }
    if (!(d.record() instanceof Transaction txn)) {
      reject("bad-row: record is a " + d.record().getSchema().getName() + ", not a Transaction", value);
      return;
    }
    txn.setSource(new Source(row.txn(), row.lsn(), null));
    sink.accept(txn);
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
