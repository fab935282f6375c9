package io.isowatch.stream.app;

import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.topology.MonitorTopology;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running instance of the monitor: the {@link KafkaStreams} client of {@link
 * MonitorTopology#build}, its handlers, and the binding of Kafka Streams' own metrics to the
 * monitor's Micrometer registry.
 *
 * <p>Lifecycle: {@link #start} builds and starts the client; {@link #close} closes it, waiting up to
 * the given time for the stream threads to commit (Kafka Streams javadoc, {@code
 * KafkaStreams#close(Duration)}). A stream thread that dies of an exception is replaced ({@link
 * StreamThreadExceptionResponse#REPLACE_THREAD}); under {@code exactly_once_v2} its open
 * transaction is aborted, so its output is never half-published, and the new thread resumes from the
 * last committed offsets with state restored from the changelogs (Kafka Streams documentation,
 * "Processing guarantees" and "Handling exceptions"). Every state change is logged and passed to
 * the listeners added with {@link #onStateChange}. Restorations of state stores from their
 * changelogs are logged and counted ({@link ChangelogRestores}).
 *
 * <p>Kafka Streams' own metrics (stream thread, task, processor node, state store, and the embedded
 * consumers' and producers' metrics) are bound through Micrometer's {@link KafkaStreamsMetrics}
 * binder (Micrometer documentation, "Apache Kafka Metrics"); Prometheus shows them with the prefix
 * {@code kafka_stream_}, {@code kafka_consumer_}, {@code kafka_producer_}, {@code kafka_admin_client_}.
 */
public final class MonitorApp implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MonitorApp.class);

  private final KafkaStreams streams;
  private final KafkaStreamsMetrics streamsMetrics;
  private final CopyOnWriteArrayList<Consumer<KafkaStreams.State>> listeners = new CopyOnWriteArrayList<>();

  private MonitorApp(KafkaStreams streams, KafkaStreamsMetrics streamsMetrics) {
    this.streams = streams;
    this.streamsMetrics = streamsMetrics;
  }

  /**
   * The Kafka Streams properties of one instance: {@link MonitorTopology#streamsProperties} (the
   * monitor's defaults: {@code exactly_once_v2}, serdes, commit interval) overlaid by {@code
   * overlay}, so that a config file may set anything Kafka Streams or its clients accept (security:
   * {@code security.protocol}, {@code sasl.*}, {@code ssl.*}; {@code state.dir}; {@code
   * num.stream.threads}; client overrides with the {@code consumer.}/{@code producer.} prefixes).
   *
   * @param applicationId {@code application.id}: the consumer group and the prefix of internal topics
   * @param bootstrapServers {@code host:port[,host:port...]}
   * @param overlay properties that override the defaults; {@code application.id} and {@code
   *     bootstrap.servers} in it are overridden in turn by the explicit arguments
   * @return a fresh properties object
   */
  public static Properties properties(String applicationId, String bootstrapServers, Properties overlay) {
    Properties props = new Properties();
    props.putAll(MonitorTopology.streamsProperties(applicationId, bootstrapServers));
    props.putAll(overlay);
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    return props;
  }

  /**
   * Reads a Java properties file ({@link Properties#load(Reader)} syntax, UTF-8) of Kafka Streams
   * and client settings.
   *
   * @param file the file
   * @return its properties
   * @throws IOException if it cannot be read (missing, unreadable)
   */
  public static Properties readConfigFile(Path file) throws IOException {
    Properties props = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      props.load(in);
    }
    return props;
  }

  /**
   * Builds the topology, binds Kafka Streams' metrics to {@code metrics.registry()}, installs the
   * handlers and starts the client. Returns at once; the client goes through {@code REBALANCING}
   * to {@code RUNNING} in the background.
   *
   * @param config topics, levels and windows; when it does not name the events topic's partition
   *     count ({@link MonitorConfig.Sources#eventsPartitions()} 0), it is asked of the cluster here,
   *     so that the checker stage waits for a watermark from every partition
   * @param metrics the monitor's meters; Kafka Streams' meters go to the same registry
   * @param properties from {@link #properties}
   * @param listener receives each new state, from before the start on (more with {@link
   *     #onStateChange})
   * @return the started instance
   * @throws org.apache.kafka.common.config.ConfigException for an invalid property (the message
   *     names it)
   * @throws org.apache.kafka.streams.errors.StreamsException if the client cannot start (e.g. the
   *     state directory is locked by another instance)
   * @throws IllegalStateException if the events topic's partitions cannot be counted (it does not
   *     exist, or the cluster does not answer within {@link Topics#ADMIN_TIMEOUT})
   */
  public static MonitorApp start(MonitorConfig config, MonitorMetrics metrics, Properties properties,
      Consumer<KafkaStreams.State> listener) {
    if (config.sources().eventsPartitions() == 0) {
      try (Admin admin = Admin.create(new StreamsConfig(properties).getAdminConfigs("isowatch-partitions"))) {
        int n = Topics.partitions(admin, config.eventsTopic());
        config = config.withSources(config.sources().withEventsPartitions(n));
      }
    }
    KafkaStreams streams = new KafkaStreams(MonitorTopology.build(config, metrics), properties);
    KafkaStreamsMetrics binder = new KafkaStreamsMetrics(streams);
    MonitorApp app = new MonitorApp(streams, binder);
    app.listeners.add(listener);
    streams.setUncaughtExceptionHandler(e -> {
      LOG.error("a stream thread died; replacing it (the transaction it had open is aborted)", e);
      return StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    streams.setGlobalStateRestoreListener(new ChangelogRestores(metrics));
    streams.setStateListener((now, before) -> {
      LOG.info("Kafka Streams state {} -> {}", before, now);
      app.listeners.forEach(l -> l.accept(now));
    });
    MeterRegistry registry = metrics.registry();
    binder.bindTo(registry);
    streams.start();
    return app;
  }

  /**
   * Adds a listener of state changes, called on the thread that changes the state.
   *
   * @param listener receives each new state
   */
  public void onStateChange(Consumer<KafkaStreams.State> listener) {
    listeners.add(listener);
  }

  /** @return the client's current state */
  public KafkaStreams.State state() {
    return streams.state();
  }

  /** @return the Kafka Streams client, for queries and tests */
  public KafkaStreams streams() {
    return streams;
  }

  /**
   * Closes the client, waiting up to {@code timeout} for the stream threads to finish their work and
   * commit; then unbinds the metrics.
   *
   * @param timeout the longest wait
   * @return whether every thread stopped within {@code timeout}
   */
  public boolean close(Duration timeout) {
    boolean stopped = streams.close(timeout);
    streamsMetrics.close();
    return stopped;
  }

  /** Closes with a 30 s timeout. */
  @Override
  public void close() {
    close(Duration.ofSeconds(30));
  }
}
