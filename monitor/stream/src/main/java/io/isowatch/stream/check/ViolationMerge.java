package io.isowatch.stream.check;

import io.isowatch.checker.window.CheckFamily;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.mapping.ViolationMapping;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The merge of a split check ({@link CheckerStage#supplier(MonitorConfig, MonitorMetrics,
 * CheckFamily, boolean)}): the violations of every family's checker of a history, keyed by
 * historyId, in; each violation id out once, keyed by historyId, with only the header {@value
 * CheckerStage#APPLICATION_ID_HEADER}.
 *
 * <p><b>Why ids repeat.</b> Each family's checker reports each id once, but two families can find
 * the same violation: every family's window establishes the same thin-air reads, and on a
 * list-append history a read anomaly (aborted or intermediate read) is found by the axiomatic and
 * the Adya checks alike, with the same id (the anomaly, its transactions, evidence operation and
 * weakest level broken, {@link io.isowatch.checker.window.ViolationIds}). The merge keeps every id
 * it published, with the feed position of its latest transaction (header {@value
 * CheckerProcessor#LAST_SEQ_HEADER}), and drops a repeat.
 *
 * <p><b>Forgetting.</b> Every family's checker publishes, with no value and the header {@value
 * CheckerProcessor#PROGRESS_HEADER}, where its window's oldest live generation starts; it cannot
 * find a violation whose transactions were all fed before that. An id is forgotten once every
 * family's start is past its latest transaction by more than W, the window: the families feed the
 * same transactions in the same order (one assembler writes the same records, in the same order,
 * to each family's topic), except that transactions held for a writer may be released at different
 * positions when a checker gives up waiting on the wall clock; W bounds that difference, since a
 * checker holds fewer transactions than its window. So memory is bounded by the ids of about two
 * windows, as in each checker.
 *
 * <p><b>State.</b> Two persistent, logged stores: {@value #PUBLISHED_STORE} (history prefix and id
 * to the latest feed position, 8 bytes) and {@value #PROGRESS_STORE} (history prefix and family id
 * to its window start, 8 bytes); what a commit covers is in the changelog, so after a crash or a
 * rebalance the merge drops exactly what it dropped before.
 */
public final class ViolationMerge implements Processor<String, SpecificRecord, String, SpecificRecord> {
  /** Store of the ids published, per history. */
  public static final String PUBLISHED_STORE = "isowatch-merge-published";
  /** Store of each family's window start, per history. */
  public static final String PROGRESS_STORE = "isowatch-merge-progress";

  private static final BytesSerializer PREFIX = new BytesSerializer();
  private final int window;
  private final MonitorMetrics metrics;
  private final Set<CheckFamily> families;
  private ProcessorContext<String, SpecificRecord> context;
  private KeyValueStore<Bytes, byte[]> published;
  private KeyValueStore<Bytes, byte[]> progress;

  private ViolationMerge(int window, Set<CheckFamily> families, MonitorMetrics metrics) {
    this.window = window;
    this.families = families;
    this.metrics = metrics;
  }

  /**
   * @param config the monitor's configuration (its window W)
   * @param families the families whose checkers feed the merge
   * @param metrics counts each violation published ({@link MonitorMetrics#violation})
   * @return the supplier of the merge, with its two stores
   */
  public static ProcessorSupplier<String, SpecificRecord, String, SpecificRecord> supplier(
      MonitorConfig config, Set<CheckFamily> families, MonitorMetrics metrics) {
    return new ProcessorSupplier<>() {
      @Override
      public Processor<String, SpecificRecord, String, SpecificRecord> get() {
        return new ViolationMerge(config.windowTransactions(), families, metrics);
      }

      @Override
      public Set<StoreBuilder<?>> stores() {
        return Set.of(CheckerStage.store(PUBLISHED_STORE), CheckerStage.store(PROGRESS_STORE));
      }
    };
  }

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    published = context.getStateStore(PUBLISHED_STORE);
    progress = context.getStateStore(PROGRESS_STORE);
  }

  /**
   * @param record a family's violation (with {@value CheckerProcessor#LAST_SEQ_HEADER}) or progress
   *     (no value, with {@value CheckerProcessor#FAMILY_HEADER} and {@value
   *     CheckerProcessor#PROGRESS_HEADER}); the merge's input is internal, written only by the
   *     checkers, so anything else is a bug
   * @throws IllegalStateException for a record without those headers
   */
  @Override
  public void process(Record<String, SpecificRecord> record) {
    if (record.value() == null) {
      String family = new String(header(record.headers(), CheckerProcessor.FAMILY_HEADER), StandardCharsets.UTF_8);
      progressed(record.key(), family, StoreKeys.longOf(header(record.headers(), CheckerProcessor.PROGRESS_HEADER)));
      return;
    }
    Violation v = (Violation) record.value();
    long lastSeq = StoreKeys.longOf(header(record.headers(), CheckerProcessor.LAST_SEQ_HEADER));
    Bytes key = StoreKeys.withString(StoreKeys.prefix(v.getHistoryId()), v.getViolationId());
    if (published.get(key) != null) {
      return;
    }
    published.put(key, StoreKeys.longBytes(lastSeq));
    Headers out = new RecordHeaders().add(CheckerStage.APPLICATION_ID_HEADER,
        header(record.headers(), CheckerStage.APPLICATION_ID_HEADER));
    context.forward(record.withHeaders(out));
    metrics.violation(ViolationMapping.level(v).cliName(), v.getAnomaly());
  }

  /** Stores a family's window start and forgets the ids no family can publish again. */
  private void progressed(String historyId, String family, long start) {
    byte[] prefix = StoreKeys.prefix(historyId);
    progress.put(StoreKeys.withString(prefix, family), StoreKeys.longBytes(start));
    long least = Long.MAX_VALUE;
    for (CheckFamily f : families) {
      byte[] s = progress.get(StoreKeys.withString(prefix, f.id()));
      if (s == null) {
        return; // a family that has not started this history may still publish anything
      }
      least = Math.min(least, StoreKeys.longOf(s));
    }
    List<Bytes> forgotten = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> it = published.prefixScan(Bytes.wrap(prefix), PREFIX)) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        if (StoreKeys.longOf(kv.value) + window < least) {
          forgotten.add(kv.key);
        }
      }
    }
    forgotten.forEach(published::delete);
  }

  private static byte[] header(Headers headers, String name) {
    Header h = headers.lastHeader(name);
    if (h == null) {
      throw new IllegalStateException("a record of the merge lacks its header " + name);
    }
    return h.value();
  }
}
