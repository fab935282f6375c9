package io.isowatch.stream.assembly;

import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The session assembler's state stores and the layout of their keys. All are persistent
 * (RocksDB) key-value stores of String keys and byte values with changelogging on (the Kafka Streams
 * default), so a restarted or migrated task restores them from their changelog topics
 * ({@code <application.id>-<store name>-changelog}); the names are part of the deployment and must
 * not change between versions. The record cache is on, so that a key written several times within a
 * commit interval (a session's state, a transaction's state as it completes and is emitted) reaches
 * RocksDB and the changelog once, at the flush before the commit (Kafka Streams documentation,
 * "Memory Management"). Keys are compared as their UTF-8 bytes, which is what makes the range
 * scans below work (Kafka Streams docs, "State Stores": range queries iterate in serialized-key
 * order).
 */
public final class AssemblerStores {
  /**
   * Session key (historyId NUL sessionId) to {@link SessionState}; and {@link #historyKey} to the
   * number of sessions of the history this task holds (a 4-byte big-endian int).
   */
  public static final String SESSIONS = "isowatch-assembler-sessions";
  /**
   * txnId to {@link TxnState}, for every transaction open, waiting or emitted and remembered, except
   * whole ones emitted on arrival, which {@link WholeRetention} remembers in the deadlines store.
   */
  public static final String TRANSACTIONS = "isowatch-assembler-transactions";
  /** {@link #eventKey} (txnId NUL ten-digit opIndex) to the event's bytes as received. */
  public static final String EVENTS = "isowatch-assembler-events";
  /**
   * txnId to the single-object encoding of a complete {@code Transaction} waiting for an earlier
   * txnSeq of its session; removed when it is emitted.
   */
  public static final String ASSEMBLED = "isowatch-assembler-assembled";
  /**
   * {@link #deadline} keys to an empty value: the timers, in due order; and, under timer kind
   * {@link WholeRetention#KIND}, the chunks of whole transactions emitted on arrival that
   * {@link WholeRetention} remembers until their due time.
   */
  public static final String DEADLINES = "isowatch-assembler-deadlines";

  /**
   * With {@code monitor --input debezium-cdc} only: the database transactions not yet emitted, their
   * {@code END} counts and the keys seen ({@link CdcTransactions}, which gives the key layout).
   */
  public static final String CDC = "isowatch-assembler-cdc";

  /** Deadline kind: a transaction's open timeout, id txnId. */
  static final char OPEN_TIMEOUT = 'o';
  /** Deadline kind: a session's sequence gap grace, id session key. */
  static final char GAP = 'g';
  /** Deadline kind: the end of an emitted transaction's duplicate retention, id txnId. */
  static final char FORGET = 'p';

  private AssemblerStores() {}

  /**
   * @param cdc whether the events are Debezium's CDC events, which need {@link #CDC} besides
   * @return builders of the five stores (six with {@code cdc}), for {@code ProcessorSupplier.stores()}
   */
  static Set<StoreBuilder<?>> builders(boolean cdc) {
    return cdc
        ? Set.of(store(SESSIONS), store(TRANSACTIONS), store(EVENTS), store(ASSEMBLED), store(DEADLINES), store(CDC))
        : Set.of(store(SESSIONS), store(TRANSACTIONS), store(EVENTS), store(ASSEMBLED), store(DEADLINES));
  }

  private static StoreBuilder<KeyValueStore<String, byte[]>> store(String name) {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), Serdes.ByteArray())
        .withCachingEnabled();
  }

  /** @return the state key of a session; NUL cannot occur in the ids, so it is unambiguous */
  static String sessionKey(String historyId, String sessionId) {
    return historyId + '\0' + sessionId;
  }

  /**
   * @return the key under which {@link #SESSIONS} counts a history's sessions: the session key of an
   *     empty sessionId, which no session has (InputCheck refuses an empty id)
   */
  static String historyKey(String historyId) {
    return sessionKey(historyId, "");
  }

  /** @return {@code historyId/sessionId} for messages */
  static String display(String sessionKey) {
    return sessionKey.replace('\0', '/');
  }

  /** @return the key of event {@code opIndex} (not negative) of {@code txnId}; sorts by opIndex */
  static String eventKey(String txnId, int opIndex) {
    return txnId + '\0' + padded(opIndex, 10);
  }

  /** @return the smallest key of {@code txnId}'s events */
  static String firstEventKey(String txnId) {
    return txnId + '\0';
  }

  /** @return a key greater than all of {@code txnId}'s event keys and no other's below it */
  static String lastEventKey(String txnId) {
    return txnId + '\1';
  }

  /** @return the key of a timer of {@code kind} due at {@code dueMs} (not negative) for {@code id} */
  static String deadline(char kind, long dueMs, String id) {
    return kind + padded(dueMs, 19) + '\0' + id;
  }

  /** @return the smallest key of timers of {@code kind} */
  static String firstDeadline(char kind) {
    return kind + padded(0, 19);
  }

  /** @return a key above every timer of {@code kind} due at or before {@code nowMs} */
  static String lastDeadline(char kind, long nowMs) {
    return kind + padded(Math.max(0, nowMs), 19) + '\uffff';
  }

  /** @return the id part of a timer key */
  static String deadlineId(String key) {
    return key.substring(21);
  }

  /**
   * @return {@code n} (not negative) in decimal, zero-padded to {@code width} digits, so that keys
   *     order numerically (the stores order keys by bytes); what {@code String.format("%0<width>d")}
   *     gives, without a Formatter per key
   */
  static String padded(long n, int width) {
    String digits = Long.toString(n);
    return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
  }
}
