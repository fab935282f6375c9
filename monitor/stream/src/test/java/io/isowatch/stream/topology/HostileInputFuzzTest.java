package io.isowatch.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.WitnessTransaction;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.RecordSerde;
import io.isowatch.stream.assembly.SessionAssembler;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.config.MonitorConfig.Limits;
import io.isowatch.stream.metrics.MonitorMetrics;
import io.isowatch.stream.replay.HistoryEvents;
import io.isowatch.stream.replay.WriteSkewWorkload;
import io.isowatch.stream.topology.HostileRecords.Hostile;
import io.isowatch.stream.topology.HostileRecords.Mutation;
import io.isowatch.stream.topology.HostileRecords.Outcome;
import io.micrometer.core.instrument.Counter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-input fuzz test of the whole topology (issue 8): a known history with injected write
 * skews ({@link WriteSkewWorkload}), replayed as op-level events, is interleaved with hostile
 * records of every class of {@link HostileRecords.Mutation}. Asserts that no exception escapes; that
 * every hostile record gets exactly its outcome (a dead letter at its offset with the expected
 * reason class, an ignored duplicate, or acceptance); that every transaction, valid or accepted,
 * reaches the checker (nothing stalls); that the valid history's violations are exactly those of a
 * run without the hostile records; and that the hostile histories' are exactly one thin-air read
 * per injected read of a value nobody wrote.
 *
 * <p>Sizes: {@code -Disowatch.fuzz.records=N} hostile records (default 20,000) with one valid
 * transaction per hundred of them (at least 200); {@code -Disowatch.fuzz.seed=S} replays a run (default: a fresh seed,
 * printed, and named in any failure). For a long run:
 * {@code mvn -B -o -pl monitor/stream -am test -Dtest=HostileInputFuzzTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Disowatch.fuzz.records=1000000}.
 */
class HostileInputFuzzTest {
  private static final String APP = "fuzz";
  private static final String VALID = "valid";
  private static final String CLOCK = "clock";
  /** The session of the empty transactions that {@code Run.tick} sends to each history. */
  private static final String TICKS = "ticks";
  private static final Limits LIMITS = new Limits(1_000, 64, 200, 256, 1_000, 16_384);
  /** Hostile records pick a transaction among the last this many emitted. */
  private static final int RECENT = 50;

  @TempDir
  Path stateDir;

  @Test
  void hostileRecordsGoToTheDeadLetterTopicWithTheirReasonAndLeaveTheVerdictsAlone() {
    int records = Integer.getInteger("isowatch.fuzz.records", 20_000);
    long seed = Long.getLong("isowatch.fuzz.seed", new SplittableRandom().nextLong());
    System.out.println("HostileInputFuzzTest: seed " + seed + ", " + records + " hostile records");
    try {
      fuzz(records, seed);
    } catch (Throwable t) {
      throw new AssertionError("hostile-input fuzz failed; replay with -Disowatch.fuzz.seed=" + seed
          + " -Disowatch.fuzz.records=" + records, t);
    }
  }

  private void fuzz(int records, long seed) {
    int transactions = Math.max(200, records / 100);
    WriteSkewWorkload.Generated run = WriteSkewWorkload.generate(transactions, 8, Math.max(16, transactions / 50),
        40, seed);
    List<TxnEvent> valid = HistoryEvents.interleaved(run.history(), VALID, 1_000, seed);
    long span = valid.size() + 1_000L;
    MonitorConfig config = MonitorConfig.defaults().withWindow(1_000_000, Duration.ZERO)
        .withTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(span + 60_000))
        .withLimits(LIMITS);
    long tick = span + 1_000 + config.openTimeout().toMillis() + 120_000;

    long t0 = System.nanoTime();
    Run baseline = new Run(config, stateDir.resolve("baseline"));
    for (TxnEvent e : valid) {
      baseline.send(key(e), RecordCodec.encode(e), e.getTime().toEpochMilli());
    }
    baseline.tick(tick);
    List<KeyValue<String, SpecificRecord>> expected = baseline.violations(VALID);
    assertThat(expected).hasSize(run.skews().size());
    assertThat(baseline.letters).isZero();
    baseline.close();
    System.out.printf("HostileInputFuzzTest: baseline of %d events in %.1f s%n", valid.size(),
        (System.nanoTime() - t0) / 1e9);

