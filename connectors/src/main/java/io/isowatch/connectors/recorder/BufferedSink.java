package io.isowatch.connectors.recorder;

import io.isowatch.connectors.recorder.PublishMetrics.DropReason;
import io.isowatch.schemas.Transaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A bounded buffer between the application's threads and a sink that may be slow or away (a Kafka
 * producer whose broker is unreachable): {@link #accept} waits at most the configured {@code
 * maxBlock} for room and never calls the downstream sink itself; one background thread (a daemon
 * named {@code isowatch-recorder-publisher}) hands the records to the downstream sink in the order
 * they were accepted, so each session's order is kept.
 *
 * <p>Bounds: the application's {@code commit()} or {@code abort()} call spends at most {@code
 * maxBlock} here (plus the queue's lock); the buffer holds at most {@code capacity} records (heap
 * bounded by capacity times the largest record; the downstream sink bounds its own buffers, e.g.
 * the producer's {@code buffer.memory}). Nothing is lost silently: a record that finds no room in
 * time, that the downstream sink throws for, or that is still waiting when {@link #close} times out
 * is counted in {@link PublishMetrics#DROPPED} with its reason and logged. {@link #accept} never
 * throws for such a drop: the application's transaction already happened in the database.
 *
 * <p>Thread-safe. Owns the downstream sink: {@link #close} closes it if it is {@link AutoCloseable}.
 */
public final class BufferedSink implements TransactionSink, AutoCloseable {
  private final TransactionSink downstream;
  private final BlockingQueue<Transaction> queue;
  private final long maxBlockNanos;
  private final PublishMetrics metrics;
  private final Thread publisher;
  private volatile boolean closed;
  /** Records offered or buffered and not yet handed over or dropped; guarded by {@code this}. */
  private long pending;

  /**
   * Starts the background thread.
   *
   * @param downstream where records go, called from the background thread only (e.g. a {@code
   *     KafkaTransactionSink})
   * @param capacity records the buffer holds, at least 1
   * @param maxBlock how long {@link #accept} waits for room before dropping, zero for not at all
   * @param metrics where drops are counted and the {@link PublishMetrics#BUFFERED} gauge lives (one
   *     buffered sink per meter registry: Micrometer keeps the first gauge of a name)
   * @throws IllegalArgumentException if {@code capacity < 1} or {@code maxBlock} is negative
   */
  public BufferedSink(TransactionSink downstream, int capacity, Duration maxBlock, PublishMetrics metrics) {
    if (capacity < 1) {
      throw new IllegalArgumentException("buffer capacity must be at least 1, got " + capacity);
    }
    if (maxBlock.isNegative()) {
      throw new IllegalArgumentException("maxBlock must not be negative, got " + maxBlock);
    }
    this.downstream = downstream;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.maxBlockNanos = maxBlock.toNanos();
    this.metrics = metrics;
    metrics.gaugeBuffer(queue);
    this.publisher = new Thread(this::publish, "isowatch-recorder-publisher");
    publisher.setDaemon(true);
    publisher.start();
  }

  /**
   * Buffers one record, waiting at most {@code maxBlock} for room; if there is none, or the sink is
   * closed, counts and logs the record as dropped instead.
   */
  @Override
  public void accept(Transaction txn) {
    if (closed) {
      metrics.dropped(txn, DropReason.CLOSED, null);
      return;
    }
    synchronized (this) {
      pending++;
    }
    boolean taken;
    try {
      taken = queue.offer(txn, maxBlockNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      taken = false;
    }
    if (!taken) {
      metrics.dropped(txn, DropReason.BUFFER_FULL, null);
      settled();
    }
  }

  /** @return records waiting in the buffer now */
  public int buffered() {
    return queue.size();
  }

  /**
   * Stops taking records, waits up to {@code timeout} for the buffered ones to be handed over,
   * then stops the background thread (interrupting a hand-over still in progress), counts what is
   * left as dropped ({@link DropReason#CLOSED}), and closes the downstream sink. If the calling
   * thread is interrupted, it stops waiting (and keeps its interrupt status).
   *
   * @param timeout how long to wait for the buffer to empty
   * @throws RuntimeException whatever closing the downstream sink threw (a checked exception
   *     wrapped in an {@link IllegalStateException})
   */
  public void close(Duration timeout) {
    closed = true;
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean interrupted = false;
    try {
      synchronized (this) {
        while (pending > 0 && System.nanoTime() < deadline) {
          wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
      }
    } catch (InterruptedException e) {
      interrupted = true;
    }
    publisher.interrupt();
    while (publisher.isAlive()) {
      try {
        publisher.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    List<Transaction> left = new ArrayList<>();
    queue.drainTo(left);
    for (Transaction txn : left) {
      metrics.dropped(txn, DropReason.CLOSED, null);
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (downstream instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException("closing " + downstream + " failed: " + e.getMessage(), e);
      }
    }
  }

  /** {@link #close(Duration)} with a 30 s timeout. */
  @Override
  public void close() {
    close(Duration.ofSeconds(30));
  }

  private synchronized void settled() {
    pending--;
    notifyAll();
  }

  private void publish() {
    while (true) {
      Transaction txn;
      try {
        txn = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      try {
        downstream.accept(txn);
      } catch (RuntimeException e) {
        metrics.dropped(txn, Thread.currentThread().isInterrupted() ? DropReason.CLOSED : DropReason.PUBLISH_FAILED, e);
      } finally {
        settled();
      }
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
    }
  }
}
