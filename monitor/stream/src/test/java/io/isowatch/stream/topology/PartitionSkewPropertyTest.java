package io.isowatch.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.reference.PermissiveHistories;
import io.isowatch.schemas.SourceWatermark;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TrustedClasses;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.serde.RecordSerde;
import io.isowatch.stream.check.CheckerStage;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.replay.HistoryRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The differential test under partition skew: the checker stage fed a random permissive history
 * ({@link PermissiveHistories}) as it reaches the checker from several partitions of the events
 * topic, each delayed at random against the others, never publishes a violated level the offline
 * checkers do not find, and, on histories whose reads all name a writer, misses none.
 *
 * <p>Each try: transactions get end times one second apart in a random topological order of {@code
 * so ∪ wr} (a writer ends before its readers, as in a real database; where {@code so ∪ wr} has a
 * cycle, the lowest index first), sessions are spread over 2 to 5 partitions at random, and the
 * partitions' streams are merged in a random order that keeps each partition's own order, with each
 * partition's speed drawn at random so that some run far ahead (hundreds of seconds of event time
 * against a read grace of 3 s). After a transaction its partition's watermark (the largest end time
 * it has sent) follows with probability 1/3, as an assembler task's wall-clock punctuation would;
 * at the end every partition reports its last time and then idle. With the largest end time seen as
 * the clock, the reads of writers on a slow partition were published as thin-air reads.
 */
