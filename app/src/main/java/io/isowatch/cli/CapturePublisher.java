package io.isowatch.cli;

import io.isowatch.connectors.debezium.engine.ChangeStream;

/**
 * What {@link CaptureCommand} runs on the change stream, one per mode: {@link OutboxPublisher}
 * ({@code --outbox}) or {@link CdcPublisher} ({@code --cdc}). The command owns the rest (start-up
 * checks, the sink, the engine, counts, signals).
 */
interface CapturePublisher extends ChangeStream.Handler {
  /** @return the counts printed on standard error, e.g. {@code 3 published, 0 rejected, 3 pruned} */
  String counts();

  /** Releases what the publisher holds besides the sink (a database connection, a producer). */
  void close();
}