    long started = System.nanoTime();
    Run fuzzed = new Run(config, stateDir.resolve("fuzzed"));
    HostileRecords hostile = new HostileRecords(seed, LIMITS);
    SplittableRandom mix = new SplittableRandom(seed ^ 0x5DEECE66DL);
    ArrayDeque<List<TxnEvent>> recent = new ArrayDeque<>();
    Map<String, List<TxnEvent>> open = new HashMap<>();
    Map<Mutation, Integer> perClass = new EnumMap<>(Mutation.class);
    List<Hostile> incomplete = new ArrayList<>();
    int accepted = 0;
    int duplicates = 0;
    int sent = 0;
    int v = 0;
    while (v < valid.size() || sent < records) {
      boolean hostileTurn = !recent.isEmpty() && sent < records
          && (v == valid.size() || mix.nextInt(records - sent + valid.size() - v) < records - sent);
      if (!hostileTurn) {
        TxnEvent e = valid.get(v++);
        fuzzed.send(key(e), RecordCodec.encode(e), e.getTime().toEpochMilli());
        List<TxnEvent> events = open.computeIfAbsent(e.getTxnId(), id -> new ArrayList<>());
        events.add(e);
        if (e.getKind() == EventKind.COMMIT) {
          open.remove(e.getTxnId());
          if (events.size() >= 3) { // BEGIN, at least one operation, COMMIT
            recent.addLast(events);
            if (recent.size() > RECENT) {
              recent.removeFirst();
            }
          }
        }
        continue;
      }
      List<List<TxnEvent>> pool = new ArrayList<>(recent);
      Hostile h = hostile.next(pool.get(mix.nextInt(pool.size())));
      sent++;
      if (h == null) {
        continue;
      }
      perClass.merge(h.mutation(), 1, Integer::sum);
      if (h.outcome() == Outcome.DEAD_LETTER || h.outcome() == Outcome.DEAD_LETTER_ANY_REASON) {
        fuzzed.expectNext(h);
      }
      fuzzed.send(h.key(), h.value(), fuzzed.clock);
      switch (h.outcome()) {
        case DEAD_LETTER, DEAD_LETTER_ANY_REASON -> { }
        case DUPLICATE -> duplicates++;
        case ACCEPTED -> accepted++;
        default -> {
          accepted++;
          incomplete.add(h);
        }
      }
    }
    fuzzed.tick(tick);
    fuzzed.drain();
    double seconds = (System.nanoTime() - started) / 1e9;

