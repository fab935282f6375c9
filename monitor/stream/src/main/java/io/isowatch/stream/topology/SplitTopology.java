package io.isowatch.stream.topology;

import io.isowatch.checker.window.CheckFamily;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.stream.check.CheckerStage;
import io.isowatch.stream.check.ViolationMerge;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The checker stage split over one sub-topology per family of checks ({@link CheckFamily}), so
 * that one history's checking runs in as many tasks, on as many stream threads or instances:
 *
 * <pre>
 * assembled Transactions and SourceWatermarks (key historyId)
 *   → per family f: repartition topic {@value MonitorTopology#BY_HISTORY}-f
 *       → {@value MonitorTopology#CHECKER}-f: the family's checker (stores isowatch-check-f-*)
 *       → split: DeadLetter → dlq topic (the first family's only)
 *                Violation, progress → repartition topic {@value #FOUND}-f
 *   → merge of the families' topics → {@value #MERGE}: {@link ViolationMerge} → violations topic
 * </pre>
 *
 * <p>Every family's checker keeps the same window over the same records (the assembler writes each
 * record to every family's topic, in one order, within one transaction); it runs only its family's
 * checks. The merge publishes each violation id once. A sub-topology cannot read a topic another
 * reads, so each family has a topic of its own; the merge's sub-topology reads every family's
 * found-topic, co-partitioned by historyId (all have the events topic's partition count, as the
 * families' topics do). A violation waits for one more commit than in the whole topology (about
 * {@code commit.interval.ms}).
 */
final class SplitTopology {
  /** Name of each family's repartition of what it found; the topic is {@code <application.id>-}{@value}{@code -<family>-repartition}. */
  static final String FOUND = "isowatch-found";
  /** The merge's processor node. */
  static final String MERGE = "isowatch-merge";

  private SplitTopology() {}

  /**
   * Adds every family's checker and the merge after {@code transactions}.
   *
   * @param transactions the assembler's Transactions and SourceWatermarks, keyed by historyId
   * @param internal the serde of the internal topics' values
   */
  static void checkers(MonitorConfig config, MonitorMetrics metrics, KStream<String, SpecificRecord> transactions,
      Serde<SpecificRecord> internal) {
    List<KStream<String, SpecificRecord>> found = new ArrayList<>();
    boolean primary = true;
    for (CheckFamily f : CheckFamily.values()) {
      String checked = MonitorTopology.CHECKED + f.id() + "-";
      Map<String, KStream<String, SpecificRecord>> out = transactions
          .repartition(Repartitioned.<String, SpecificRecord>as(MonitorTopology.BY_HISTORY + "-" + f.id())
              .withKeySerde(Serdes.String()).withValueSerde(internal))
          .process(CheckerStage.supplier(config, metrics, f, primary), Named.as(MonitorTopology.CHECKER + "-" + f.id()))
          .split(Named.as(checked))
          .branch((k, v) -> v instanceof DeadLetter, Branched.as("dead-letters"))
          .defaultBranch(Branched.as("found"));
      out.get(checked + "dead-letters").to(config.dlqTopic(), Produced.as("isowatch-checker-dlq-" + f.id()));
      found.add(out.get(checked + "found").repartition(Repartitioned.<String, SpecificRecord>as(FOUND + "-" + f.id())
          .withKeySerde(Serdes.String()).withValueSerde(internal)));
      primary = false;
    }
    KStream<String, SpecificRecord> merged = found.get(0);
    for (int i = 1; i < found.size(); i++) {
      merged = merged.merge(found.get(i), Named.as(MERGE + "-inputs-" + i));
    }
    merged.process(ViolationMerge.supplier(config, EnumSet.allOf(CheckFamily.class), metrics), Named.as(MERGE))
        .to(config.violationsTopic(), Produced.as("isowatch-violations"));
  }
}
