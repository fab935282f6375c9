package io.isowatch.bench.family;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;

/**
 * Wide-reader histories, the worst cases of the saturation behind AWDIT's read committed and read
 * atomic checkers (Møldrup &amp; Pavlogiannis, PLDI 2025, arXiv:2504.06975, §4-§5): readers that
 * read many keys from many writers that each write many keys. At the first read from writer
 * {@code t2}, the read committed reverse pass visits the smaller of {@code t2}'s writes and the
 * reader's keys; so {@code r} readers over {@code w} writers of up to {@code K} keys cost about
 * {@code r * w * K / 2} steps, and with {@code r = w = K = sqrt(n)} the O(n^1.5) bound is met.
 *
 * <p>The layout is a staircase, so that the history is consistent at read committed, read atomic
 * and causal consistency, and the checker has to infer every commit-order edge without finding a
 * cycle: writer {@code j} ({@code 0 <= j < w}) writes value {@code j+1} to every key {@code x} with
 * {@code x mod w >= j}, in key order; each reader reads every key {@code x = 0 .. K-1} in key
 * order, from writer {@code x mod w} (the last writer of {@code x} in the commit order {@code
 * W0 < W1 < ...}). Consecutive reads alternate between writers, and every writer read before a key
 * that also writes the key is forced before the key's writer, which agrees with that order.
 *
 * <p>Transactions are appended writers first, then readers; writer {@code j} goes to session
 * {@code "w" + (j mod writerSessions)} and reader {@code i} to session {@code "r" + (i mod
 * readerSessions)} (session order also agrees with the commit order). Every transaction commits.
 * Keys are {@code k0 .. k<K-1>} with key id = index. Generation is deterministic (no randomness).
 */
public final class StaircaseHistories {
  private StaircaseHistories() {}

  /**
   * Shape of a staircase history.
   *
   * @param readers reader transactions, at least 1
   * @param writers writer transactions, at least 1
   * @param keys keys, each read once by every reader, at least 1
   * @param writerSessions sessions the writers are spread over, 1..writers
   * @param readerSessions sessions the readers are spread over, 1..readers
   */
  public record Shape(int readers, int writers, int keys, int writerSessions, int readerSessions) {
    /**
     * @throws IllegalArgumentException if a field is out of its range
     */
    public Shape {
      if (readers < 1 || writers < 1 || keys < 1 || writerSessions < 1 || writerSessions > writers
          || readerSessions < 1 || readerSessions > readers) {
        throw new IllegalArgumentException("bad staircase shape: " + readers + " readers, " + writers
            + " writers, " + keys + " keys, " + writerSessions + " writer sessions, " + readerSessions
            + " reader sessions");
      }
    }

    /** @return the number of writes: key {@code x} is written by {@code (x mod writers) + 1} writers */
    public long writes() {
      long full = keys / writers;
      long rest = keys % writers;
      return full * (writers * (writers + 1L) / 2) + rest * (rest + 1) / 2;
    }

    /** @return the number of operations, {@code readers * keys + writes()} */
    public long ops() {
      return (long) readers * keys + writes();
    }

    /**
     * The wide-reader family: one reader transaction over {@code writers} writers, with as
     * many keys as keep the operation count at most {@code ops} (each writer and the reader in its
     * own session).
     *
     * @param ops target number of operations, at least {@code 2 + writers}
     * @param writers number of writers ("a few")
     * @return the shape
     */
    public static Shape wideReader(long ops, int writers) {
      // ops ≈ K + K (w + 1) / 2
      int keys = (int) Math.max(1, 2 * ops / (writers + 3));
      while (keys > 1 && new Shape(1, writers, keys, writers, 1).ops() > ops) {
        keys--;
      }
      return new Shape(1, writers, keys, writers, 1);
    }

    /**
     * The square family that meets the O(n^1.5) bound: {@code s} readers, {@code s} writers and
     * {@code s} keys with {@code s^2 + s(s+1)/2 <= ops}; writers over 4 sessions, readers over 4
     * other sessions (a fixed number of sessions, so causal consistency stays O(n)).
     *
     * @param ops target number of operations, at least 12
     * @return the shape
     */
    public static Shape grid(long ops) {
      int s = (int) Math.max(4, Math.sqrt(ops / 1.5));
      while (s > 4 && new Shape(s, s, s, 4, 4).ops() > ops) {
        s--;
      }
      return new Shape(s, s, s, 4, 4);
    }
  }

  /**
   * Generates a staircase history.
   *
   * @param shape its shape
   * @return a history of {@code writers + readers} committed transactions and {@code shape.ops()}
   *     operations
   * @throws IllegalArgumentException if the history would have more than {@code Integer.MAX_VALUE}
   *     operations
   */
  public static History generate(Shape shape) {
    if (shape.ops() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many operations: " + shape.ops());
    }
    History h = new History();
    int keys = shape.keys();
    int w = shape.writers();
    for (int k = 0; k < keys; k++) {
      h.key("k" + k);
    }
    for (int s = 0; s < shape.writerSessions(); s++) {
      h.session("w" + s);
    }
    for (int s = 0; s < shape.readerSessions(); s++) {
      h.session("r" + s);
    }
    long label = 0;
    for (int j = 0; j < w; j++) {
      h.beginTxn(j % shape.writerSessions(), label++);
      for (int x = 0; x < keys; x++) {
        if (x % w >= j) {
          h.write(x, j + 1);
        }
      }
      h.end(TxnStatus.COMMITTED);
    }
    for (int i = 0; i < shape.readers(); i++) {
      h.beginTxn(shape.writerSessions() + i % shape.readerSessions(), label++);
      for (int x = 0; x < keys; x++) {
        h.read(x, x % w + 1);
      }
      h.end(TxnStatus.COMMITTED);
    }
    return h;
  }
}
