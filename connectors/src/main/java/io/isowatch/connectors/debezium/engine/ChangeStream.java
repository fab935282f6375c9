package io.isowatch.connectors.debezium.engine;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An embedded Debezium engine (Debezium "Debezium Engine" documentation) reading one {@link
 * CaptureConfig} and handing each change event, as Debezium's standard JSON envelope, to a {@link
 * Handler} on the engine's thread, one at a time, in the order the connector emits them: for
 * PostgreSQL with {@code pgoutput}, transaction by transaction in commit order, each framed by the
 * {@code BEGIN} and {@code END} records of the transaction-metadata topic.
 *
 * <p>A batch's events are marked processed only after the handler has handled all of them and
 * returned from {@link Handler#endBatch}, and offsets are flushed after every batch, so a stop and
 * restart resumes after the last batch handled (or, for a handler holding a part of a
 * transaction, after the last boundary it reported, {@link Handler#atBoundary}): nothing is
 * skipped, and only a crash between handling and flushing can hand the events of that batch again. A handler
 * that throws stops the engine; the exception, like any engine failure, is kept and thrown by
 * {@link #close}.
 */
public final class ChangeStream implements AutoCloseable {
  /** Receives change events. */
  @FunctionalInterface
  public interface Handler {
    /**
     * @param destination the topic Debezium would write to: {@code <name>.<schema>.<table>} for row
     *     changes, {@code <name>.transaction} for transaction metadata
     * @param key the event key as JSON, null for transaction metadata of some connectors
     * @param value the envelope as JSON; null for a tombstone
     * @throws Exception to stop the stream
     */
    void handle(String destination, String key, String value) throws Exception;

    /**
     * Called after the last event of a batch was handled and before the batch's offsets are
     * stored: a handler that hands events on asynchronously waits here until they are delivered,
     * so that a stored offset never covers an event that could still be lost.
     *
     * @throws Exception to stop the stream; the batch's offsets are then not stored and a restart
     *     hands the batch again
     */
    default void endBatch() throws Exception {}

    /**
     * Whether a stored offset may cover every event handled so far: false while the handler holds
     * part of something it has not handed on (a database transaction whose other changes have not
     * arrived). Asked after each event; at the end of a batch only the events up to the last one
     * after which this was true are marked processed, so that a restart resumes at that boundary and
     * hands the held events again.
     *
     * @return true by default: every event stands alone
     */
    default boolean atBoundary() {
      return true;
    }
  }

  private final DebeziumEngine<ChangeEvent<String, String>> engine;
  private final ExecutorService thread;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  private ChangeStream(CaptureConfig config, Handler handler) {
    this.engine = DebeziumEngine.create(Json.class)
        .using(config.engineProperties())
        .using((success, message, error) -> {
          if (!success) {
            failure.compareAndSet(null, error != null ? error
                : new IllegalStateException("capture " + config.name() + " stopped: " + message));
          }
        })
        .notifying((List<ChangeEvent<String, String>> batch,
            DebeziumEngine.RecordCommitter<ChangeEvent<String, String>> committer) -> {
          String at = "the end of a batch";
          int boundary = 0; // events before this index may be marked processed
          try {
            for (int i = 0; i < batch.size(); i++) {
              ChangeEvent<String, String> e = batch.get(i);
              at = "an event for " + e.destination();
              handler.handle(e.destination(), e.key(), e.value());
              if (handler.atBoundary()) {
                boundary = i + 1;
              }
            }
            at = "the end of a batch";
            handler.endBatch();
          } catch (InterruptedException ie) {
            throw ie;
          } catch (Exception ex) {
            failure.compareAndSet(null, ex);
            throw new IllegalStateException("capture " + config.name() + ": handler failed on " + at + ": "
                + ex.getMessage(), ex);
          }
          for (ChangeEvent<String, String> e : batch.subList(0, boundary)) {
            committer.markProcessed(e);
          }
          committer.markBatchFinished();
        })
        .build();
    this.thread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "isowatch-capture-" + config.name());
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Starts capturing in a background thread. Returns at once; the slot is created (if new) and
   * streaming begins shortly after ({@link CaptureConfig#slotActive} tells when).
   *
   * @return the running stream; close it to stop
   */
  public static ChangeStream start(CaptureConfig config, Handler handler) {
    ChangeStream s = new ChangeStream(config, handler);
    s.thread.execute(s.engine);
    return s;
  }

  /** @return the first failure of the engine or the handler so far, or null */
  public Throwable failure() {
    return failure.get();
  }

  /**
   * Stops the engine (flushing offsets of the events handled) and waits up to 60 s for it.
   *
   * @throws IllegalStateException if the engine or the handler failed, or the engine does not stop
   */
  @Override
  public void close() {
    try {
      engine.close();
      thread.shutdown();
      if (!thread.awaitTermination(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("Debezium engine did not stop within 60 s");
      }
    } catch (IOException e) {
      failure.compareAndSet(null, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure.compareAndSet(null, e);
    }
    Throwable f = failure.get();
    if (f != null) {
      throw new IllegalStateException("capture failed: " + f.getMessage(), f);
    }
  }
}
