package io.isowatch.checker.reference;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.SplittableRandom;

/**
 * Random list-append histories from a permissive store, so that every anomaly a list read can show
 * anywhere in the list is common: 1–4 keys, 2–16 transactions of 1–4 operations (half appends),
 * values unique per key; 75% of transactions commit, 15% abort, 10% end unknown. Half of the
 * histories have 1–3 sessions, the other half one session per transaction (no session order).
 *
 * <p>A list read starts from the key's non-aborted appends planned before it, in plan order (a
 * serial store's answer), in one case of four cut at a random place (a stale read, an intermediate
 * one when the cut splits a transaction's appends); then, with a chaos rate drawn per history from
 * {0, 0.2, 0.5}, it is damaged: an element dropped, two neighbours swapped, an element nobody
 * appended put at a random place, the list reversed, an earlier append (aborted or already there)
 * put at a random place, or a later append (often the reader's own) added at the end. Generation is
 * deterministic in the seed.
 */
public final class PermissiveListHistories {
  private static final double[] CHAOS = {0, 0.2, 0.5};
  /** Values of never-appended elements start here; real values stay far below. */
  private static final long THIN_AIR = 1_000_000;

  private final SplittableRandom rnd;

  private PermissiveListHistories(long seed) {
    this.rnd = new SplittableRandom(seed);
  }

  /**
   * @param seed any seed; equal seeds give equal histories
   * @return a fresh history with keys {@code k0..}, labels {@code 1..}
   */
  public static History generate(long seed) {
    return new PermissiveListHistories(seed).build();
  }

  private History build() {
    int keys = 1 + rnd.nextInt(4);
    int txns = 2 + rnd.nextInt(15);
    boolean sessions = rnd.nextBoolean();
    int sessionCount = 1 + rnd.nextInt(3);
    double chaos = CHAOS[rnd.nextInt(CHAOS.length)];
    // plan: per transaction, its operations; appends get the next value of their key
    int[][] opKey = new int[txns][];
    boolean[][] opAppend = new boolean[txns][];
    long[][] opValue = new long[txns][];
    long[] next = new long[keys];
    for (int t = 0; t < txns; t++) {
      int n = 1 + rnd.nextInt(4);
      opKey[t] = new int[n];
      opAppend[t] = new boolean[n];
      opValue[t] = new long[n];
      for (int i = 0; i < n; i++) {
        opKey[t][i] = rnd.nextInt(keys);
        opAppend[t][i] = rnd.nextBoolean();
        opValue[t][i] = opAppend[t][i] ? ++next[opKey[t][i]] : 0;
      }
    }
    TxnStatus[] status = new TxnStatus[txns];
    for (int t = 0; t < txns; t++) {
      int p = rnd.nextInt(100);
      status[t] = p < 75 ? TxnStatus.COMMITTED : p < 90 ? TxnStatus.ABORTED : TxnStatus.UNKNOWN;
    }
    // per key, the appends in plan order (value v at index v - 1) and whether each was aborted
    boolean[][] aborted = new boolean[keys][];
    for (int k = 0; k < keys; k++) {
      aborted[k] = new boolean[(int) next[k]];
    }
    for (int t = 0; t < txns; t++) {
      for (int i = 0; i < opKey[t].length; i++) {
        if (opAppend[t][i]) {
          aborted[opKey[t][i]][(int) opValue[t][i] - 1] = status[t] == TxnStatus.ABORTED;
        }
      }
    }
    History h = new History();
    for (int k = 0; k < keys; k++) {
      h.key("k" + k);
    }
    long[] seen = new long[keys];
    for (int t = 0; t < txns; t++) {
      int s = h.session("s" + (sessions ? rnd.nextInt(sessionCount) : t));
      h.beginTxn(s, t + 1);
      for (int i = 0; i < opKey[t].length; i++) {
        int k = opKey[t][i];
        if (opAppend[t][i]) {
          h.append(k, opValue[t][i]);
          seen[k]++;
        } else {
          long[] list = list(seen[k], next[k], aborted[k], chaos);
          h.readList(k, list, 0, list.length);
        }
      }
      h.end(status[t]);
    }
    return h;
  }

  /**
   * @param seen the key's appends planned before the read (values 1..seen)
   * @param appended all the key's appends planned (values 1..appended)
   * @param aborted per value - 1, whether its transaction aborts
   * @return a list read: the non-aborted appends before it (cut short in one case of four), damaged
   *     with probability {@code chaos}
   */
  private long[] list(long seen, long appended, boolean[] aborted, double chaos) {
    LongArrayList l = new LongArrayList();
    long upTo = seen == 0 || rnd.nextInt(4) > 0 ? seen : rnd.nextLong(seen + 1);
    for (long v = 1; v <= upTo; v++) {
      if (!aborted[(int) v - 1]) {
        l.add(v);
      }
    }
    if (rnd.nextDouble() >= chaos) {
      return l.toLongArray();
    }
    switch (rnd.nextInt(6)) {
      case 0:
        if (!l.isEmpty()) {
          l.removeLong(rnd.nextInt(l.size()));
        }
        break;
      case 1:
        if (l.size() >= 2) {
          int i = rnd.nextInt(l.size() - 1);
          long a = l.getLong(i);
          l.set(i, l.getLong(i + 1));
          l.set(i + 1, a);
        }
        break;
      case 2:
        l.add(rnd.nextInt(l.size() + 1), THIN_AIR + rnd.nextInt(1000));
        break;
      case 3:
        for (int i = 0, j = l.size() - 1; i < j; i++, j--) {
          long a = l.getLong(i);
          l.set(i, l.getLong(j));
          l.set(j, a);
        }
        break;
      case 4:
        if (upTo > 0) {
          l.add(rnd.nextInt(l.size() + 1), 1 + rnd.nextLong(upTo)); // maybe aborted, maybe twice
        }
        break;
      default:
        if (upTo < appended) {
          l.add(upTo + 1 + rnd.nextLong(appended - upTo));
        }
        break;
    }
    return l.toLongArray();
  }
}
