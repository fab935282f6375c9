package io.isowatch.stream.check;

import io.isowatch.checker.window.CheckFamily;
import io.isowatch.checker.window.WindowConfig;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The checker stage of the monitor's topology: Transactions keyed by historyId in, Violations
 * (keyed by historyId) and DeadLetters out. Each history is checked by a {@link
 * io.isowatch.checker.window.WindowChecker}; see {@link CheckerProcessor} for what is published.
 *
 * <p>Its eight stores are persistent key-value stores (RocksDB) with change logging on, the Kafka
 * Streams default, so that a task restored elsewhere after a crash rebuilds the same state (Kafka
 * Streams documentation, "State", "Fault-tolerant state stores"); they are declared by the supplier
 * ({@link ProcessorSupplier#stores()}), which connects them to the processor. Each has the record
 * cache on ({@code withCachingEnabled}, sized by {@code statestore.cache.max.bytes}): repeated
 * writes of one key within a commit interval (the meta entry, written after every transaction; a
 * key's latest evicted write) reach RocksDB and the changelog once, when the cache is flushed, which
 * Kafka Streams does before every commit (Kafka Streams documentation, "Memory Management", "Record
 * caches in the Processor API"), so what a commit covers is in the changelog.
 */
public final class CheckerStage {
  /**
   * Header of every violation record the checker publishes: the publishing application's {@code
   * application.id} (UTF-8). The {@code Violation} schema does not name its producer, and several
   * monitor applications may share one violations topic; {@link
   * io.isowatch.stream.app.ViolationFeed} reads this header to follow one application's violations.
   */
  public static final String APPLICATION_ID_HEADER = "isowatch.application-id";
  /** Store of the live window's transactions. */
  public static final String WINDOW_STORE = "isowatch-check-window";
  /** Store of transactions held for a writer. */
  public static final String HELD_STORE = "isowatch-check-held";
  /** Store of reported violation ids. */
  public static final String REPORTED_STORE = "isowatch-check-reported";
  /** Store of fingerprints of evicted writes. */
  public static final String EVICTED_STORE = "isowatch-check-evicted";
  /** Store of the latest evicted write of each key. */
  public static final String LAST_WRITES_STORE = "isowatch-check-last-writes";
  /** Store of the longest fully known list read of each list key. */
  public static final String LISTS_STORE = "isowatch-check-lists";
  /** Store of each history's small state. */
  public static final String META_STORE = "isowatch-check-meta";
  /** Store of the events topic's partitions' watermarks ({@link SourceClock}). */
  public static final String SOURCES_STORE = "isowatch-check-sources";

  private CheckerStage() {}

  /**
   * @param config the monitor's configuration: expected level per history, window, read grace
   * @param metrics where the stage counts
   * @return the supplier of the checker processor, with its stores
   */
  public static ProcessorSupplier<String, SpecificRecord, String, SpecificRecord> supplier(
      MonitorConfig config, MonitorMetrics metrics) {
    return supplier(config, metrics, Lane.WHOLE);
  }

  /**
   * The checker of one family of checks, when a history's checking is split over several tasks
   * ({@link io.isowatch.stream.topology.MonitorTopology}): its stores are named after the family
   * ({@link #storeName}), and it publishes for the merge ({@link ViolationMerge}): each violation
   * with the headers {@value CheckerProcessor#FAMILY_HEADER} and {@value
   * CheckerProcessor#LAST_SEQ_HEADER}, and each history's progress (a record with no value and the
   * header {@value CheckerProcessor#PROGRESS_HEADER}) whenever its window's oldest generation moves.
   *
   * @param family the family this checker runs
   * @param primary whether this family's checker is the one that counts what every family's
   *     checker sees alike (transactions checked, unresolved reads, window gauges, dead letters) and
   *     publishes the dead letters
   * @return the supplier of the family's checker processor, with its stores
   */
  public static ProcessorSupplier<String, SpecificRecord, String, SpecificRecord> supplier(
      MonitorConfig config, MonitorMetrics metrics, CheckFamily family, boolean primary) {
    return supplier(config, metrics, new Lane(family, primary));
  }

  /**
   * @param family the family of checks a split checker runs; null for the whole check, not split
   * @param primary whether it counts and publishes what every family sees alike
   */
  record Lane(CheckFamily family, boolean primary) {
    static final Lane WHOLE = new Lane(null, true);

    boolean split() {
      return family != null;
    }
  }

  private static ProcessorSupplier<String, SpecificRecord, String, SpecificRecord> supplier(
      MonitorConfig config, MonitorMetrics metrics, Lane lane) {
    WindowConfig window = lane.split() ? windowConfig(config).withFamilies(Set.of(lane.family()))
        : windowConfig(config);
    return new ProcessorSupplier<>() {
      @Override
      public Processor<String, SpecificRecord, String, SpecificRecord> get() {
        return new CheckerProcessor(config, window, metrics, lane);
      }

      @Override
      public Set<StoreBuilder<?>> stores() {
        return Set.of(store(WINDOW_STORE, lane), store(HELD_STORE, lane), store(REPORTED_STORE, lane),
            store(EVICTED_STORE, lane), store(LAST_WRITES_STORE, lane), store(LISTS_STORE, lane),
            store(META_STORE, lane), store(SOURCES_STORE, lane));
      }
    };
  }

  /**
   * @param store one of the stage's store names ({@link #WINDOW_STORE} ...)
   * @param family the family of a split checker, or null
   * @return the store's name in that checker: {@code store} itself for the whole check, else with
   *     the family after {@code isowatch-check-} ({@code isowatch-check-axiomatic-window})
   */
  public static String storeName(String store, CheckFamily family) {
    String prefix = "isowatch-check-";
    return family == null ? store : prefix + family.id() + "-" + store.substring(prefix.length());
  }

  /**
   * @return the window checker's bounds from the monitor's configuration, its read grace on the
   *     partitions' watermarks
   */
  static WindowConfig windowConfig(MonitorConfig config) {
    return WindowConfig.of(config.windowTransactions(), config.windowTime().toNanos() / 1000,
        config.readGrace().toNanos() / 1000).withWatermarks();
  }

  private static StoreBuilder<KeyValueStore<Bytes, byte[]>> store(String name, Lane lane) {
    return store(storeName(name, lane.family()));
  }

  /** @return a persistent, logged, cached key-value store of bytes named {@code name} */
  static StoreBuilder<KeyValueStore<Bytes, byte[]>> store(String name) {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
        .withCachingEnabled();
  }
}
