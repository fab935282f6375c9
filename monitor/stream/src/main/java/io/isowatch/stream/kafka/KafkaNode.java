package io.isowatch.stream.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A single Kafka node in KRaft mode (one combined broker and controller) run in this process by
 * Kafka's own server class ({@code kafka.server.KafkaRaftServer}), listening on a port of the
 * caller's choice: what {@code isowatch broker} runs. {@link EmbeddedKafka} (Kafka's test kit)
 * serves the tests and the demo, but binds its listeners to ports of its own choosing.
 *
 * <p>Settings: {@code process.roles=broker,controller}, node id 1, a static quorum of that one node
 * on a free port of the same host, a plaintext client listener at {@code host:port} advertised as
 * such, and {@link EmbeddedKafka#SINGLE_NODE_SETTINGS}. The log directory is formatted (Kafka's
 * {@code Formatter}, as {@code kafka-storage.sh format} does) the first time and reused as it is
 * afterwards, so a node started again on the same folder keeps its topics and offsets (Kafka
 * documentation, "KRaft", "Provisioning Nodes").
 */
public final class KafkaNode implements AutoCloseable {
  /** How long {@link #start} waits for the node to answer clients. */
  public static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  private final KafkaRaftServer server;
  private final String bootstrapServers;

  private KafkaNode(KafkaRaftServer server, String bootstrapServers) {
    this.server = server;
    this.bootstrapServers = bootstrapServers;
  }

  /**
   * Formats {@code logDir} if it holds no node yet, starts the node and waits until it answers.
   *
   * @param host the address to listen on and advertise to clients (not a wildcard)
   * @param port the client port, 0 for a free one ({@link #bootstrapServers} tells which)
   * @param logDir the node's log directory; formatted when new, reused when formatted before
   * @return the running node
   * @throws IllegalStateException if it cannot be formatted or started, or does not answer within
   *     {@link #READY_TIMEOUT} (cause attached)
   */
  public static KafkaNode start(String host, int port, Path logDir) {
    KafkaRaftServer server = null;
    try {
      int clientPort = port == 0 ? freePort(host) : port;
      int controllerPort = freePort(host);
      Properties p = new Properties();
      p.putAll(EmbeddedKafka.SINGLE_NODE_SETTINGS);
      p.put("process.roles", "broker,controller");
      p.put("node.id", "1");
      p.put("controller.quorum.voters", "1@" + host + ":" + controllerPort);
      p.put("listeners", "PLAINTEXT://" + host + ":" + clientPort + ",CONTROLLER://" + host + ":" + controllerPort);
      p.put("advertised.listeners", "PLAINTEXT://" + host + ":" + clientPort);
      p.put("controller.listener.names", "CONTROLLER");
      p.put("inter.broker.listener.name", "PLAINTEXT");
      p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
      p.put("log.dirs", logDir.toString());
      KafkaConfig config = KafkaConfig.fromProps(p, false);
      new Formatter()
          .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
          .setNodeId(1)
          .setClusterId(Uuid.randomUuid().toString())
          .setDirectories(List.of(logDir.toString()))
          .setMetadataLogDirectory(logDir.toString())
          .setControllerListenerName("CONTROLLER")
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .setIgnoreFormatted(true)
          .run();
      server = new KafkaRaftServer(config, Time.SYSTEM);
      server.startup();
      String bootstrap = host + ":" + clientPort;
      awaitReady(bootstrap);
      return new KafkaNode(server, bootstrap);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      if (server != null) {
        server.shutdown();
        server.awaitShutdown();
      }
      throw new IllegalStateException("could not start the Kafka node: " + e.getMessage(), e);
    }
  }

  private static int freePort(String host) throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
      return s.getLocalPort();
    }
  }

  private static void awaitReady(String bootstrap) throws InterruptedException, TimeoutException {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    try (Admin admin = Admin.create(p)) {
      while (true) {
        try {
          if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
            return;
          }
        } catch (ExecutionException | TimeoutException notYet) {
          if (System.nanoTime() > deadline) {
            throw new TimeoutException("no answer at " + bootstrap + " within " + READY_TIMEOUT);
          }
        }
      }
    }
  }

  /** @return {@code host:port} of the client listener */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** Stops the node (a controlled shutdown) and waits until it has stopped; its files stay. */
  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
  }
}
