package io.isowatch.connectors.kafka;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Map;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real in-process Kafka broker for one test class: Kafka's own KRaft test kit ({@code
 * KafkaClusterTestKit}, one combined broker and controller), as {@code
 * io.isowatch.stream.kafka.EmbeddedKafka} starts it in monitor/stream, which connectors may not
 * depend on (ARCHITECTURE.md, "Modules"). Only what the publishing tests need: start, the bootstrap
 * address, close. Starts in about 3 s; never skipped (no Docker or external service needed).
 */
final class LocalKafka implements AutoCloseable {
  /** Single-node settings (Kafka documentation, "Broker Configs"); see EmbeddedKafka's comment. */
  private static final Map<String, String> SINGLE_NODE = Map.of(
      "offsets.topic.replication.factor", "1",
      "offsets.topic.num.partitions", "1",
      "transaction.state.log.replication.factor", "1",
      "transaction.state.log.min.isr", "1",
      "group.initial.rebalance.delay.ms", "0");

  private final KafkaClusterTestKit cluster;

  private LocalKafka(KafkaClusterTestKit cluster) {
    this.cluster = cluster;
  }

  /**
   * @return a running broker
   * @throws Exception if it cannot start
   */
  static LocalKafka start() throws Exception {
    TestKitNodes nodes = new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build();
    KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes).setDeleteOnClose(true);
    SINGLE_NODE.forEach(builder::setConfigProp);
    KafkaClusterTestKit cluster = builder.build();
    PrintStream out = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    try {
      cluster.format();
    } finally {
      System.setOut(out);
    }
    cluster.startup();
    cluster.waitForReadyBrokers();
    return new LocalKafka(cluster);
  }

  /** @return {@code host:port} of the plaintext listener */
  String bootstrapServers() {
    return cluster.bootstrapServers();
  }

  @Override
  public void close() {
    try {
      cluster.close();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("could not stop the in-process Kafka broker: " + e, e);
    }
  }
}
