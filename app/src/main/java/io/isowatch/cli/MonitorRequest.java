package io.isowatch.cli;

import io.isowatch.stream.config.MonitorConfig;
import java.util.Optional;
import java.util.Properties;

/**
 * What {@code isowatch monitor} was asked to do, after parsing.
 *
 * @param config topics, expected levels, window and grace periods
 * @param bootstrapServers {@code host:port[,host:port...]}
 * @param applicationId Kafka Streams {@code application.id}
 * @param overlay settings from {@code --config} (and {@code --state-dir}) overriding the defaults
 * @param createTopics create missing topics instead of failing
 * @param partitions partitions of created topics, empty for the broker default
 * @param replication replication factor of created topics, empty for the broker default
 * @param metricsHost address the HTTP endpoint (metrics and violations page) listens on
 * @param metricsPort its port, 0 for any free port, -1 for no endpoint
 * @param metricsToken bearer token the endpoint requires on every path, if any
 * @param printViolations print each violation's headline as it is published
 */
record MonitorRequest(
    MonitorConfig config,
    String bootstrapServers,
    String applicationId,
    Properties overlay,
    boolean createTopics,
    Optional<Integer> partitions,
    Optional<Short> replication,
    String metricsHost,
    int metricsPort,
    Optional<String> metricsToken,
    boolean printViolations) {}
