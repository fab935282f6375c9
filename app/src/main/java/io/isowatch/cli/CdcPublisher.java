package io.isowatch.cli;

import io.isowatch.connectors.debezium.cdc.CapturedTransaction;
import io.isowatch.connectors.debezium.cdc.ChangeAssembly;
import io.isowatch.connectors.debezium.cdc.KeysSeen;
import io.isowatch.connectors.debezium.cdc.TransactionAssembler;
import io.isowatch.connectors.debezium.engine.ChangeStream;
import io.isowatch.connectors.kafka.KafkaTransactionSink;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.debezium.ListAppendRows;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * {@code isowatch capture --cdc}'s handler of the change stream: Debezium's events of the
 * list-append table, grouped into database transactions ({@link ChangeAssembly}, {@link
 * TransactionAssembler}), converted by {@link ListAppendRows} and published to the events topic.
 *
 * <p>Only whole transactions are published; while one is half read the handler is not at a
 * boundary ({@link #atBoundary}), so the stored position never falls inside a transaction and a
 * restart reads it whole again. At the end of a batch the sink is flushed (the brokers acknowledged
 * every record), then the keys first seen in the batch are stored ({@link KeysSeen}), then {@link
 * ChangeStream} stores the position. Row changes that cannot be converted and events that cannot
 * be decoded are one line each on standard error, counted. Each captured transaction is also handed
 * to {@code captured} (the cross-check of {@code --recorded}).
 */
final class CdcPublisher implements CapturePublisher {
  private final KafkaTransactionSink sink;
  private final PrintWriter err;
  private final KeysSeen keys;
  private final ListAppendRows rows;
  private final ChangeAssembly assembly;
  private final TransactionAssembler assembler;
  private final Consumer<CapturedTransaction> captured;
  private final List<String> newKeys = new ArrayList<>();
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong baselines = new AtomicLong();
  private final AtomicLong unconverted = new AtomicLong();

  /**
   * @param sink the events topic's sink; flushed at the end of every batch
   * @param err where problems are reported, one line each
   * @param historyId the records' history
   * @param table the list-append table without schema
   * @param keys the store of keys seen, already {@link KeysSeen#load loaded} into {@code seen}
   * @param seen the keys an earlier run showed
   * @param captured receives each whole captured transaction after its records were handed to the
   *     sink
   */
  CdcPublisher(KafkaTransactionSink sink, PrintWriter err, String historyId, String table, KeysSeen keys,
      Set<String> seen, Consumer<CapturedTransaction> captured) {
    this.sink = sink;
    this.err = err;
    this.keys = keys;
    this.captured = captured;
    this.rows = new ListAppendRows(historyId, table, seen);
    this.assembler = new TransactionAssembler(this::publish);
    this.assembly = new ChangeAssembly(assembler, (reason, value) -> {
      err.println("capture: change event rejected (not published): " + reason);
      err.flush();
    });
  }

  @Override
  public void handle(String destination, String key, String value) {
    assembly.handle(destination, key, value);
  }

  @Override
  public boolean atBoundary() {
    return !assembler.hasPending();
  }

  /** Flushes the sink, then stores the keys first seen in the batch. */
  @Override
  public void endBatch() {
    sink.flush();
    keys.add(newKeys);
    newKeys.clear();
  }

  @Override
  public String counts() {
    return published.get() + " transactions published (" + baselines.get() + " baselines), " + unconverted.get()
        + " row changes not converted, " + assembly.rejected() + " events rejected";
  }

  @Override
  public void close() {
    keys.close();
  }

  private void publish(CapturedTransaction txn) {
    ListAppendRows.Converted c = rows.convert(txn.txn(), txn.changes());
    for (Transaction t : c.transactions()) {
      sink.accept(t);
      published.incrementAndGet();
      if (t.getTxnId().startsWith(ListAppendRows.BASELINE_PREFIX)) {
        baselines.incrementAndGet();
      }
    }
    newKeys.addAll(c.newKeys());
    for (String problem : c.problems()) {
      unconverted.incrementAndGet();
      err.println("capture: row change not converted: " + problem);
    }
    if (!c.problems().isEmpty()) {
      err.flush();
    }
    captured.accept(txn);
  }
}
