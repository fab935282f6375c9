package io.isowatch.connectors.recorder;

import io.isowatch.connectors.privacy.Privacy;
import io.isowatch.schemas.EventTimes;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;

/**
 * Records an application's transactions, session by session, as {@link
 * io.isowatch.schemas.Transaction} records for one history (one monitored database).
 *
 * <p>Each session gets one {@link SessionRecorder} handle, created on its first {@link #begin};
 * its transactions are numbered {@code txnSeq = 0, 1, 2, ...} and get the id {@code
 * historyId/sessionId/txnSeq}. Session ids must therefore be unique within the history for the
 * recorder's lifetime: an application that restarts uses new session ids (a connection's id with the
 * process start time, for example). Thread-safe: sessions may record concurrently.
 */
public final class TransactionRecorder {
  private final String historyId;
  private final TransactionSink sink;
  private final LongSupplier clockMicros;
  private final Privacy privacy;
  private final ConcurrentMap<String, SessionRecorder> sessions = new ConcurrentHashMap<>();

  /**
   * A recorder stamping transactions with the system clock.
   *
   * @param historyId the monitored database, e.g. {@code orders-db}
   * @param sink where ended transactions go
   * @param privacy how keys and values are recorded: {@code Privacy.hashed(secret)} for a recorder
   *     that publishes (keyed hashes leave the application, not the data), {@code
   *     Privacy.plaintext()} only where the records stay inside (a history file, a test); there is
   *     no default, so nothing leaves in plaintext by omission
   */
  public TransactionRecorder(String historyId, TransactionSink sink, Privacy privacy) {
    this(historyId, sink, TransactionRecorder::systemMicros, privacy);
  }

  /**
   * @param historyId the monitored database, e.g. {@code orders-db}
   * @param sink where ended transactions go
   * @param clockMicros the time now, in microseconds since the epoch (UTC); called from the
   *     application's threads, so it must be thread-safe
   * @param privacy how keys and values are recorded
   */
  public TransactionRecorder(String historyId, TransactionSink sink, LongSupplier clockMicros, Privacy privacy) {
    this.historyId = historyId;
    this.sink = sink;
    this.clockMicros = clockMicros;
    this.privacy = privacy;
  }

  /**
   * Begins a transaction in a session.
   *
   * @param sessionId the session (connection, client) that runs it
   * @return the session's handle, always the same object for one session id, now in a transaction
   * @throws IllegalStateException if the session's previous transaction has not ended
   */
  public SessionRecorder begin(String sessionId) {
    SessionRecorder session = sessions.computeIfAbsent(
        sessionId, id -> new SessionRecorder(historyId, id, sink, clockMicros, privacy));
    session.begin();
    return session;
  }

  /**
   * Forgets a session that has ended for good (its connection was closed), so that a long-running
   * application holds no state for its past sessions. The session id must not be used again: its
   * numbering would restart at 0 and repeat transaction ids.
   *
   * @param sessionId the session; nothing happens if it is unknown
   * @throws IllegalStateException if the session has a transaction open (the session is kept)
   */
  public void forget(String sessionId) {
    sessions.computeIfPresent(sessionId, (id, s) -> {
      if (s.inTransaction()) {
        throw new IllegalStateException("session " + id + " has a transaction open; end it before forgetting the session");
      }
      return null;
    });
  }

  /** @return the system clock's time now in microseconds since the epoch */
  static long systemMicros() {
    return EventTimes.micros(Instant.now());
  }
}
