package io.isowatch.stream.assembly;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The session assembler's rejection path: each {@link Rejection} becomes one {@link DeadLetter}
 * (raw bytes, topic, partition, offset, reason {@code "<class>: <detail>"}) forwarded from the
 * assembler node, which the topology sends to the dead-letter topic, and is counted by
 * {@link MonitorMetrics#deadLetter(String)} under its reason class.
 *
 * <p>Invariant: every rejection is counted once and forwarded once, nothing is dropped; the count
 * comes before the record, in the order the rejections were raised.
 */
final class DeadLetters {
  private final ProcessorContext<String, SpecificRecord> context;
  private final String eventsTopic;
  private final MonitorMetrics metrics;

  /**
   * @param context the assembler's context, to forward through and to read the record's metadata
   * @param eventsTopic the topic named by a dead letter a timer raised
   * @param metrics where each dead letter is counted
   */
  DeadLetters(ProcessorContext<String, SpecificRecord> context, String eventsTopic, MonitorMetrics metrics) {
    this.context = context;
    this.eventsTopic = eventsTopic;
    this.metrics = metrics;
  }

  /**
   * Forwards a dead letter. Topic, partition and offset come from the record being processed; for
   * one raised by a timer they are the events topic, this task's partition and -1.
   *
   * @param key the dead letter's key: the input record's, or {@code historyId/sessionId}
   * @param raw the input record's value, or null for one raised by a timer
   * @param timestampMs the input record's timestamp, or the punctuation's time
   */
  void send(String key, byte[] raw, Rejection why, long timestampMs) {
    // in a punctuation Kafka Streams gives metadata without a topic (partition and offset -1)
    Optional<RecordMetadata> meta = context.recordMetadata().filter(m -> m.topic() != null);
    DeadLetter letter = new DeadLetter(raw == null ? null : ByteBuffer.wrap(raw),
        meta.map(RecordMetadata::topic).orElse(eventsTopic),
        meta.map(RecordMetadata::partition).orElse(context.taskId().partition()),
        meta.map(RecordMetadata::offset).orElse(-1L),
        why.reason());
    metrics.deadLetter(why.reasonClass());
    context.forward(new Record<>(key, (SpecificRecord) letter, timestampMs));
  }
}