class PartitionSkewPropertyTest {
  private static final MonitorConfig CONFIG = MonitorConfig.defaults()
      .withWindow(1_000_000, Duration.ZERO)
      .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofMinutes(5));
  private static final String IN = "transactions";
  private static final String OUT = "violations";

  @Property(tries = 200)
  void partitionSkewInventsNoViolatedLevelAndMissesNone(@ForAll long seed) throws Exception {
    TrustedClasses.install(); // Transaction.newBuilder(t) resolves the enums by name
    History h = PermissiveHistories.generate(seed);
    SplittableRandom rnd = new SplittableRandom(seed);
    Order order = topological(h, rnd);
    List<Transaction> byIndex = new ArrayList<>();
    new HistoryRecords(h, "db", Instant.EPOCH, Duration.ofMillis(1))
        .forEachTransaction(k -> byIndex.add((Transaction) k.value()));
    int partitions = 2 + rnd.nextInt(4);
    Map<String, Integer> partitionOf = new HashMap<>();
    List<ArrayDeque<Transaction>> streams = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      streams.add(new ArrayDeque<>());
    }
    for (int i = 0; i < order.txns().length; i++) {
      Transaction t = byIndex.get(order.txns()[i]);
      Instant end = Instant.ofEpochSecond(1_000 + i);
      t = Transaction.newBuilder(t).setBeginTime(end.minusMillis(1)).setEndTime(end).build();
      int p = partitionOf.computeIfAbsent(t.getSessionId(), s -> rnd.nextInt(partitions));
      streams.get(p).add(t);
    }

    Set<Level> online = EnumSet.noneOf(Level.class);
    Path dir = Files.createTempDirectory("partition-skew");
    Properties props = MonitorTopology.streamsProperties("partition-skew", "unused:9092");
    props.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
    StreamsBuilder b = new StreamsBuilder();
    b.stream(IN, Consumed.with(Serdes.String(), new RecordSerde()))
        .process(CheckerStage.supplier(CONFIG, MonitorMetrics.inMemory()))
        .filter((k, v) -> v instanceof Violation)
        .to(OUT, Produced.with(Serdes.String(), new RecordSerde()));
    try (TopologyTestDriver driver = new TopologyTestDriver(b.build(), props)) {
      TestInputTopic<String, SpecificRecord> in =
          driver.createInputTopic(IN, Serdes.String().serializer(), new RecordSerde().serializer());
      double[] speed = new double[partitions];
      for (int p = 0; p < partitions; p++) {
        speed[p] = Math.pow(rnd.nextDouble(0.05, 1), 2);
      }
      long[] sent = new long[partitions];
      Arrays.fill(sent, Long.MIN_VALUE);
      int left = order.txns().length;
      while (left > 0) {
        int p = pick(streams, speed, rnd);
        Transaction t = streams.get(p).poll();
        in.pipeInput(t.getHistoryId(), t, t.getEndTime());
        sent[p] = t.getEndTime().getEpochSecond() * 1_000_000L;
        left--;
        if (rnd.nextInt(3) == 0) {
          in.pipeInput("db", new SourceWatermark("db", p, partitions, sent[p], false),
              t.getEndTime());
        }
      }
      for (boolean idle : new boolean[] {false, true}) {
        for (int p = 0; p < partitions; p++) {
          in.pipeInput("db", new SourceWatermark("db", p, partitions, sent[p], idle),
              Instant.ofEpochSecond(1_000 + order.txns().length));
        }
      }
      TestOutputTopic<String, SpecificRecord> out =
          driver.createOutputTopic(OUT, Serdes.String().deserializer(), new RecordSerde().deserializer());
      for (SpecificRecord r : out.readValuesToList()) {
        online.add(Level.valueOf(((Violation) r).getLevel().name()));
      }
    } finally {
      Utils.delete(dir.toFile());
    }
    OnlineVersusOfflinePropertyTest.Offline offline = OnlineVersusOfflinePropertyTest.offline(h);
    Set<Level> actual = OnlineVersusOfflinePropertyTest.upwardClosure(online, offline.compared());
    Set<Level> expected = offline.violated();
    assertThat(expected).as("seed %d: never a false alarm", seed).containsAll(actual);
    // A transaction of unknown outcome that is read from counts as committed offline from the start,
    // online only once its reader arrives (docs/levels.md): online may then find less, never more.
    if (!PermissiveHistories.hasThinAirRead(h) && !PermissiveHistories.hasReadUnknownOutcome(h) && order.acyclic()) {
      assertThat(actual).as("seed %d: nothing missed", seed).isEqualTo(expected);
    }
  }

  /** @return a partition with transactions left, drawn with probability in proportion to its speed */
  private static int pick(List<ArrayDeque<Transaction>> streams, double[] speed, SplittableRandom rnd) {
    double total = 0;
    for (int p = 0; p < streams.size(); p++) {
      total += streams.get(p).isEmpty() ? 0 : speed[p];
    }
    double x = rnd.nextDouble(total);
    int last = -1;
    for (int p = 0; p < streams.size(); p++) {
      if (!streams.get(p).isEmpty()) {
        last = p;
        x -= speed[p];
        if (x < 0) {
          return p;
        }
      }
    }
    return last;
  }

  /**
   * @param txns transaction indexes in the order of their end times
   * @param acyclic whether {@code so ∪ wr} had no cycle (else some reader precedes its writer)
   */
  private record Order(int[] txns, boolean acyclic) {}

  /** A random topological order of {@code so ∪ wr}; at a cycle, the lowest index left goes first. */
  private static Order topological(History h, SplittableRandom rnd) {
    int n = h.txnCount();
    List<List<Integer>> out = new ArrayList<>();
    int[] in = new int[n];
    for (int t = 0; t < n; t++) {
      out.add(new ArrayList<>());
    }
    Map<String, Integer> writer = new HashMap<>();
    for (int t = 0; t < n; t++) {
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        if (h.opKind(op) == OpKind.WRITE || h.opKind(op) == OpKind.APPEND) {
          writer.put(pair(h.opKey(op), h.opValue(op)), t);
        }
      }
    }
    int[] lastOfSession = new int[h.sessionCount()];
    Arrays.fill(lastOfSession, -1);
    for (int t = 0; t < n; t++) {
      int s = h.sessionOf(t);
      if (lastOfSession[s] >= 0) {
        edge(out, in, lastOfSession[s], t);
      }
      lastOfSession[s] = t;
      for (int op = h.opStart(t); op < h.opEnd(t); op++) {
        if (h.opKind(op) == OpKind.READ) {
          Integer w = writer.get(pair(h.opKey(op), h.opValue(op)));
          if (w != null && w != t) {
            edge(out, in, w, t);
          }
        } else if (h.opKind(op) == OpKind.READ_LIST && h.listKnown(op)) {
          for (int i = 0; i < h.listLength(op); i++) {
            Integer w = writer.get(pair(h.opKey(op), h.listElement(op, i)));
            if (w != null && w != t) {
              edge(out, in, w, t);
            }
          }
        }
      }
    }
    List<Integer> ready = new ArrayList<>();
    for (int t = 0; t < n; t++) {
      if (in[t] == 0) {
        ready.add(t);
      }
    }
    boolean[] done = new boolean[n];
    int[] order = new int[n];
    boolean acyclic = true;
    for (int i = 0; i < n; i++) {
      int t;
      if (ready.isEmpty()) {
        acyclic = false;
        t = 0;
        while (done[t]) {
          t++;
        }
      } else {
        t = ready.remove(rnd.nextInt(ready.size()));
      }
      done[t] = true;
      order[i] = t;
      for (int u : out.get(t)) {
        if (--in[u] == 0 && !done[u]) {
          ready.add(u);
        }
      }
    }
    return new Order(order, acyclic);
  }

  private static void edge(List<List<Integer>> out, int[] in, int from, int to) {
    out.get(from).add(to);
    in[to]++;
  }

  private static String pair(int key, long value) {
    return key + ":" + value;
  }
}
