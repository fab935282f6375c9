package io.isowatch.stream.kafka;

import io.isowatch.stream.config.MonitorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The monitor's topics on a cluster, through an {@link Admin} client: which exist, creating the
 * missing ones, and whether the brokers create a topic on first use (Kafka documentation, "Admin
 * API": {@code createTopics}, {@code listTopics}, {@code describeConfigs}).
 */
public final class Topics {
  /** The broker setting {@link #createdOnFirstUse} reads. */
  static final String AUTO_CREATE = "auto.create.topics.enable";
  /** How long one admin call may take before it fails. */
  public static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

  private Topics() {}

  /**
   * @return the events, violations and dead-letter topics of {@code config}, in that order, then its
   *     other input topics ({@link MonitorConfig#inputTopics()}: with Debezium's CDC input, the
   *     connector's transaction-metadata topic)
   */
  public static List<String> of(MonitorConfig config) {
    List<String> topics = new ArrayList<>(List.of(config.eventsTopic(), config.violationsTopic(), config.dlqTopic()));
    List<String> inputs = config.inputTopics();
    topics.addAll(inputs.subList(1, inputs.size()));
    return List.copyOf(topics);
  }

  /**
   * Whether the cluster creates a topic the first time a producer writes to it: a broker's {@code
   * auto.create.topics.enable} (Kafka documentation, "Broker Configs"), read with {@code
   * describeConfigs} from the first broker {@code describeCluster} names.
   *
   * @param admin a client of the cluster
   * @return the setting, or empty if it cannot be read (the call refused, e.g. by ACLs without
   *     DescribeConfigs on the cluster, or no answer within {@link #ADMIN_TIMEOUT})
   * @throws InterruptedException if interrupted while waiting
   */
  public static Optional<Boolean> createdOnFirstUse(Admin admin) throws InterruptedException {
    try {
      Collection<Node> nodes = admin.describeCluster().nodes().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      if (nodes.isEmpty()) {
        return Optional.empty();
      }
      ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, nodes.iterator().next().idString());
      Config config = admin.describeConfigs(List.of(broker)).all()
          .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(broker);
      ConfigEntry entry = config == null ? null : config.get(AUTO_CREATE);
      return entry == null || entry.value() == null ? Optional.empty() : Optional.of(Boolean.parseBoolean(entry.value()));
    } catch (ExecutionException | TimeoutException e) {
      return Optional.empty();
    }
  }

  /**
   * @param admin a client of the cluster
   * @param names topics
   * @return those of {@code names} the cluster does not have (or does not let this client see), sorted
   * @throws IllegalStateException if the cluster does not answer within {@link #ADMIN_TIMEOUT}
   *     (cause attached)
   */
  public static Set<String> missing(Admin admin, List<String> names) {
    try {
      Set<String> existing = admin.listTopics().names().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      Set<String> missing = new TreeSet<>(names);
      missing.removeAll(existing);
      return missing;
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not list the cluster's topics: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing topics", e);
    }
  }

  /**
   * @param admin a client of the cluster
   * @param topic an existing topic
   * @return how many partitions it has
   * @throws IllegalStateException if it does not exist or the cluster does not answer within {@link
   *     #ADMIN_TIMEOUT} (cause attached)
   */
  public static int partitions(Admin admin, String topic) {
    try {
      return admin.describeTopics(List.of(topic)).allTopicNames()
          .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic).partitions().size();
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not describe topic " + topic + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while describing topic " + topic, e);
    }
  }

  /**
   * Creates topics, leaving those that already exist as they are (whatever their settings).
   *
   * @param admin a client of the cluster
   * @param names the topics
   * @param partitions partitions of each, or empty for the broker's {@code num.partitions}
   * @param replication replication factor of each, or empty for the broker's {@code
   *     default.replication.factor}
   * @param retention {@code retention.ms} of each, or empty for the broker's default (7 days)
   * @throws IllegalStateException if the cluster refuses, e.g. not authorised or a replication
   *     factor above the number of brokers (cause attached), or does not answer within {@link
   *     #ADMIN_TIMEOUT}
   */
  public static void create(Admin admin, List<String> names, Optional<Integer> partitions,
      Optional<Short> replication, Optional<Duration> retention) {
    List<NewTopic> topics = new ArrayList<>();
    for (String name : names) {
      NewTopic t = new NewTopic(name, partitions, replication);
      retention.ifPresent(r -> t.configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(r.toMillis()))));
      topics.add(t);
    }
    admin.createTopics(topics).values().forEach((name, future) -> {
      try {
        future.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new IllegalStateException("could not create topic " + name + ": " + e.getCause(), e.getCause());
        }
      } catch (TimeoutException e) {
        throw new IllegalStateException("creating topic " + name + " timed out after " + ADMIN_TIMEOUT, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while creating topic " + name, e);
      }
    });
  }
}
