package io.isowatch.cli;

import io.isowatch.stream.kafka.Brokers;
import io.isowatch.stream.kafka.Topics;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;

/**
 * What {@code monitor}, {@code replay} and {@code probe} check before they talk to Kafka or a schema
 * registry otherwise, so that a wrong address, a stopped broker, a topic that will never appear or
 * an unusable registry is told in seconds with what to do (exit 2), and nothing is written before.
 */
final class StartupChecks {
  /** What to check when the Kafka cluster does not answer, appended to every such message. */
  static final String BROKER_HINT = "; check --bootstrap-servers, that the brokers run and this machine"
      + " can reach them, and the security settings in --config";

  private StartupChecks() {}

  /**
   * Asks the cluster {@code clients} names whether it answers, within {@link Brokers#CHECK_TIMEOUT}
   * ({@link Brokers#unanswered}): the first thing {@code monitor}, {@code replay} and {@code probe}
   * do with Kafka, so that a wrong address or a stopped broker is told in seconds, not after a
   * client's 60 s timeout, and before anything is written anywhere else (a schema registry, a
   * database).
   *
   * @param clients the command's client settings ({@link MonitorRunner#clientProperties}), with
   *     the security settings its Kafka clients use
   * @return empty if the cluster answers, else why not, ending with {@link #BROKER_HINT}
   * @throws InterruptedException if interrupted while waiting
   */
  static Optional<String> brokerUnanswered(Map<?, ?> clients) throws InterruptedException {
    return Brokers.unanswered(clients, Brokers.CHECK_TIMEOUT).map(why -> why + BROKER_HINT);
  }

  /**
   * Whether {@code replay} and {@code probe} can write to {@code topic}: it exists, or the brokers
   * create topics on first use. Without this a producer waits {@code max.block.ms} (60 s) for a
   * topic that will never appear. Asked after {@link #brokerUnanswered}; when it cannot be told
   * (ACLs), the command goes on and the producer reports.
   *
   * @param clients the command's client settings ({@link MonitorRunner#clientProperties})
   * @param topic the topic the command writes
   * @return empty if it can write there or cannot tell, else why not and what to do
   * @throws InterruptedException if interrupted while waiting
   */
  private static Optional<String> topicUnavailable(Map<?, ?> clients, String topic) throws InterruptedException {
    Properties p = new Properties();
    p.putAll(clients);
    String servers = p.getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
    try (Admin admin = Admin.create(p)) {
      if (Topics.missing(admin, List.of(topic)).isEmpty() || Topics.createdOnFirstUse(admin).orElse(true)) {
        return Optional.empty();
      }
    } catch (IllegalStateException | KafkaException e) {
      return Optional.empty(); // the producer will say what is wrong
    }
    return Optional.of("topic " + topic + " does not exist on " + servers + " and its brokers do not create"
        + " topics on first use (auto.create.topics.enable=false); create it (e.g. kafka-topics.sh"
        + " --bootstrap-server " + servers + " --create --topic " + topic + " --partitions 6) or name another");
  }

  /**
   * The start-up checks of the commands that publish ({@code replay}, {@code probe}), in order, each
   * only if the one before passed: the brokers answer ({@link #brokerUnanswered}), the topic can be
   * written ({@link #topicUnavailable}), and the schema registry, if one is named, answers and has or
   * takes the record's schema ({@link RegistryOption#unusable}). Nothing is written anywhere before
   * they pass.
   *
   * @param clients the command's client settings ({@link MonitorRunner#clientProperties})
   * @param topic the topic the command publishes to
   * @param type the record type it publishes there
   * @return empty if the command can publish, else why not (the first check that failed)
   * @throws InterruptedException if interrupted while waiting
   */
  static Optional<String> cannotPublish(Map<?, ?> clients, String topic, Class<? extends SpecificRecord> type)
      throws InterruptedException {
    Optional<String> why = brokerUnanswered(clients);
    if (why.isEmpty()) {
      why = topicUnavailable(clients, topic);
    }
    if (why.isEmpty()) {
      why = RegistryOption.unusable(clients, List.of(Map.entry(topic, type)));
    }
    return why;
  }
}
