package io.isowatch.stream.replay;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A test fixture: a small generator of list-append histories that snapshot isolation allows and
 * serializability does not, with the write skews it injects known exactly, so that the monitor's
 * integration tests can expect exactly those violations ({@code isowatch demo} runs the engine
 * simulator instead).
 *
 * <p>Transactions run one after another against an in-memory list store (so they are serializable
 * on their own): each reads two distinct keys and appends a fresh element to the first. Every
 * {@code skewEvery}-th step instead injects a <em>write skew</em>: two transactions of different
 * sessions read the same two keys {@code x, y} from the same snapshot, one appends to {@code x}, the
 * other to {@code y}, and both commit. Each read misses the other's append, so {@code rw} edges run
 * both ways: a cycle with two anti-dependencies, Adya's G2-item (Adya 1999, section 4.4.2), allowed
 * by snapshot isolation since the write sets are disjoint (Berenson et al. 1995, "A5B write skew").
 * A third transaction then reads both keys, which reveals the version order of both appends.
 *
 * <p>Deterministic for a seed. Elements are unique per key (a global counter), labels are {@code 1,
 * 2, ...} in history order, sessions are {@code s0 .. s<sessions-1>}, keys {@code k0 ..}.
 */
public final class WriteSkewWorkload {
  /**
   * A generated history and the write skews injected into it.
   *
   * @param history the history, every transaction committed
   * @param skews the labels of each injected pair, {@code [labelA, labelB]}
   */
  public record Generated(History history, List<long[]> skews) {}

  private WriteSkewWorkload() {}

  /**
   * @param transactions about how many transactions (the last step may add up to 2 more), at least 1
   * @param sessions sessions, at least 2
   * @param keys keys, at least 2
   * @param skewEvery one write skew every this many steps, at least 2
   * @param seed the random seed
   * @return the history and its injected write skews
   * @throws IllegalArgumentException for arguments below their minimum
   */
  public static Generated generate(int transactions, int sessions, int keys, int skewEvery, long seed) {
    if (transactions < 1 || sessions < 2 || keys < 2 || skewEvery < 2) {
      throw new IllegalArgumentException("need transactions >= 1, sessions >= 2, keys >= 2, skewEvery >= 2");
    }
    History h = new History();
    int[] sessionIds = new int[sessions];
    for (int s = 0; s < sessions; s++) {
      sessionIds[s] = h.session("s" + s);
    }
    int[] keyIds = new int[keys];
    LongArrayList[] lists = new LongArrayList[keys];
    for (int k = 0; k < keys; k++) {
      keyIds[k] = h.key("k" + k);
      lists[k] = new LongArrayList();
    }
    Random rnd = new Random(seed);
    List<long[]> skews = new ArrayList<>();
    long[] next = {1, 1}; // next label, next element
    for (int step = 1; h.txnCount() < transactions; step++) {
      int x = rnd.nextInt(keys);
      int y = (x + 1 + rnd.nextInt(keys - 1)) % keys;
      if (step % skewEvery == 0 && transactions - h.txnCount() >= 3) {
        int sa = rnd.nextInt(sessions);
        int sb = (sa + 1 + rnd.nextInt(sessions - 1)) % sessions;
        long[] snapX = lists[x].toLongArray();
        long[] snapY = lists[y].toLongArray();
        long labelA = next[0];
        long ea = next[1]++;
        long eb = next[1]++;
        txn(h, sessionIds[sa], next, keyIds[x], snapX, keyIds[y], snapY, keyIds[x], ea);
        txn(h, sessionIds[sb], next, keyIds[x], snapX, keyIds[y], snapY, keyIds[y], eb);
        lists[x].add(ea);
        lists[y].add(eb);
        skews.add(new long[] {labelA, labelA + 1});
        int so = rnd.nextInt(sessions);
        txn(h, sessionIds[so], next, keyIds[x], lists[x].toLongArray(), keyIds[y], lists[y].toLongArray(), -1, 0);
      } else {
        long e = next[1]++;
        txn(h, sessionIds[rnd.nextInt(sessions)], next, keyIds[x], lists[x].toLongArray(), keyIds[y],
            lists[y].toLongArray(), keyIds[x], e);
        lists[x].add(e);
      }
    }
    return new Generated(h, skews);
  }

  /** Appends one committed transaction: read x, read y, then append to {@code appendKey} if >= 0. */
  private static void txn(History h, int session, long[] next, int x, long[] seenX, int y, long[] seenY,
      int appendKey, long element) {
    h.beginTxn(session, next[0]++);
    h.readList(x, seenX, 0, seenX.length);
    h.readList(y, seenY, 0, seenY.length);
    if (appendKey >= 0) {
      h.append(appendKey, element);
    }
    h.end(TxnStatus.COMMITTED);
  }
}
