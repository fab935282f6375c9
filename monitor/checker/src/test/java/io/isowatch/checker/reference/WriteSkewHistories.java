package io.isowatch.checker.reference;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random list-append histories of a snapshot-isolated store under the probe's write-skew scenario,
 * where every round of two transactions is a write skew: many G2-item cycles at once, each leaving
 * one edge the incremental check's topological order rejects (a pending edge). 4, 6 or 8 key slots
 * taken in pairs; each slot's key retired after 2–6 appends (the probe's {@code
 * --max-appends-per-key}, small so that short histories rotate keys); 4–8 sessions.
 *
 * <p>A round takes two idle sessions and a pair of slots, reads both slots' current keys from one
 * snapshot taken when it starts, and its two transactions append one slot each, then commit, each at
 * its own later step. Rounds overlap at random, up to {@code sessions / 2} in flight, so their
 * cycles overlap in commit order; with {@code disjoint}, rounds in flight use different pairs, so no
 * two rounds form a cycle together and round {@code r}'s transactions form exactly one G2-item; else
 * rounds in flight may share a pair and their cycles join. A transaction whose key rotated between
 * its snapshot and its commit appends to the retired key (which no one reads again). Transactions
 * are in commit order, all committed, labels {@code 0..}; deterministic in the seed.
 */
public final class WriteSkewHistories {
  /** A generated history and, per transaction, its round. */
  public record Generated(History history, int[] round) {}

  private WriteSkewHistories() {}

  /**
   * @param seed any seed; equal seeds give equal histories
   * @param rounds the number of rounds, at least 1
   * @param disjoint whether rounds in flight always use different pairs of slots
   * @return the history, {@code 2 * rounds} transactions
   */
  public static Generated generate(long seed, int rounds, boolean disjoint) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int slots = 4 + 2 * rnd.nextInt(3);
    int maxAppends = 2 + rnd.nextInt(5);
    int sessions = 4 + rnd.nextInt(5);
    int[] generation = new int[slots];
    List<LongArrayList> lists = new ArrayList<>();
    for (int k = 0; k < slots; k++) {
      lists.add(new LongArrayList());
    }
    boolean[] busySession = new boolean[sessions];
    boolean[] busyPair = new boolean[slots / 2];
    List<int[]> pendingTxns = new ArrayList<>(); // {round, slot written, session}, plus the snapshot
    List<long[][]> snapshots = new ArrayList<>();
    List<int[]> keysOf = new ArrayList<>();
    History h = new History();
    IntArrayList roundOf = new IntArrayList();
    int started = 0;
    long next = 1;
    while (started < rounds || !pendingTxns.isEmpty()) {
      int idle = 0;
      for (boolean b : busySession) {
        idle += b ? 0 : 1;
      }
      int freePairs = 0;
      for (boolean b : busyPair) {
        freePairs += b ? 0 : 1;
      }
      boolean canStart = started < rounds && idle >= 2 && (!disjoint || freePairs > 0);
      if (canStart && (pendingTxns.isEmpty() || rnd.nextInt(3) == 0)) {
        int pair;
        do {
          pair = rnd.nextInt(slots / 2);
        } while (disjoint && busyPair[pair]);
        busyPair[pair] = true;
        long[][] seen = new long[2][];
        int[] gens = new int[2];
        for (int i = 0; i < 2; i++) {
          seen[i] = lists.get(2 * pair + i).toLongArray();
          gens[i] = generation[2 * pair + i];
        }
        snapshots.add(seen);
        keysOf.add(gens);
        for (int i = 0; i < 2; i++) {
          int s = idleSession(busySession, rnd);
          busySession[s] = true;
          pendingTxns.add(new int[] {started, 2 * pair + i, s, pair});
        }
        started++;
        continue;
      }
      int[] txn = pendingTxns.remove(rnd.nextInt(pendingTxns.size()));
      int round = txn[0];
      int slot = txn[1];
      int pair = txn[3];
      h.beginTxn(h.session("s" + txn[2]), h.txnCount());
      for (int i = 0; i < 2; i++) {
        long[] seen = snapshots.get(round)[i];
        h.readList(h.key(name(2 * pair + i, keysOf.get(round)[i])), seen, 0, seen.length);
      }
      long value = next++;
      int gen = keysOf.get(round)[slot - 2 * pair];
      h.append(h.key(name(slot, gen)), value);
      h.end(TxnStatus.COMMITTED);
      roundOf.add(round);
      if (gen == generation[slot]) {
        lists.get(slot).add(value);
        if (lists.get(slot).size() == maxAppends) {
          generation[slot]++;
          lists.get(slot).clear();
        }
      }
      busySession[txn[2]] = false;
      boolean roundOpen = false;
      for (int[] other : pendingTxns) {
        roundOpen |= other[0] == round;
      }
      if (!roundOpen) {
        busyPair[pair] = false;
      }
    }
    return new Generated(h, roundOf.toIntArray());
  }

  private static int idleSession(boolean[] busy, SplittableRandom rnd) {
    int s;
    do {
      s = rnd.nextInt(busy.length);
    } while (busy[s]);
    return s;
  }

  private static String name(int slot, int generation) {
    return "k" + slot + "." + generation;
  }
}
