package io.isowatch.stream.app;

import io.isowatch.stream.metrics.MonitorMetrics;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports the restoration of state stores from their changelog topics: a log line when a store
 * partition starts and ends restoring, and the restored records in {@link MonitorMetrics#restored}
 * ({@code isowatch_state_restored_records_total{store=...}} in Prometheus). An instance restores
 * after a crash or a wiped state directory and when a rebalance moves a task to it; the counter
 * shows that the state came back from Kafka rather than being started empty (Kafka Streams
 * documentation, "Fault tolerance" and {@code KafkaStreams#setGlobalStateRestoreListener}).
 *
 * <p>Called from the stream threads (or the restoration thread); thread-safe.
 */
final class ChangelogRestores implements StateRestoreListener {
  private static final Logger LOG = LoggerFactory.getLogger(ChangelogRestores.class);

  private final MonitorMetrics metrics;

  /** @param metrics where restored records are counted */
  ChangelogRestores(MonitorMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
    LOG.info("restoring store {} from changelog {}, offsets {} to {}", store, partition, startingOffset,
        endingOffset);
  }

  @Override
  public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
    metrics.restored(store, numRestored);
  }

  @Override
  public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
    LOG.info("restored store {} from changelog {}: {} records", store, partition, totalRestored);
  }
}
