package io.isowatch.connectors.debezium.cdc;

import io.isowatch.connectors.debezium.engine.ChangeStream;
import io.isowatch.connectors.debezium.envelope.Rejects;
import io.isowatch.schemas.debezium.Envelope;
import io.isowatch.schemas.debezium.EnvelopeException;
import io.isowatch.schemas.debezium.JsonEnvelopes;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes JSON change events ({@link JsonEnvelopes}) and feeds them to a {@link
 * TransactionAssembler}: the one path from Debezium's envelope to grouped database transactions,
 * used both by the embedded engine ({@link ChangeStream.Handler}) and by the Kafka topic adapter.
 * Events that cannot be decoded go to {@link Rejects}, are counted ({@link #rejected()}) and logged.
 * Not thread-safe, like the assembler.
 */
public final class ChangeAssembly implements ChangeStream.Handler {
  private static final Logger LOG = LoggerFactory.getLogger(ChangeAssembly.class);

  private final TransactionAssembler assembler;
  private final Rejects rejects;
  private final AtomicLong rejected = new AtomicLong();

  /**
   * @param assembler receives every decoded event
   * @param rejects receives undecodable events with the reason
   */
  public ChangeAssembly(TransactionAssembler assembler, Rejects rejects) {
    this.assembler = assembler;
    this.rejects = rejects;
  }

  /**
   * @param destination the topic, used only in the log line of a rejected event
   * @param key unused
   * @param value the envelope as JSON; null (a tombstone) is skipped
   */
  @Override
  public void handle(String destination, String key, String value) {
    Optional<Envelope> e;
    try {
      e = JsonEnvelopes.parse(value);
    } catch (EnvelopeException ex) {
      rejected.incrementAndGet();
      LOG.warn("change event on {} rejected: {}", destination, ex.getMessage());
      rejects.reject("bad-envelope: " + ex.getMessage(), value);
      return;
    }
    e.ifPresent(assembler::accept);
  }

  /** @return how many events were rejected so far */
  public long rejected() {
    return rejected.get();
  }
}
