package io.isowatch.stream.topology;

import io.isowatch.stream.metrics.MonitorMetrics;
import io.micrometer.core.instrument.Counter;
import java.util.Map;
import java.util.TreeMap;

/** Test helper: the Debezium change events a monitor skipped, by reason. */
final class SkippedEvents {
  private SkippedEvents() {}

  /** @return {@code isowatch.debezium.skipped} by its {@code reason} tag, sorted by reason */
  static Map<String, Double> byReason(MonitorMetrics metrics) {
    Map<String, Double> out = new TreeMap<>();
    for (Counter c : metrics.registry().find("isowatch.debezium.skipped").counters()) {
      out.put(c.getId().getTag("reason"), c.count());
    }
    return out;
  }
}
