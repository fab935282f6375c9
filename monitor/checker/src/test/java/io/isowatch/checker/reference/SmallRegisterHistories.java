package io.isowatch.checker.reference;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Small register histories from a permissive store, for brute force over commit orders: 2–7
 * transactions of 1–4 operations (45% writes) over 1–3 keys, values unique per key. Half of the
 * histories have 1–3 sessions, the other half one session per transaction (no session order). 75%
 * of transactions commit, 15% abort, 10% end unknown; a transaction of unknown outcome only writes
 * (its reads would not be checked by the axiomatic checkers and would be by the commit-order brute
 * force, a convention this generator stays out of).
 *
 * <p>A read after its own transaction's write of the key returns that write. Any other read returns,
 * with equal chance, the last non-aborted final write of the key among the transactions before it
 * (what a serial store gives), or any non-aborted final write or the initial value (a stale or
 * future read). With a chaos rate drawn per history from {0, 0.15, 0.4} a read instead returns a
 * value nobody wrote, any write of its own transaction (earlier, last or later), or any write of
 * another transaction (aborted, overwritten or final). Deterministic in the seed.
 */
public final class SmallRegisterHistories {
  private static final double[] CHAOS = {0, 0.15, 0.4};
  /** Values of never-written reads start here; real values stay far below. */
  private static final long THIN_AIR = 1_000_000;

  private SmallRegisterHistories() {}

  /**
   * @param seed any seed; equal seeds give equal histories
   * @return a fresh history with sessions {@code s0..}, keys {@code x0..}, labels {@code 1..}
   */
  public static History generate(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int keys = 1 + rnd.nextInt(3);
    int txns = 2 + rnd.nextInt(6);
    boolean sessions = rnd.nextBoolean();
    int sessionCount = 1 + rnd.nextInt(3);
    double chaos = CHAOS[rnd.nextInt(CHAOS.length)];
    int[][] opKey = new int[txns][];
    boolean[][] opWrite = new boolean[txns][];
    long[][] opValue = new long[txns][];
    TxnStatus[] status = new TxnStatus[txns];
    long next = 1;
    for (int t = 0; t < txns; t++) {
      int outcome = rnd.nextInt(20);
      status[t] = outcome < 15 ? TxnStatus.COMMITTED : outcome < 18 ? TxnStatus.ABORTED : TxnStatus.UNKNOWN;
      int n = 1 + rnd.nextInt(4);
      opKey[t] = new int[n];
      opWrite[t] = new boolean[n];
      opValue[t] = new long[n];
      for (int i = 0; i < n; i++) {
        opKey[t][i] = rnd.nextInt(keys);
        opWrite[t][i] = status[t] == TxnStatus.UNKNOWN || rnd.nextInt(20) < 9;
        opValue[t][i] = opWrite[t][i] ? next++ : History.NIL;
      }
    }
    for (int t = 0; t < txns; t++) {
      for (int i = 0; i < opKey[t].length; i++) {
        if (!opWrite[t][i]) {
          opValue[t][i] = readValue(rnd, chaos, opKey, opWrite, opValue, status, t, i);
        }
      }
    }
    History h = new History();
    for (int t = 0; t < txns; t++) {
      h.beginTxn(h.session("s" + (sessions ? rnd.nextInt(sessionCount) : t)), t + 1);
      for (int i = 0; i < opKey[t].length; i++) {
        int key = h.key("x" + opKey[t][i]);
        if (opWrite[t][i]) {
          h.write(key, opValue[t][i]);
        } else {
          h.read(key, opValue[t][i]);
        }
      }
      h.end(status[t]);
    }
    return h;
  }

  private static long readValue(SplittableRandom rnd, double chaos, int[][] opKey, boolean[][] opWrite,
      long[][] opValue, TxnStatus[] status, int t, int i) {
    int k = opKey[t][i];
    long own = History.NIL;
    boolean wrote = false;
    for (int j = 0; j < i; j++) {
      if (opKey[t][j] == k && opWrite[t][j]) {
        own = opValue[t][j];
        wrote = true;
      }
    }
    if (rnd.nextDouble() < chaos) {
      List<Long> pick = new ArrayList<>();
      switch (rnd.nextInt(5)) {
        case 0 -> pick.add(THIN_AIR + rnd.nextInt(1000));
        case 1 -> {
          for (int j = 0; j < opKey[t].length; j++) {
            if (opKey[t][j] == k && opWrite[t][j]) {
              pick.add(opValue[t][j]);
            }
          }
        }
        default -> {
          for (int u = 0; u < opKey.length; u++) {
            for (int j = 0; j < opKey[u].length; j++) {
              if (u != t && opKey[u][j] == k && opWrite[u][j]) {
                pick.add(opValue[u][j]);
              }
            }
          }
        }
      }
      if (!pick.isEmpty()) {
        return pick.get(rnd.nextInt(pick.size()));
      }
    }
    if (wrote) {
      return own;
    }
    List<Long> candidates = new ArrayList<>(List.of(History.NIL));
    long serial = History.NIL;
    for (int u = 0; u < opKey.length; u++) {
      long f = History.NIL;
      for (int j = 0; j < opKey[u].length; j++) {
        if (opKey[u][j] == k && opWrite[u][j]) {
          f = opValue[u][j];
        }
      }
      if (u != t && status[u] != TxnStatus.ABORTED && f != History.NIL) {
        candidates.add(f);
        serial = u < t ? f : serial;
      }
    }
    return rnd.nextBoolean() ? serial : candidates.get(rnd.nextInt(candidates.size()));
  }
}