    System.out.printf("HostileInputFuzzTest: seed %d: %d valid events, %d hostile records (%d bit flips not sent,"
            + " decoding to another transaction), %d dead letters in %.1f s; per class %s; dead letters by reason %s%n",
        seed, valid.size(), records, hostile.skippedFlips(), fuzzed.letters, seconds, perClass,
        new TreeMap<>(fuzzed.lettersByReason));
    assertThat(fuzzed.unmatched).as("hostile records with no dead letter").isEmpty();
    List<String> timerLetters = new ArrayList<>();
    for (KeyValue<String, DeadLetter> kv : fuzzed.timerLetters) {
      timerLetters.add(kv.key + " " + kv.value.getReason());
    }
    List<String> expectedTimerLetters = new ArrayList<>();
    for (Hostile h : incomplete) {
      String session = h.key();
      expectedTimerLetters.add(session + " incomplete-transaction: transaction " + h.txnId() + " of session "
          + session + " is still incomplete " + config.openTimeout() + " after its first event; opIndex 1 never"
          + " arrived, so it is emitted with status UNKNOWN and operations 1..0, leaving out opIndex " + h.endIndex());
    }
    assertThat(timerLetters).containsExactlyInAnyOrderElementsOf(expectedTimerLetters);
    assertThat(fuzzed.counter("isowatch.input.duplicates")).isEqualTo(duplicates);
    assertThat(fuzzed.counter("isowatch.transactions.checked"))
        .as("every valid and accepted transaction reaches the checker")
        .isEqualTo(run.history().txnCount() + accepted + 6);
    assertThat(fuzzed.dlqByReason()).isEqualTo(fuzzed.lettersByReason);
    assertThat(fuzzed.violations(VALID)).as("the valid history's violations").isEqualTo(expected);
    Set<List<String>> ghosts = new HashSet<>();
    for (KeyValue<String, SpecificRecord> kv : fuzzed.violations) {
      if (!kv.key.equals(VALID)) {
        Violation x = (Violation) kv.value;
        ghosts.add(List.of(x.getHistoryId(), x.getAnomaly(),
            x.getWitness().getTransactions().stream().map(WitnessTransaction::getTxnId).toList().toString()));
      }
    }
    Set<List<String>> expectedGhosts = new HashSet<>();
    for (int i = 0; i < perClass.getOrDefault(Mutation.THIN_AIR_READ, 0); i++) {
      expectedGhosts.add(List.of(HostileRecords.GHOST, "thin-air-read", "[ghost-" + i + "]"));
    }
    assertThat(ghosts).isEqualTo(expectedGhosts);
    fuzzed.close();
  }

  private static String key(TxnEvent e) {
    return e.getHistoryId() + "/" + e.getSessionId();
  }

  /** One topology in a {@link TopologyTestDriver}, with what it has output so far. */
  private static final class Run implements AutoCloseable {
    private final MonitorMetrics metrics = MonitorMetrics.inMemory();
    private final TopologyTestDriver driver;
    private final TestInputTopic<String, byte[]> events;
    private final TestOutputTopic<String, SpecificRecord> dlq;
    private final TestOutputTopic<String, SpecificRecord> out;
    final List<KeyValue<String, SpecificRecord>> violations = new ArrayList<>();
    final List<KeyValue<String, DeadLetter>> timerLetters = new ArrayList<>();
    final Map<String, Integer> lettersByReason = new HashMap<>();
    /** Offset to the hostile record sent there, until its dead letter is seen. */
    final Map<Long, Hostile> unmatched = new HashMap<>();
    long letters;
    long clock;
    private long offset;

    Run(MonitorConfig config, Path stateDir) {
      Properties p = MonitorTopology.streamsProperties(APP, "unused:9092");
      p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
      driver = new TopologyTestDriver(MonitorTopology.build(config, metrics), p);
      events = driver.createInputTopic(config.eventsTopic(), new StringSerializer(), new ByteArraySerializer());
      dlq = driver.createOutputTopic(config.dlqTopic(), new StringDeserializer(), new RecordSerde().deserializer());
      out = driver.createOutputTopic(config.violationsTopic(), new StringDeserializer(), new RecordSerde().deserializer());
    }

    void send(String key, byte[] value, long ms) {
      events.pipeInput(key, value, ms);
      clock = Math.max(clock, ms);
      if (offset++ % 1_000 == 999) {
        drain();
      }
    }

    /** Expects a dead letter of the next record sent. */
    void expectNext(Hostile h) {
      unmatched.put(offset, h);
    }

    /**
     * Sends two empty transactions to each of the histories {@value #CLOCK}, {@value #VALID} and
     * {@link HostileRecords#GHOST} (a session {@value #TICKS} of their own), at {@code ms} and two
     * seconds later: they fire every timer of the assembler, and move each history's event time on
     * this partition past every read grace; then lets the wall clock reach the assembler's watermark
     * punctuation, which gives the checker each history's progress (its read grace's clock). The
     * second is for the driver, which runs both sub-topologies in one task with one stream time.
     */
    void tick(long ms) {
      for (int i = 0; i < 2; i++) {
        long at = ms + 2_000L * i;
        for (String history : List.of(CLOCK, VALID, HostileRecords.GHOST)) {
          TxnEvent c = new TxnEvent(history, TICKS, history + "/tick-" + i, (long) i, 1, EventKind.COMMIT, null,
              null, Instant.ofEpochMilli(at), null);
          send(history + "/" + TICKS, RecordCodec.encode(c), at);
        }
      }
      driver.advanceWallClockTime(SessionAssembler.WATERMARK_INTERVAL); // the assembler sends its watermark
      drain();
    }

    /** Reads the output topics, matching each dead letter of an input record with what was sent there. */
    void drain() {
      violations.addAll(out.readKeyValuesToList());
      for (KeyValue<String, SpecificRecord> kv : dlq.readKeyValuesToList()) {
        DeadLetter d = (DeadLetter) kv.value;
        String reasonClass = d.getReason().substring(0, d.getReason().indexOf(": "));
        letters++;
        lettersByReason.merge(reasonClass, 1, Integer::sum);
        Hostile h = d.getTopic().equals(MonitorConfig.EVENTS) ? unmatched.remove(d.getOffset()) : null;
        if (d.getTopic().equals(MonitorConfig.EVENTS) && d.getOffset() < 0) {
          timerLetters.add(KeyValue.pair(kv.key, d));
          continue;
        }
        if (h == null) {
          throw new AssertionError("unexpected dead letter: " + kv);
        }
        assertThat(d.getRaw()).isEqualTo(h.value() == null ? null : ByteBuffer.wrap(h.value()));
        if (h.outcome() == Outcome.DEAD_LETTER) {
          assertThat(reasonClass).as("%s at offset %d: %s", h.mutation(), d.getOffset(), d.getReason())
              .isEqualTo(h.reasonClass());
        }
      }
    }

    List<KeyValue<String, SpecificRecord>> violations(String historyId) {
      return violations.stream().filter(kv -> kv.key.equals(historyId)).toList();
    }

    double counter(String name) {
      return metrics.registry().get(name).counter().count();
    }

    Map<String, Integer> dlqByReason() {
      Map<String, Integer> m = new HashMap<>();
      for (Counter c : metrics.registry().find("isowatch.dlq.records").counters()) {
        m.put(c.getId().getTag("reason"), (int) c.count());
      }
      return m;
    }

    @Override
    public void close() {
      driver.close();
    }
  }
}
