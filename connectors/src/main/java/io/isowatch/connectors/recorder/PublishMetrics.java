package io.isowatch.connectors.recorder;

import io.isowatch.schemas.Transaction;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happened to the recorded transactions on their way out of the application, as Micrometer
 * meters, so that no record is lost silently:
 *
 * <ul>
 *   <li>{@value #PUBLISHED} (counter): records the destination acknowledged (for Kafka: the broker
 *       acknowledged the write with {@code acks=all});
 *   <li>{@value #DROPPED} (counter, tag {@code reason} = one of {@link DropReason}'s ids): records
 *       given up, each also logged (SLF4J, WARN) with its transaction id;
 *   <li>{@value #BUFFERED} (gauge): records waiting in a {@link BufferedSink}.
 * </ul>
 *
 * <p>To keep the log bounded when a broker stays away, a drop is logged when the count of its
 * reason reaches 1, 2, 4, 8, ... (every power of two), each line giving the total so far; the
 * counter counts every one. Thread-safe.
 */
public final class PublishMetrics {
  /** Counter of records the destination acknowledged. */
  public static final String PUBLISHED = "isowatch.recorder.published";
  /** Counter of records given up, tagged by {@code reason}. */
  public static final String DROPPED = "isowatch.recorder.dropped";
  /** Gauge of records waiting in the buffer. */
  public static final String BUFFERED = "isowatch.recorder.buffered";

  private static final Logger LOG = LoggerFactory.getLogger(PublishMetrics.class);

  /** Why a record was given up. */
  public enum DropReason {
    /** The buffer stayed full for the whole configured wait. */
    BUFFER_FULL("buffer-full"),
    /** The destination refused or timed out (for Kafka: {@code max.block.ms}, {@code delivery.timeout.ms}). */
    PUBLISH_FAILED("publish-failed"),
    /** Still buffered, or offered, when the sink was closed and its close timeout ran out. */
    CLOSED("closed");

    private final String id;

    DropReason(String id) {
      this.id = id;
    }

    /** @return the {@code reason} tag's value, e.g. {@code buffer-full} */
    public String id() {
      return id;
    }
  }

  private final MeterRegistry registry;
  private final Counter published;
  private final Map<DropReason, Counter> dropped = new EnumMap<>(DropReason.class);

  /** @param registry where the meters are registered (e.g. the application's Prometheus registry) */
  public PublishMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.published = Counter.builder(PUBLISHED)
        .description("recorded transactions the destination acknowledged").register(registry);
    for (DropReason r : DropReason.values()) {
      dropped.put(r, Counter.builder(DROPPED).tag("reason", r.id())
          .description("recorded transactions given up, by reason").register(registry));
    }
  }

  /** Counts one record the destination acknowledged. */
  public void published() {
    published.increment();
  }

  /**
   * Counts one record given up, and logs it when the reason's count reaches a power of two.
   *
   * @param txn the record
   * @param reason why
   * @param cause the failure behind it, or null
   */
  public void dropped(Transaction txn, DropReason reason, Exception cause) {
    Counter c = dropped.get(reason);
    c.increment();
    long n = (long) c.count();
    if (Long.bitCount(n) == 1) {
      LOG.warn("isowatch recorder dropped transaction {} ({}{}); {} dropped for this reason so far",
          txn.getTxnId(), reason.id(), cause == null ? "" : ": " + cause, n);
    }
  }

  /** @return records acknowledged so far */
  public long publishedCount() {
    return (long) published.count();
  }

  /**
   * @param reason a reason
   * @return records given up for it so far
   */
  public long droppedCount(DropReason reason) {
    return (long) dropped.get(reason).count();
  }

  /** Registers the {@value #BUFFERED} gauge over a buffer (held weakly by Micrometer). */
  void gaugeBuffer(Collection<?> buffer) {
    Gauge.builder(BUFFERED, buffer, Collection::size)
        .description("recorded transactions waiting to be published").register(registry);
  }
}
