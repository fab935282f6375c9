package io.isowatch.stream.topology;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.serde.RecordSerde;
import io.isowatch.stream.assembly.SessionAssembler;
import io.isowatch.stream.check.CheckerStage;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The monitor's Kafka Streams topology (DSL with two Processor API stages):
 *
 * <pre>
 * events topic (String key historyId/sessionId, raw byte[] value)
 *   → {@value #ASSEMBLER}: {@link SessionAssembler}   (Transaction keyed by historyId | DeadLetter)
 *   → split: DeadLetter → dlq topic
 *            Transaction → repartition topic {@value #BY_HISTORY} (key historyId)
 *            SourceWatermark → the same topic (key historyId: a history's progress per partition)
 *                        → {@value #CHECKER}: {@link CheckerStage}   (Violation keyed by historyId | DeadLetter)
 *                        → split: Violation → violations topic; anything else → dlq topic
 * </pre>
 *
 * Each violation record carries the header {@value CheckerStage#APPLICATION_ID_HEADER}, the application id.
 *
 * Every node, the repartition topic and the stores have fixed names (the constants here and in
 * {@code AssemblerStores}), so that the changelog and repartition topics, named after them, keep
 * their names across versions (Kafka Streams docs, "Naming Operators in a Kafka Streams DSL
 * Application"). Keys are Strings. Values: the repartition topic always uses a single-object {@link
 * RecordSerde}; the violations and dead-letter topics use the application's {@code
 * default.value.serde}, which {@link #streamsProperties} sets to {@link RecordSerde} and Kafka
 * Streams configures with the application's properties, so that {@code apicurio.registry.url}
 * there makes them (and the assembler's reading of the events topic) use the registry's wire format
 * ({@link io.isowatch.schemas.serde.RegistryFormat}). The DLQ
 * is written by two sink nodes, one per sub-topology, rather than by a merge, which would join the
 * two sub-topologies and force co-partitioning of the events and repartition topics.
 */
public final class MonitorTopology {
  /** Source node of the events topic. */
  public static final String SOURCE = "isowatch-events";
  /** The session assembler's processor node. */
  public static final String ASSEMBLER = "isowatch-session-assembler";
  /** Name of the split after the assembler; branches are this plus {@code dead-letters} / {@code transactions}. */
  public static final String ASSEMBLED = "isowatch-assembled-";
  /** Name of the repartition by historyId; the topic is {@code <application.id>-}{@value}{@code -repartition}. */
  public static final String BY_HISTORY = "isowatch-transactions-by-history";
  /** The checker stage's processor node. */
  public static final String CHECKER = "isowatch-checker";
  /** Name of the split after the checker; branches are this plus {@code violations} / {@code dead-letters}. */
  public static final String CHECKED = "isowatch-checked-";

  private MonitorTopology() {}

  /**
   * @param config topic names and what the two stages need
   * @param metrics the meters both stages update
   * @return the topology; its stores are those of {@link SessionAssembler#supplier} and
   *     {@link CheckerStage#supplier}; with {@link MonitorConfig#splitLevels()}, the checker stage
   *     is split as {@link SplitTopology} says
   */
  public static Topology build(MonitorConfig config, MonitorMetrics metrics) {
    Serde<SpecificRecord> internal = new RecordSerde();
    StreamsBuilder builder = new StreamsBuilder();
    KStream<String, SpecificRecord> assembled = builder
        .stream(config.inputTopics(), Consumed.with(Serdes.String(), Serdes.ByteArray()).withName(SOURCE))
        .process(SessionAssembler.supplier(config, metrics), Named.as(ASSEMBLER));
    Map<String, KStream<String, SpecificRecord>> first = assembled.split(Named.as(ASSEMBLED))
        .branch((k, v) -> v instanceof DeadLetter, Branched.as("dead-letters"))
        .defaultBranch(Branched.as("transactions"));
    first.get(ASSEMBLED + "dead-letters").to(config.dlqTopic(), Produced.as("isowatch-assembler-dlq"));
    KStream<String, SpecificRecord> transactions = first.get(ASSEMBLED + "transactions");
    if (config.splitLevels()) {
      SplitTopology.checkers(config, metrics, transactions, internal);
      return builder.build();
    }
    Map<String, KStream<String, SpecificRecord>> second = transactions
        .repartition(Repartitioned.<String, SpecificRecord>as(BY_HISTORY)
            .withKeySerde(Serdes.String()).withValueSerde(internal))
        .process(CheckerStage.supplier(config, metrics), Named.as(CHECKER))
        .split(Named.as(CHECKED))
        .branch((k, v) -> v instanceof Violation, Branched.as("violations"))
        .defaultBranch(Branched.as("dead-letters"));
    second.get(CHECKED + "violations").to(config.violationsTopic(), Produced.as("isowatch-violations"));
    second.get(CHECKED + "dead-letters").to(config.dlqTopic(), Produced.as("isowatch-checker-dlq"));
    return builder.build();
  }

  /**
   * The Streams settings the monitor always runs with; a deployment's config file is laid over
   * them (security, tuning). Replication factors are not set, so internal topics take the broker's
   * {@code default.replication.factor} (Kafka Streams' {@code replication.factor} default -1).
   *
   * @param applicationId {@code application.id}: consumer group, and prefix of internal topics
   * @param bootstrapServers {@code bootstrap.servers}, {@code host:port[,host:port...]}
   * @return {@code processing.guarantee=exactly_once_v2}, String keys and {@link RecordSerde}
   *     values by default, {@code commit.interval.ms=100} (the exactly-once default, stated so that
   *     a config file does not silently inherit the 30 s at-least-once one; raising it delays every
   *     violation by up to two intervals, one per sub-topology, as each waits for the commit of the
   *     records it reads), {@code statestore.cache.max.bytes=64 MiB} per instance, shared by its
   *     stream threads (Kafka Streams' default is 10 MiB): retiring a generation of the window
   *     journals, in one step, an evicted-write slot and the key's latest evicted write for every
   *     write of the W/2 transactions retired, and the stores' record cache must hold that burst to
   *     collapse it before the commit; with 10 MiB it overflowed at W = 20,000 and every one of those
   *     writes reached the changelog (docs/PERFORMANCE.md, streaming)
   */
  public static Properties streamsProperties(String applicationId, String bootstrapServers) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, RecordSerde.class.getName());
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, Long.toString(64L << 20));
    return p;
  }
}
