package io.isowatch.stream.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.ToLongFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * {@link WholeRetention} against a literal transcription of what it must remember: a map from
 * txnId to entry, an entry dropped at the first forget at or after its due time. Random adds (due
 * times mostly rising, sometimes falling), forgets, restarts (a new instance loaded from the
 * store) and look-ups of remembered, forgotten and unknown txnIds, with the real hash and with a
 * hash of three values that makes most txnIds collide. After every step the store's chunks hold
 * exactly the model's entries, each chunk at most {@value WholeRetention#PER_CHUNK} of them, keyed by
 * its earliest due time and that entry's txnId.
 */
class WholeRetentionPropertyTest {
  /** One step: an add (due time), a forget (time), a restart, or a look-up (txnId number). */
  record Step(char kind, long n) {}

  @Property(tries = 300)
  void remembersExactlyTheEntriesNotYetDue(@ForAll("steps") List<Step> steps, @ForAll boolean weakHash) {
    ToLongFunction<String> hash = weakHash ? s -> s.hashCode() % 3 : WholeRetention::hash64;
    KeyValueStore<String, byte[]> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("deadlines"),
        Serdes.String(), Serdes.ByteArray()).withLoggingDisabled().withCachingDisabled().build();
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "whole-retention-test");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    MockProcessorContext<String, byte[]> ctx = new MockProcessorContext<>(p);
    store.init(ctx.getStateStoreContext(), store);
    try {
      WholeRetention r = new WholeRetention(store, hash);
      r.load();
      Map<String, WholeRetention.Entry> model = new LinkedHashMap<>();
      int next = 0;
      for (Step s : steps) {
        switch (s.kind()) {
          case 'a' -> {
            String id = "T" + next;
            WholeRetention.Entry e = new WholeRetention.Entry(id, "db\0s" + next % 5, next, s.n(),
                new byte[] {(byte) next, (byte) (next >> 8)});
            next++;
            assertThat(r.find(id)).isNull();
            r.add(e);
            model.put(id, e);
          }
          case 'f' -> {
            r.forgetDue(s.n());
            model.values().removeIf(e -> e.dueMs() <= s.n());
          }
          case 'r' -> {
            r = new WholeRetention(store, hash);
            r.load();
          }
          default -> {
            String id = "T" + s.n();
            WholeRetention.Entry want = model.get(id);
            WholeRetention.Entry got = r.find(id);
            if (want == null) {
              assertThat(got).isNull();
            } else {
              assertThat(got).usingRecursiveComparison().isEqualTo(want);
            }
          }
        }
        assertLayout(store, model);
      }
      for (String id : model.keySet()) {
        assertThat(r.find(id)).usingRecursiveComparison().isEqualTo(model.get(id));
      }
    } finally {
      store.close();
    }
  }

  private static void assertLayout(KeyValueStore<String, byte[]> store, Map<String, WholeRetention.Entry> model) {
    List<WholeRetention.Entry> stored = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    try (KeyValueIterator<String, byte[]> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<String, byte[]> kv = it.next();
        List<WholeRetention.Entry> chunk = WholeRetention.entries(kv.value);
        assertThat(chunk).isNotEmpty().hasSizeLessThanOrEqualTo(WholeRetention.PER_CHUNK);
        WholeRetention.Entry first = chunk.stream().min(Comparator.comparingLong(WholeRetention.Entry::dueMs)).orElseThrow();
        assertThat(kv.key).isEqualTo(AssemblerStores.deadline(WholeRetention.KIND, first.dueMs(), first.txnId()));
        assertThat(keys.add(kv.key)).isTrue();
        stored.addAll(chunk);
      }
    }
    assertThat(stored).usingRecursiveFieldByFieldElementComparator()
        .containsExactlyInAnyOrderElementsOf(model.values());
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Step> add = Arbitraries.longs().between(0, 200).map(d -> new Step('a', d));
    Arbitrary<Step> forget = Arbitraries.longs().between(0, 220).map(t -> new Step('f', t));
    Arbitrary<Step> restart = Arbitraries.just(new Step('r', 0));
    Arbitrary<Step> find = Arbitraries.longs().between(0, 120).map(n -> new Step('l', n));
    Arbitrary<Step> step = Arbitraries.frequencyOf(
        Tuple.of(12, add), Tuple.of(2, forget),
        Tuple.of(1, restart), Tuple.of(4, find));
    return step.list().ofMinSize(0).ofMaxSize(150).map(WholeRetentionPropertyTest::rising);
  }

  /**
   * Makes most adds' due times rise (as stream time does), by adding to each its position, so that
   * chunks fill; the random part still makes some fall.
   */
  private static List<Step> rising(List<Step> steps) {
    List<Step> out = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      Step s = steps.get(i);
      out.add(s.kind() == 'a' || s.kind() == 'f' ? new Step(s.kind(), s.n() / 10 + 2L * i) : s);
    }
    return out;
  }
}
