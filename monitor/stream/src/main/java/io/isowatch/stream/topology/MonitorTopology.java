package io.isowatch.stream.topology;

import io.isowatch.stream.metrics.MonitorMetrics;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;

/**
 * THROWAWAY STUB on branch stream-run so that the app and CLI compile before branch stream-topology
 * is merged: the lead takes stream-topology's version of this file. Publishes nothing.
 */
public final class MonitorTopology {
  private MonitorTopology() {}

  /** Stub: reads the events topic and publishes nothing. */
  public static Topology build(MonitorConfig config, MonitorMetrics metrics) {
    StreamsBuilder b = new StreamsBuilder();
    b.stream(config.eventsTopic(), Consumed.with(Serdes.String(), Serdes.ByteArray()))
        .filter((k, v) -> false);
    return b.build();
  }

  /** Stub: exactly-once v2 and a 100 ms commit interval. */
  public static Properties streamsProperties(String applicationId, String bootstrapServers) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
    return p;
  }
}
