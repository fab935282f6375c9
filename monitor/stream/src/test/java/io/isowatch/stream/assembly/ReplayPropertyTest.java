package io.isowatch.stream.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.reference.PermissiveHistories;
import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.replay.HistoryEvents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KeyValue;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The assembler against its source: a random permissive history (registers and list-append,
 * committed, aborted and unknown transactions), replayed as op-level events with the sessions
 * interleaved at random and about one event in eight delivered twice, comes out as exactly the
 * history's transactions, each session's in {@code so}, the unknown ones after the open timeout,
 * with no dead letter and every copy counted as a duplicate.
 */
class ReplayPropertyTest {
  private static final Duration OPEN = Duration.ofSeconds(10);
  private static final MonitorConfig CONFIG = MonitorConfig.defaults()
      .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(1), OPEN);

  private static Path dir;
  private static AssemblerDriver d;
  private static long clock;
  private static int run;

  @BeforeContainer
  static void start() throws IOException {
    dir = Files.createTempDirectory("replay-property");
    d = new AssemblerDriver(CONFIG, dir);
  }

  @AfterContainer
  static void stop() throws IOException {
    d.close();
    Utils.delete(dir.toFile());
  }

  /** Each try is its own history ({@code db<n>}) later in stream time, so one driver serves all. */
  @Property(tries = 100)
  void theAssembledTransactionsAreTheHistorys(@ForAll long seed) {
    History h = PermissiveHistories.generate(seed);
    String db = "db" + run++;
    List<TxnEvent> events = HistoryEvents.interleaved(h, db, clock, seed);
    {
      d.out();
      double before = d.duplicates();
      SplittableRandom rnd = new SplittableRandom(seed ^ 0x77);
      List<KeyValue<String, byte[]>> copies = new ArrayList<>();
      Map<String, Instant> begin = new HashMap<>();
      Map<String, Instant> end = new HashMap<>();
      int duplicates = 0;
      long last = 0;
      for (TxnEvent e : events) {
        KeyValue<String, byte[]> record = KeyValue.pair(db + "/" + e.getSessionId(), RecordCodec.encode(e));
        last = e.getTime().toEpochMilli();
        d.send(record.key, record.value, last);
        if (rnd.nextInt(8) == 0) {
          copies.add(record);
        }
        if (rnd.nextInt(4) == 0 && !copies.isEmpty()) {
          KeyValue<String, byte[]> copy = copies.remove(rnd.nextInt(copies.size()));
          d.send(copy.key, copy.value, last);
          duplicates++;
        }
        if (e.getKind() == EventKind.BEGIN) {
          begin.put(e.getTxnId(), e.getTime());
        } else if (e.getKind() == EventKind.COMMIT || e.getKind() == EventKind.ABORT) {
          end.put(e.getTxnId(), e.getTime());
        }
      }
      for (KeyValue<String, byte[]> copy : copies) {
        d.send(copy.key, copy.value, last);
        duplicates++;
      }
      long tick = last + OPEN.toMillis() + 1_000;
      d.send(AssemblerDriver.begin("clock", "tick" + db, run - 1, tick));
      clock = tick + 1_000;

      Map<String, List<Transaction>> actual = new HashMap<>();
      List<KeyValue<String, SpecificRecord>> out = d.out();
      for (KeyValue<String, SpecificRecord> kv : out) {
        assertThat(kv.value).as("seed %d", seed).isInstanceOf(Transaction.class);
        Transaction t = (Transaction) kv.value;
        if (!t.getHistoryId().equals(db)) {
          continue; // a clock transaction of an earlier try, timed out
        }
        actual.computeIfAbsent(t.getSessionId(), s -> new ArrayList<>()).add(t);
      }
      Map<String, List<Transaction>> expected = new HashMap<>();
      for (int s = 0; s < h.sessionCount(); s++) {
        var txns = h.sessionTxns(s);
        List<Transaction> list = new ArrayList<>();
        for (int i = 0; i < txns.size(); i++) {
          String id = db + "/T" + txns.getInt(i);
          list.add(HistoryEvents.transaction(h, db, txns.getInt(i), i, begin.get(id),
              end.getOrDefault(id, Instant.ofEpochMilli(tick))));
        }
        expected.put(h.sessionName(s), list);
      }
      assertThat(actual).as("seed %d", seed).isEqualTo(expected);
      assertThat(d.duplicates() - before).as("seed %d", seed).isEqualTo(duplicates);
    }
  }
}
