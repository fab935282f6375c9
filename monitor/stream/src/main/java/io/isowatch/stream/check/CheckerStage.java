package io.isowatch.stream.check;

import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.topology.MonitorConfig;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Placeholder of the checker stage with its agreed signature, forwarding nothing, so that the
 * topology can be wired and tested before the real stage (branch {@code stream-check}) is merged;
 * the lead replaces this file with that branch's.
 */
public final class CheckerStage {
  private CheckerStage() {}

  /**
   * @param config unused here
   * @param metrics unused here
   * @return a supplier of processors that consume {@code Transaction}s keyed by historyId and
   *     forward nothing
   */
  public static ProcessorSupplier<String, SpecificRecord, String, SpecificRecord> supplier(MonitorConfig config,
      MonitorMetrics metrics) {
    return () -> new Processor<String, SpecificRecord, String, SpecificRecord>() {
      @Override
      public void process(Record<String, SpecificRecord> record) {
        // the real stage checks the transaction; this placeholder has nothing to say
      }
    };
  }
}
