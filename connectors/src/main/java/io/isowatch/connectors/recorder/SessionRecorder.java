package io.isowatch.connectors.recorder;

import io.isowatch.connectors.privacy.Privacy;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One session's handle: records the operations of its open transaction in program order and
 * delivers the whole transaction to the sink when it ends.
 *
 * <p>Obtained from {@link TransactionRecorder#begin}. Meant for one thread at a time, like the
 * database connection it mirrors; its methods are synchronized so that handing it between threads
 * (a connection pool) is safe. Two vocabularies, one per key: registers ({@link #read}, {@link
 * #readInitial}, {@link #write}; values are the application's register values or version tokens,
 * unique per key) and lists ({@link #append}, {@link #readList}; elements unique per key, Elle's
 * list-append), whose reads reveal the version order, so that a history of lists decides snapshot
 * isolation and serializable by Adya's phenomena online. Keys and values are recorded through the recorder's {@link Privacy}: as keyed
 * hashes when it hashes, so the records (and the {@link Transaction} that {@link #commit} returns)
 * hold no plaintext.
 */
public final class SessionRecorder {
  private final String historyId;
  private final String sessionId;
  private final TransactionSink sink;
  private final LongSupplier clockMicros;
  private final Privacy privacy;

  private long nextSeq;
  private boolean open;
  private long beginMicros;
  private final List<Operation> ops = new ArrayList<>();

  SessionRecorder(
      String historyId, String sessionId, TransactionSink sink, LongSupplier clockMicros, Privacy privacy) {
    this.historyId = historyId;
    this.sessionId = sessionId;
    this.sink = sink;
    this.clockMicros = clockMicros;
    this.privacy = privacy;
  }

  synchronized void begin() {
    if (open) {
      throw new IllegalStateException(
          "session " + sessionId + ": transaction " + nextSeq + " has not ended; commit or abort it first");
    }
    open = true;
    beginMicros = clockMicros.getAsLong();
  }

  /**
   * Records that the transaction read {@code value} from {@code key}.
   *
   * @throws IllegalStateException if no transaction is open
   */
  public synchronized void read(String key, long value) {
    add(OpKind.READ, key, value);
  }

  /**
   * Records that the transaction read {@code key} and found its initial value (no row, or a value no
   * recorded transaction wrote).
   *
   * @throws IllegalStateException if no transaction is open
   */
  public synchronized void readInitial(String key) {
    add(OpKind.READ, key, null);
  }

  /**
   * Records that the transaction wrote {@code value} to {@code key}.
   *
   * @param value unique for the key across the history
   * @throws IllegalStateException if no transaction is open
   */
  public synchronized void write(String key, long value) {
    add(OpKind.WRITE, key, value);
  }

  /**
   * Records that the transaction appended {@code element} to the list at {@code key}.
   *
   * @param element unique for the key across the history
   * @throws IllegalStateException if no transaction is open
   */
  public synchronized void append(String key, long element) {
    add(OpKind.APPEND, key, element);
  }

  /**
   * Records that the transaction read the list at {@code key} and found {@code elements}, oldest
   * first; an empty list is the key's initial value.
   *
   * @param elements the list read, oldest first; copied
   * @throws IllegalStateException if no transaction is open
   */
  public synchronized void readList(String key, List<Long> elements) {
    requireOpen();
    List<Long> recorded = new ArrayList<>(elements.size());
    for (long e : elements) {
      recorded.add(privacy.value(e));
    }
    ops.add(new Operation(OpKind.READ, privacy.key(key), recorded));
  }

  /**
   * Records that the database acknowledged the commit, and delivers the transaction.
   *
   * @return the record delivered to the sink
   * @throws IllegalStateException if no transaction is open
   * @throws RuntimeException whatever the sink threw; the transaction is ended all the same
   */
  public synchronized Transaction commit() {
    return end(TxnStatus.COMMITTED);
  }

  /**
   * Records that the transaction rolled back, and delivers it.
   *
   * @return the record delivered to the sink
   * @throws IllegalStateException if no transaction is open
   * @throws RuntimeException whatever the sink threw; the transaction is ended all the same
   */
  public synchronized Transaction abort() {
    return end(TxnStatus.ABORTED);
  }

  /**
   * Records that the transaction's outcome is not known (the commit request failed without saying
   * whether it took effect, or the connection was closed with the transaction open), and delivers
   * it. The checker treats its writes as possibly committed.
   *
   * @return the record delivered to the sink
   * @throws IllegalStateException if no transaction is open
   * @throws RuntimeException whatever the sink threw; the transaction is ended all the same
   */
  public synchronized Transaction unknown() {
    return end(TxnStatus.UNKNOWN);
  }

  /** @return whether a transaction is open (begun and not yet ended) */
  public synchronized boolean inTransaction() {
    return open;
  }

  /** @return the session's id */
  public String sessionId() {
    return sessionId;
  }

  private void add(OpKind kind, String key, Long value) {
    requireOpen();
    ops.add(new Operation(kind, privacy.key(key), value == null ? null : privacy.value(value)));
  }

  private Transaction end(TxnStatus status) {
    requireOpen();
    long seq = nextSeq++;
    Transaction txn = new Transaction(
        historyId, sessionId, historyId + "/" + sessionId + "/" + seq, seq, status, List.copyOf(ops),
        instant(beginMicros), instant(clockMicros.getAsLong()), null);
    ops.clear();
    open = false;
    sink.accept(txn);
    return txn;
  }

  private void requireOpen() {
    if (!open) {
      throw new IllegalStateException("session " + sessionId + " has no open transaction; call begin first");
    }
  }

  private static Instant instant(long micros) {
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }
}
