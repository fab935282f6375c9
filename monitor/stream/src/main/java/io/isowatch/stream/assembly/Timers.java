package io.isowatch.stream.assembly;

import static io.isowatch.stream.assembly.AssemblerStores.GAP;
import static io.isowatch.stream.assembly.AssemblerStores.OPEN_TIMEOUT;
import static io.isowatch.stream.assembly.AssemblerStores.deadline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The session assembler's timers, kept in its deadlines store ({@link AssemblerStores#DEADLINES}):
 * a timer is the key {@code AssemblerStores.deadline(kind, dueMs, id)} with an empty value, so that
 * a range scan reads the timers of one kind in due order. Kinds: {@link AssemblerStores#OPEN_TIMEOUT}
 * (id txnId), {@link AssemblerStores#GAP} (id session key), {@link AssemblerStores#FORGET} (id txnId).
 * Times are stream time in ms.
 *
 * <p>Invariant: a timer is in the store from {@link #set} until it fires ({@link #takeDue} returns
 * and deletes it) or is {@link #cancel cancelled} with the same kind, due time and id; nothing else
 * writes keys of these kinds. Hence an open-timeout or gap timer in the store means that a
 * transaction is open or a session waits for a txnSeq ({@link #holdTransactions}).
 */
final class Timers {
  private static final byte[] NOTHING = new byte[0];

  private final KeyValueStore<String, byte[]> deadlines;

  /** @param deadlines the assembler's deadlines store */
  Timers(KeyValueStore<String, byte[]> deadlines) {
    this.deadlines = deadlines;
  }

  /** Sets the timer of {@code kind} due at {@code dueMs} (not negative) for {@code id}. */
  void set(char kind, long dueMs, String id) {
    deadlines.put(deadline(kind, dueMs, id), NOTHING);
  }

  /** Removes the timer {@link #set} with these arguments, if it has not fired. */
  void cancel(char kind, long dueMs, String id) {
    deadlines.delete(deadline(kind, dueMs, id));
  }

  /** @return the ids of the timers of {@code kind} due at or before {@code nowMs}, in due order, now deleted */
  List<String> takeDue(char kind, long nowMs) {
    List<String> keys = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it =
        deadlines.range(AssemblerStores.firstDeadline(kind), AssemblerStores.lastDeadline(kind, nowMs))) {
      it.forEachRemaining(kv -> keys.add(kv.key));
    }
    keys.forEach(deadlines::delete);
    return keys.stream().map(AssemblerStores::deadlineId).toList();
  }

  /** @return whether a transaction is open or a session waits for a txnSeq (their timers are set) */
  boolean holdTransactions() {
    for (char kind : new char[] {OPEN_TIMEOUT, GAP}) {
      try (KeyValueIterator<String, byte[]> it =
          deadlines.range(AssemblerStores.firstDeadline(kind), AssemblerStores.lastDeadline(kind, Long.MAX_VALUE))) {
        if (it.hasNext()) {
          return true;
        }
      }
    }
    return false;
  }

  /** @return {@code ms + d} in ms, at least 0, {@code Long.MAX_VALUE} where it would overflow */
  static long after(long ms, Duration d) {
    long add = d.toMillis();
    return ms > Long.MAX_VALUE - add ? Long.MAX_VALUE : Math.max(0, ms + add);
  }
}
