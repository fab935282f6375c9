package io.isowatch.stream.kafka;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * An in-process, single-node Kafka cluster in KRaft mode: one combined broker and controller from
 * Kafka's own test kit ({@code org.apache.kafka.common.test.KafkaClusterTestKit} with {@code
 * TestKitNodes}, artifact {@code kafka-test-common-runtime}, same version as the clients). Used by
 * {@code isowatch demo} and by the integration tests; starts in about 3 s.
 *
 * <p>A single broker cannot host the internal topics with their production replication factor of
 * 3, so it is started with {@code offsets.topic.replication.factor=1}, {@code
 * transaction.state.log.replication.factor=1} and {@code transaction.state.log.min.isr=1}
 * (without them consumer groups and exactly-once transactions never become ready; Kafka
 * documentation, "Broker Configs"), and {@code group.initial.rebalance.delay.ms=0} so that a new
 * consumer group (a Kafka Streams instance) starts without the default 3 s wait. Its log
 * directories live in a temporary directory deleted by {@link #close}.
 *
 * <p>Not thread-safe for start/close; {@link #bootstrapServers} and {@link #createTopic} may be
 * called from any thread once started.
 */
public final class EmbeddedKafka implements AutoCloseable {
  /** Broker settings a single node needs; see the class comment. */
  public static final Map<String, String> SINGLE_NODE_SETTINGS = Map.of(
      "offsets.topic.replication.factor", "1",
      "offsets.topic.num.partitions", "1",
      "transaction.state.log.replication.factor", "1",
      "transaction.state.log.min.isr", "1",
      "transaction.state.log.num.partitions", "1",
      "group.initial.rebalance.delay.ms", "0");

  private final KafkaClusterTestKit cluster;
  private final Admin admin;

  private EmbeddedKafka(KafkaClusterTestKit cluster, Properties adminSettings) {
    this.cluster = cluster;
    Properties props = new Properties();
    props.putAll(adminSettings);
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    this.admin = Admin.create(props);
  }

  /**
   * Formats the log directories, starts the node and waits until the broker is ready.
   *
   * @return the running cluster; close it to stop it and delete its files
   * @throws IllegalStateException if the node cannot be started (cause attached), e.g. no free
   *     port or no writable temporary directory
   */
  public static EmbeddedKafka start() {
    return start(Map.of(), new Properties());
  }

  /**
   * As {@link #start()}, with more broker settings, e.g. a secured listener: {@code
   * listener.security.protocol.map} mapping the client listener ({@code EXTERNAL}) to {@code
   * SASL_SSL}, {@code sasl.*}, {@code ssl.*}, {@code authorizer.class.name} (Kafka documentation,
   * "Broker Configs" and "Security"). The node's controller listener ({@code CONTROLLER}) stays
   * plaintext.
   *
   * @param brokerSettings broker properties added to (and overriding) {@link #SINGLE_NODE_SETTINGS}
   * @param adminSettings client settings of {@link #admin()} (e.g. a super user's credentials); the
   *     bootstrap servers are set here
   * @return the running cluster; close it to stop it and delete its files
   * @throws IllegalStateException if the node cannot be started (cause attached)
   */
  public static EmbeddedKafka start(Map<String, String> brokerSettings, Properties adminSettings) {
    KafkaClusterTestKit cluster = null;
    try {
      TestKitNodes nodes = new TestKitNodes.Builder()
          .setCombined(true)
          .setNumBrokerNodes(1)
          .setNumControllerNodes(1)
          .build();
      KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes).setDeleteOnClose(true);
      SINGLE_NODE_SETTINGS.forEach(builder::setConfigProp);
      brokerSettings.forEach(builder::setConfigProp);
      cluster = builder.build();
      formatQuietly(cluster);
      cluster.startup();
      cluster.waitForReadyBrokers();
      return new EmbeddedKafka(cluster, adminSettings);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      closeQuietly(cluster, e);
      throw new IllegalStateException("could not start the in-process Kafka broker: " + e, e);
    }
  }

  /** @return {@code host:port} of the broker's client listener (plaintext unless configured otherwise) */
  public String bootstrapServers() {
    return cluster.bootstrapServers();
  }

  /** @return an admin client of this cluster, shared; closed by {@link #close} */
  public Admin admin() {
    return admin;
  }

  /**
   * Creates a topic with replication factor 1, or leaves it as it is when it exists.
   *
   * @param name the topic
   * @param partitions number of partitions, at least 1
   * @param retention how long records are kept ({@code retention.ms}); empty for the broker's
   *     default (7 days)
   * @throws IllegalStateException if the broker refuses (cause attached)
   */
  public void createTopic(String name, int partitions, Optional<Duration> retention) {
    Topics.create(admin, List.of(name), Optional.of(partitions), Optional.of((short) 1), retention);
  }

  /**
   * Stops the broker (a controlled shutdown: its logs are flushed, its listener closed) and starts
   * it again on the same port with the same log directories; the KRaft controller of the node keeps
   * running. Clients see the broker vanish and come back, as in a rolling restart. Returns once the
   * broker is ready again.
   *
   * @param whileDown run after the broker stopped and before it starts again (e.g. to wait until
   *     clients noticed)
   * @throws IllegalStateException if the broker does not come back (cause attached)
   */
  public void restartBroker(Runnable whileDown) {
    cluster.brokers().values().forEach(BrokerServer::shutdown);
    whileDown.run();
    try {
      cluster.brokers().values().forEach(BrokerServer::startup);
      cluster.waitForReadyBrokers();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("the in-process Kafka broker did not restart: " + e, e);
    }
  }

  /** Stops the node and deletes its log directories. */
  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
    try {
      cluster.close();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("could not stop the in-process Kafka broker: " + e, e);
    }
  }

  /**
   * Formats the log directories. The test kit's formatter prints two lines ("Bootstrap metadata:
   * ...", "Formatting metadata directory ...") on {@link System#out}, which is the demo's report
   * stream; they are discarded here. Streams captured before (the CLI's writers) are not affected.
   */
  private static void formatQuietly(KafkaClusterTestKit cluster) throws Exception {
    PrintStream original = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    try {
      cluster.format();
    } finally {
      System.setOut(original);
    }
  }

  private static void closeQuietly(KafkaClusterTestKit cluster, Exception cause) {
    if (cluster == null) {
      return;
    }
    try {
      cluster.close();
    } catch (Exception e) {
      cause.addSuppressed(e);
    }
  }
}
