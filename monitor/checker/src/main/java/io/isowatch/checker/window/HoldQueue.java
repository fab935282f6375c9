package io.isowatch.checker.window;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The transactions a {@link WindowChecker} holds because a read has no known writer yet ({@link
 * Writers#known}), one queue per session.
 *
 * <p><b>Invariant.</b> A session has a queue here exactly when it has a held transaction; its
 * queue holds them in session order, each with its arrival position (increasing, all below {@link
 * #nextArrival()}), and a later transaction of a held session is held behind the queue's head even
 * if its own reads are known. Only a committed transaction's reads hold it (the reads of others
 * are not checked, and they are held only behind a committed one).
 *
 * <p><b>Release.</b> A head is fed ({@link #release}) once every value it read has a known writer,
 * or once the read clock says the writer will not come: its end time plus the read grace ({@link
 * WindowConfig#readGraceMicros()}) is at or before the read clock ({@link WindowConfig.ReadClock});
 * it is then fed with those reads unknown, each reported as a thin-air read. With {@code giveUp},
 * every head is fed, the reads whose grace has not ended given up on: <i>unresolved</i>, counted and
 * never reported, since the writer's absence is not established. Sessions are visited in the order
 * of their heads' arrival, which {@link #restore} rebuilds exactly, so that a restored checker
 * reports what it releases in the same order as the uninterrupted one (the map's own order is that
 * of the queues' creation, which the journal does not keep). "Arrived" only grows, so holding never
 * deadlocks.
 */
final class HoldQueue {
  /** Where a released transaction goes. */
  interface Release {
    /**
     * @param arrival its arrival position
     * @param unresolvedOps sorted operation indexes to feed as unknown reads
     * @param certain whether the writers of {@code unresolvedOps} are known to be absent (thin-air
     *     reads) or only given up on (unresolved)
     */
    void feed(WindowTxn txn, long arrival, int[] unresolvedOps, boolean certain);
  }

  private final WindowChecker.Journal journal;
  private final long readGraceMicros;
  private final Map<String, ArrayDeque<WindowChecker.Held>> held = new LinkedHashMap<>();
  /** The number of transactions in {@link #held}. */
  private int count;
  private long nextArrival;

  /**
   * @param readGraceMicros the read grace, µs ({@link WindowConfig#readGraceMicros()})
   * @param journal receives each transaction held
   */
  HoldQueue(long readGraceMicros, WindowChecker.Journal journal) {
    this.readGraceMicros = readGraceMicros;
    this.journal = journal;
  }

  /** @return whether {@code session} has a held transaction, behind which its next one waits */
  boolean holds(String session) {
    return held.containsKey(session);
  }

  /** @return whether no transaction is held */
  boolean isEmpty() {
    return held.isEmpty();
  }

  /** @return the number of transactions held */
  int count() {
    return count;
  }

  /** @return the arrival position the next held transaction gets */
  long nextArrival() {
    return nextArrival;
  }

  /** Holds {@code txn} behind its session's held transactions, at the next arrival position (journaled). */
  void hold(WindowTxn txn) {
    WindowChecker.Held h = new WindowChecker.Held(nextArrival++, txn);
    add(h);
    journal.held(h.arrival(), txn);
  }

  /**
   * Puts the stored held transactions back, without journaling them.
   *
   * @param storedNextArrival the stored run's next arrival position
   * @param heldTxns the held transactions, in arrival order
   */
  void restore(long storedNextArrival, List<WindowChecker.Held> heldTxns) {
    nextArrival = storedNextArrival;
    for (WindowChecker.Held h : heldTxns) {
      add(h);
    }
  }

  private void add(WindowChecker.Held h) {
    held.computeIfAbsent(h.txn().session(), s -> new ArrayDeque<>()).add(h);
    count++;
  }

  /**
   * Feeds every head whose reads are known or whose grace ended, again until none is: all heads if
   * {@code all} (their missing reads reported), all heads if {@code giveUp} (those not due given up
   * on).
   *
   * @param readClock the clock the grace is measured against, µs
   * @param writers what decides whether a read's writer is known
   * @param release receives each released transaction, in release order
   * @return the number of reads given up on (unresolved): the missing reads of the transactions
   *     released by {@code giveUp} before their grace ended (all committed, since only a committed
   *     transaction can have a read that is not known)
   */
  int release(boolean all, boolean giveUp, long readClock, Writers writers, Release release) {
    int givenUp = 0;
    boolean progress = true;
    List<ArrayDeque<WindowChecker.Held>> queues = new ArrayList<>(held.size());
    while (progress) {
      progress = false;
      queues.clear();
      queues.addAll(held.values());
      queues.sort(Comparator.comparingLong(q -> q.peekFirst().arrival()));
      for (ArrayDeque<WindowChecker.Held> q : queues) {
        while (!q.isEmpty()) {
          WindowChecker.Held head = q.peekFirst();
          WindowTxn t = head.txn();
          int[] missing;
          boolean certain = true;
          long due = saturatedSum(t.eventTime(), readGraceMicros);
          if (writers.known(t)) {
            missing = writers.unchecked(t);
          } else if (all || due <= readClock) {
            missing = writers.missing(t);
          } else if (giveUp) {
            missing = writers.missing(t);
            certain = false;
            givenUp += missing.length;
          } else {
            break;
          }
          q.pollFirst();
          count--;
          release.feed(t, head.arrival(), missing, certain);
          progress = true;
        }
      }
      held.values().removeIf(ArrayDeque::isEmpty);
    }
    return givenUp;
  }

  /** @return {@code a + b} for {@code b >= 0}, {@link Long#MAX_VALUE} where it would overflow */
  private static long saturatedSum(long a, long b) {
    return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
  }
}
