package io.isowatch.checker.polygraph;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Small register histories from a permissive store whose reads always name a committed
 * transaction's final write or the initial value: 1–4 sessions, 1–3 keys, 2–7 transactions of 1–4
 * operations (half writes), 10% aborted (never read from), 10% of unknown outcome (read from or not). A transaction's read after its own write
 * or read of the key returns that; a first read returns, with equal chance, the latest committed
 * write so far (what a serial store gives) or any committed final write of the key or the initial
 * value (what a broken store may give), so that every verdict is common. Deterministic in the seed.
 */
final class RegisterStoreHistories {
  private RegisterStoreHistories() {}

  /** @return the history of that seed, sessions {@code s0..}, keys {@code x0..} */
  static History generate(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int sessions = 1 + rnd.nextInt(4);
    int keys = 1 + rnd.nextInt(3);
    int txns = 2 + rnd.nextInt(6);
    long next = 1;
    int[] session = new int[txns];
    boolean[] aborted = new boolean[txns];
    boolean[] unknown = new boolean[txns];
    List<int[]> opKeys = new ArrayList<>();
    List<long[]> opValues = new ArrayList<>();
    List<boolean[]> opWrites = new ArrayList<>();
    for (int t = 0; t < txns; t++) {
      session[t] = rnd.nextInt(sessions);
      int outcome = rnd.nextInt(10);
      aborted[t] = outcome == 0;
      unknown[t] = outcome == 1;
      int n = 1 + rnd.nextInt(4);
      int[] k = new int[n];
      long[] v = new long[n];
      boolean[] w = new boolean[n];
      for (int i = 0; i < n; i++) {
        k[i] = rnd.nextInt(keys);
        w[i] = rnd.nextBoolean();
        v[i] = w[i] ? next++ : History.NIL;
      }
      opKeys.add(k);
      opValues.add(v);
      opWrites.add(w);
    }
    // Reads: resolved after all writes are known, so that any committed final write can be chosen.
    for (int t = 0; t < txns; t++) {
      int[] k = opKeys.get(t);
      long[] v = opValues.get(t);
      boolean[] w = opWrites.get(t);
      for (int i = 0; i < k.length; i++) {
        if (w[i]) {
          continue;
        }
        int prior = -1;
        for (int j = i - 1; j >= 0 && prior < 0; j--) {
          if (k[j] == k[i]) {
            prior = j;
          }
        }
        if (prior >= 0) {
          v[i] = v[prior];
          continue;
        }
        List<Long> candidates = new ArrayList<>();
        candidates.add(History.NIL);
        long serial = History.NIL;
        for (int u = 0; u < txns; u++) {
          long f = finalWrite(opKeys.get(u), opValues.get(u), opWrites.get(u), k[i]);
          if (u != t && !aborted[u] && f != Long.MAX_VALUE) {
            candidates.add(f);
            if (u < t) {
              serial = f;
            }
          }
        }
        v[i] = rnd.nextBoolean() ? serial : candidates.get(rnd.nextInt(candidates.size()));
      }
    }
    History h = new History();
    for (int t = 0; t < txns; t++) {
      int s = h.session("s" + session[t]);
      h.beginTxn(s, t + 1);
      int[] k = opKeys.get(t);
      for (int i = 0; i < k.length; i++) {
        int key = h.key("x" + k[i]);
        if (opWrites.get(t)[i]) {
          h.write(key, opValues.get(t)[i]);
        } else {
          h.read(key, opValues.get(t)[i]);
        }
      }
      h.end(aborted[t] ? TxnStatus.ABORTED : unknown[t] ? TxnStatus.UNKNOWN : TxnStatus.COMMITTED);
    }
    return h;
  }

  private static long finalWrite(int[] k, long[] v, boolean[] w, int key) {
    long f = Long.MAX_VALUE;
    for (int i = 0; i < k.length; i++) {
      if (w[i] && k[i] == key) {
        f = v[i];
      }
    }
    return f;
  }
}
