package io.isowatch.cli;

import io.isowatch.connectors.debezium.engine.ChangeStream;
import io.isowatch.connectors.debezium.outbox.OutboxRelay;
import io.isowatch.connectors.debezium.outbox.OutboxSink;
import io.isowatch.connectors.kafka.KafkaTransactionSink;
import io.isowatch.schemas.debezium.Envelope;
import io.isowatch.schemas.debezium.EnvelopeException;
import io.isowatch.schemas.debezium.JsonEnvelopes;
import io.isowatch.schemas.debezium.RowChange;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code isowatch capture --outbox}'s handler of the change stream: {@link OutboxRelay} to a {@link
 * KafkaTransactionSink} on the events topic, counting what it publishes and rejects, and with
 * {@code --prune-after} deleting published outbox rows by id.
 *
 * <p>A row is deleted only after the batch it came in was flushed, i.e. after the broker
 * acknowledged every record of the batch ({@link KafkaTransactionSink#flush}), and before the
 * batch's offsets are stored ({@link ChangeStream}); a row the relay rejected is never deleted (it
 * stays for a person to look at). A crash between the flush and the delete stores no offset, so the
 * restarted capture hands the batch again, publishes it again (the monitor drops the duplicates) and
 * deletes it then. A failed delete is reported on standard error and retried at the end of the next
 * batch; it never stops the capture, but a capture stopped before that retry leaves those rows in
 * the table (published, so safe to delete by hand).
 */
final class OutboxPublisher implements CapturePublisher {
  private static final String DELETE_SQL = "DELETE FROM " + OutboxSink.TABLE + " WHERE id = ANY (?)";

  private final OutboxRelay relay;
  private final KafkaTransactionSink sink;
  private final PrintWriter err;
  private final String pruneUrl;
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong pruned = new AtomicLong();
  private final List<Long> publishedIds = new ArrayList<>();
  private final List<Long> acknowledgedIds = new ArrayList<>();
  private Connection pruning;

  /**
   * @param sink the events topic's sink; flushed at the end of every batch
   * @param err where rejected rows and failed deletes are reported, one line each
   * @param pruneUrl the database's JDBC URL (credentials inside) to delete published rows with, or
   *     null not to prune
   */
  OutboxPublisher(KafkaTransactionSink sink, PrintWriter err, String pruneUrl) {
    this.err = err;
    this.pruneUrl = pruneUrl;
    this.relay = new OutboxRelay(txn -> {
      sink.accept(txn);
      published.incrementAndGet();
    }, (reason, value) -> {
      rejected.incrementAndGet();
      err.println("capture: outbox row rejected (not published, not pruned): " + reason);
      err.flush();
    });
    this.sink = sink; // flushed here: the relay flushes only a Flushable sink, and its counting lambda is not
  }

  @Override
  public void handle(String destination, String key, String value) {
    long before = published.get();
    relay.handle(destination, key, value);
    if (pruneUrl != null && published.get() > before) {
      outboxId(value).ifPresent(publishedIds::add);
    }
  }

  /**
   * Flushes the sink (the batch's records are then acknowledged), then deletes the batch's published
   * rows when pruning.
   *
   * @throws IllegalStateException if a record of the batch was not acknowledged ({@link
   *     KafkaTransactionSink#flush}): the engine stops and stores no offset for the batch
   */
  @Override
  public void endBatch() {
    sink.flush();
    if (pruneUrl == null) {
      return;
    }
    acknowledgedIds.addAll(publishedIds);
    publishedIds.clear();
    if (acknowledgedIds.isEmpty()) {
      return;
    }
    try {
      if (pruning == null || pruning.isClosed()) {
        pruning = DriverManager.getConnection(pruneUrl);
      }
      try (PreparedStatement delete = pruning.prepareStatement(DELETE_SQL)) {
        delete.setArray(1, pruning.createArrayOf("bigint", acknowledgedIds.toArray()));
        pruned.addAndGet(delete.executeUpdate());
      }
      acknowledgedIds.clear();
    } catch (SQLException e) {
      err.println("capture: cannot prune " + acknowledgedIds.size() + " published outbox rows (retried after"
          + " the next batch): " + e.getMessage());
      err.flush();
      close();
    }
  }

  /** @return records published (handed to the sink; acknowledged once the batch ends) */
  long published() {
    return published.get();
  }

  /** @return outbox rows rejected */
  long rejected() {
    return rejected.get();
  }

  /** @return outbox rows deleted */
  long pruned() {
    return pruned.get();
  }

  @Override
  public String counts() {
    return published() + " published, " + rejected() + " rejected, " + pruned() + " pruned";
  }

  /** Closes the pruning connection, if any. */
  @Override
  public void close() {
    if (pruning != null) {
      try {
        pruning.close();
      } catch (SQLException e) {
        // nothing is left to do with a connection that fails to close
      }
      pruning = null;
    }
  }

  /** @return the {@code id} of the inserted outbox row {@code value} describes, if it is one */
  private static Optional<Long> outboxId(String value) {
    try {
      Optional<Envelope> e = JsonEnvelopes.parse(value);
      if (e.isPresent() && e.get() instanceof RowChange row && row.after() != null && row.after().has("id")) {
        return Optional.of(row.after().get("id").asLong());
      }
    } catch (EnvelopeException ignored) {
      // the relay rejected it already, and a rejected row publishes nothing
    }
    return Optional.empty();
  }
}
