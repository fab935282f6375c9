package io.isowatch.cli;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.serde.RegistryFormat;
import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.app.ViolationFeed;
import io.isowatch.stream.config.EventsInput;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.metrics.MetricsEndpoint;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.web.RecentViolations;
import io.isowatch.stream.web.ViolationPages;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Runs {@code isowatch monitor}: checks that the Kafka cluster and the schema registry (if any)
 * answer, that the topics exist (or creates them), starts the HTTP endpoint (metrics, and the
 * violations page fed by a {@link ViolationFeed} that first re-reads the last {@value
 * RecentViolations#DEFAULT_CAPACITY} offsets of each partition) and the {@link MonitorApp},
 * optionally prints each violation it publishes from now on (the page and the printing follow only
 * this application's violations, {@link ViolationFeed}), and waits until asked to stop or until
 * Kafka Streams fails.
 *
 * <p>Exit codes ({@link ExitCode}): {@code 0} stopped on request ({@code stop} counted down, e.g. by
 * the SIGTERM/Ctrl-C shutdown hook), {@code 2} a setup problem the user can fix (Kafka or the schema
 * registry not answering, missing topics, metrics port taken, unreadable config), {@code 3} Kafka
 * Streams went to {@code ERROR} or stopped by itself.
 */
final class MonitorRunner {
  private final PrintWriter out;
  private final PrintWriter err;

  /**
   * @param out violations' headlines and the startup line
   * @param err errors and state changes
   */
  MonitorRunner(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  /**
   * Client settings for the admin client, the violation feed and the producers of {@code replay} and
   * {@code probe}: the user's overlay's security settings ({@code security.*}, {@code sasl.*},
   * {@code ssl.*}, {@code client.dns.*}, {@code request.timeout.ms}), its schema registry settings
   * ({@code apicurio.*}, see {@link io.isowatch.schemas.serde.WireFormat#of}) and the
   * bootstrap servers.
   */
  static Properties clientProperties(Properties overlay, String bootstrapServers) {
    Properties p = new Properties();
    for (String name : overlay.stringPropertyNames()) {
      if (name.startsWith("security.") || name.startsWith("sasl.") || name.startsWith("ssl.")
          || name.startsWith("client.dns.") || name.equals("request.timeout.ms")
          || name.startsWith(RegistryFormat.SETTINGS_PREFIX)) {
        p.setProperty(name, overlay.getProperty(name));
      }
    }
    p.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    return p;
  }

  /**
   * @param r the request
   * @param stop counted down to stop the monitor cleanly; counted down here too when Kafka Streams fails
   * @param started receives the running app once started (tests use it), may be a no-op
   * @return the exit code
   * @throws InterruptedException if interrupted while waiting
   */
  int run(MonitorRequest r, CountDownLatch stop, java.util.function.Consumer<MonitorApp> started)
      throws InterruptedException {
    Properties clients = clientProperties(r.overlay(), r.bootstrapServers());
    Optional<String> brokerDown = StartupChecks.brokerUnanswered(clients);
    if (brokerDown.isPresent()) {
      err.println("isowatch monitor: " + brokerDown.get());
      return ExitCode.BAD_INPUT;
    }
    Optional<String> registryUnusable = RegistryOption.unusable(clients, List.of(
        Map.entry(r.config().violationsTopic(), Violation.class), Map.entry(r.config().dlqTopic(), DeadLetter.class)));
    if (registryUnusable.isPresent()) {
      err.println("isowatch monitor: " + registryUnusable.get());
      return ExitCode.BAD_INPUT;
    }
    try (Admin admin = Admin.create(clients)) {
      Set<String> missing = Topics.missing(admin, Topics.of(r.config()));
      List<String> inputs = r.config().inputTopics();
      boolean cdc = r.config().input() == EventsInput.DEBEZIUM_CDC;
      if (!missing.isEmpty() && r.createTopics()) {
        List<String> oneEach = cdc ? missing.stream().filter(inputs::contains).toList() : List.of();
        List<String> others = missing.stream().filter(t -> !oneEach.contains(t)).toList();
        if (!oneEach.isEmpty()) {
          Topics.create(admin, oneEach, Optional.of(1), r.replication(), Optional.empty());
        }
        if (!others.isEmpty()) {
          Topics.create(admin, others, r.partitions(), r.replication(), Optional.empty());
        }
        err.println("monitor: created topics " + String.join(", ", missing));
      } else if (!missing.isEmpty()) {
        String first = missing.iterator().next();
        err.println("isowatch monitor: topic(s) " + String.join(", ", missing) + " do not exist on "
            + r.bootstrapServers() + "; create them (e.g. kafka-topics.sh --bootstrap-server "
            + r.bootstrapServers() + " --create --topic " + first
            + " --partitions " + (cdc && inputs.contains(first) ? 1 : 6) + ") or pass --create-topics");
        return ExitCode.BAD_INPUT;
      }
      if (cdc) {
        for (String topic : inputs) {
          int n = Topics.partitions(admin, topic);
          if (n != 1) {
            err.println("isowatch monitor: --input debezium-cdc reads topic " + topic + ", which has " + n
                + " partitions; it needs one, whose order is the database's commit order (set the connector's"
                + " topic.creation.default.partitions=1, or create the topic with --partitions 1 before it starts)");
            return ExitCode.BAD_INPUT;
          }
        }
      }
    } catch (IllegalStateException e) {
      err.println("isowatch monitor: cannot reach Kafka at " + r.bootstrapServers() + ": " + e.getMessage()
          + "; check --bootstrap-servers and the security settings in --config");
      return ExitCode.BAD_INPUT;
    }

    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MonitorMetrics metrics = new MonitorMetrics(registry);
    MetricsEndpoint endpoint = null;
    RecentViolations recent = new RecentViolations(RecentViolations.DEFAULT_CAPACITY);
    if (r.metricsPort() >= 0) {
      try {
        endpoint = MetricsEndpoint.start(registry, r.metricsHost(), r.metricsPort(), r.metricsToken(),
            Map.of(ViolationPages.PATH, new ViolationPages(recent, r.config().violationsTopic(),
                metrics::unresolvedReadsCount)));
      } catch (IOException e) {
        err.println("isowatch monitor: cannot serve metrics on " + r.metricsHost() + ":" + r.metricsPort()
            + " (" + e.getMessage() + "); pass another --metrics-port (0 picks a free one) or --metrics-port -1");
        return ExitCode.BAD_INPUT;
      }
    }
    AtomicReference<KafkaStreams.State> failed = new AtomicReference<>();
    AtomicBoolean closing = new AtomicBoolean();
    ViolationFeed feed = null;
    ViolationFeed pageFeed = null;
    MonitorApp app = MonitorApp.start(r.config(), metrics,
        MonitorApp.properties(r.applicationId(), r.bootstrapServers(), r.overlay()),
        state -> {
          err.println("monitor: Kafka Streams " + state);
          err.flush();
          if (!closing.get()
              && (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING)) {
            failed.compareAndSet(null, state);
            stop.countDown();
          }
        });
    try {
      Object registryUrl = clients.get(RegistryFormat.URL);
      out.println("monitor: application " + r.applicationId() + " on " + r.bootstrapServers() + ", reading "
          + r.config().eventsTopic()
          + (registryUrl == null ? "" : " (schema registry " + RegistryFormat.apiUrl(registryUrl.toString().strip()) + ")")
          + ", expecting " + r.config().expectedLevel().cliName()
          + (endpoint == null ? "" : "; metrics at http://" + r.metricsHost() + ":" + endpoint.port()
              + MetricsEndpoint.PATH + ", violations at http://" + r.metricsHost() + ":" + endpoint.port()
              + ViolationPages.PATH));
      out.flush();
      if (endpoint != null) {
        pageFeed = new ViolationFeed(clients, r.config().violationsTopic(), (long) recent.capacity(),
            r.applicationId(), recent::add,
            (where, reason) -> err.println("monitor: " + where + " is not a violation: " + reason));
      }
      if (r.printViolations()) {
        feed = new ViolationFeed(clients, r.config().violationsTopic(), false, r.applicationId(),
            v -> {
              out.println(ViolationText.headline(v));
              out.flush();
            },
            (where, reason) -> err.println("monitor: " + where + " is not a violation: " + reason));
      }
      started.accept(app);
      stop.await();
    } finally {
      closing.set(true);
      if (feed != null) {
        feed.close();
      }
      if (pageFeed != null) {
        pageFeed.close();
      }
      app.close(Duration.ofSeconds(30));
      if (endpoint != null) {
        endpoint.close();
      }
      registry.close();
    }
    if (failed.get() != null) {
      err.println("isowatch monitor: Kafka Streams stopped (" + failed.get() + "); see the log above");
      return ExitCode.INTERNAL_ERROR;
    }
    return ExitCode.CONSISTENT;
  }
}
