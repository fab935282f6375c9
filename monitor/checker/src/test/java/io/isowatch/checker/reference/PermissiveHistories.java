package io.isowatch.checker.reference;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * Random histories from a permissive store, so that every anomaly of {@code notes/semantics.md}
 * §3–§5 is common: 1–4 sessions, 1–4 keys, 1–8 transactions per session interleaved at random,
 * 1–5 operations each (45% writes), values unique per key. About 78% of transactions commit, 12%
 * abort, 10% end unknown. In a quarter of the histories about half of the keys are list keys
 * (appends, and list reads that return the prefix of the key's appends up to the chosen element).
 *
 * <p>Each history draws a chaos rate from {0, 0.05, 0.15, 0.3, 0.6}. A read is chaotic with that
 * probability, otherwise it returns what a serial store would (its own transaction's last write, or
 * the last non-aborted transaction's final write, or the initial value). A chaotic read returns a
 * stale final write or the initial value (30%), any earlier write of the key, aborted, intermediate
 * or its own (20%), the initial value (12%), a later write (12%), a never-written value (6%), or a
 * write of its own transaction, possibly a future one (20%). Generation is deterministic in the seed.
 */
public final class PermissiveHistories {
  private static final double[] CHAOS = {0, 0.05, 0.15, 0.3, 0.6};
  /** Values of never-written reads start here; real values stay far below. */
  private static final long THIN_AIR = 1_000_000;

  private final SplittableRandom rnd;
  private final IntArrayList txnSession = new IntArrayList();
  private final IntArrayList txnOpStart = IntArrayList.wrap(new int[] {0}, 1);
  private final IntArrayList opTxn = new IntArrayList();
  private final IntArrayList opKey = new IntArrayList();
  private final LongArrayList opValue = new LongArrayList();
  private final IntArrayList opWrite = new IntArrayList();
  private TxnStatus[] status;
  private boolean staleOnly;
  private boolean[] listKey;

  private PermissiveHistories(long seed) {
    this.rnd = new SplittableRandom(seed);
  }

  /** @return histories from seeds drawn by jqwik (shrinking is by seed only) */
  public static Arbitrary<History> histories() {
    return Arbitraries.longs().map(PermissiveHistories::generate);
  }

  /**
   * @param seed any seed; equal seeds give equal histories
   * @return a fresh history with sessions {@code s0..}, keys {@code x0..}, labels {@code 1..}
   */
  public static History generate(long seed) {
    return new PermissiveHistories(seed).build();
  }

  private History build() {
    int sessions = 1 + rnd.nextInt(4);
    int keys = 1 + rnd.nextInt(4);
    boolean lists = rnd.nextInt(4) == 0;
    listKey = new boolean[keys];
    for (int k = 0; k < keys; k++) {
      listKey[k] = lists && rnd.nextBoolean();
    }
    for (int s = 0; s < sessions; s++) {
      for (int i = 1 + rnd.nextInt(8); i > 0; i--) {
        txnSession.add(s);
      }
    }
    for (int i = txnSession.size() - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int tmp = txnSession.getInt(i);
      txnSession.set(i, txnSession.getInt(j));
      txnSession.set(j, tmp);
    }
    planOps(keys);
    double chaos = CHAOS[rnd.nextInt(CHAOS.length)];
    staleOnly = rnd.nextInt(3) == 0;
    for (int op = 0; op < opKey.size(); op++) {
      if (opWrite.getInt(op) == 0) {
        opValue.set(op, chaos > 0 && rnd.nextDouble() < chaos ? chaoticRead(op) : serialRead(op));
      }
    }
    return emit(sessions, keys);
  }

  private void planOps(int keys) {
    int n = txnSession.size();
    status = new TxnStatus[n];
    long[] next = new long[keys];
    for (int t = 0; t < n; t++) {
      int p = rnd.nextInt(100);
      status[t] = p < 78 ? TxnStatus.COMMITTED : p < 90 ? TxnStatus.ABORTED : TxnStatus.UNKNOWN;
      for (int i = 1 + rnd.nextInt(5); i > 0; i--) {
        int k = rnd.nextInt(keys);
        boolean write = rnd.nextInt(100) < 45;
        opTxn.add(t);
        opKey.add(k);
        opWrite.add(write ? 1 : 0);
        opValue.add(write ? ++next[k] : History.NIL);
      }
      txnOpStart.add(opKey.size());
    }
  }

  /** @return the last write of the read's key before it in its own transaction, -1 if none */
  private int ownLastWrite(int read) {
    for (int op = read - 1; op >= txnOpStart.getInt(opTxn.getInt(read)); op--) {
      if (isWriteOf(op, opKey.getInt(read))) {
        return op;
      }
    }
    return -1;
  }

  private boolean isWriteOf(int op, int key) {
    return opWrite.getInt(op) == 1 && opKey.getInt(op) == key;
  }

  /** @return whether {@code op} is its transaction's last write of its key */
  private boolean isFinalWrite(int op) {
    for (int o = op + 1; o < txnOpStart.getInt(opTxn.getInt(op) + 1); o++) {
      if (isWriteOf(o, opKey.getInt(op))) {
        return false;
      }
    }
    return opWrite.getInt(op) == 1;
  }

  private long serialRead(int read) {
    int own = ownLastWrite(read);
    if (own >= 0) {
      return opValue.getLong(own);
    }
    for (int op = txnOpStart.getInt(opTxn.getInt(read)) - 1; op >= 0; op--) {
      if (isWriteOf(op, opKey.getInt(read)) && status[opTxn.getInt(op)] != TxnStatus.ABORTED
          && isFinalWrite(op)) {
        return opValue.getLong(op);
      }
    }
    return History.NIL;
  }

  private long chaoticRead(int read) {
    int key = opKey.getInt(read);
    int txn = opTxn.getInt(read);
    IntArrayList pool = new IntArrayList();
    if (staleOnly && ownLastWrite(read) >= 0) {
      return serialRead(read);
    }
    int p = rnd.nextInt(staleOnly ? 30 : 100);
    for (int op = 0; op < opKey.size(); op++) {
      if (!isWriteOf(op, key)) {
        continue;
      }
      boolean stale = opTxn.getInt(op) < txn && status[opTxn.getInt(op)] != TxnStatus.ABORTED && isFinalWrite(op);
      if ((p < 30 && stale) || (p >= 30 && p < 50 && op < read) || (p >= 62 && p < 74 && op > read)
          || (p >= 80 && opTxn.getInt(op) == txn)) {
        pool.add(op);
      }
    }
    if (p < 30) {
      pool.add(-1);
    } else if (p >= 74 && p < 80) {
      return THIN_AIR + rnd.nextInt(1000);
    }
    return pool.isEmpty() ? History.NIL : valueOf(pool.getInt(rnd.nextInt(pool.size())));
  }

  private long valueOf(int op) {
    return op < 0 ? History.NIL : opValue.getLong(op);
  }

  private History emit(int sessions, int keys) {
    History h = new History();
    for (int s = 0; s < sessions; s++) {
      h.session("s" + s);
    }
    for (int k = 0; k < keys; k++) {
      h.key("x" + k);
    }
    for (int t = 0; t < txnSession.size(); t++) {
      h.beginTxn(txnSession.getInt(t), t + 1);
      for (int op = txnOpStart.getInt(t); op < txnOpStart.getInt(t + 1); op++) {
        int k = opKey.getInt(op);
        long v = opValue.getLong(op);
        if (opWrite.getInt(op) == 1) {
          if (listKey[k]) {
            h.append(k, v);
          } else {
            h.write(k, v);
          }
        } else if (listKey[k]) {
          long[] list = listUpTo(k, v);
          h.readList(k, list, 0, list.length);
        } else {
          h.read(k, v);
        }
      }
      h.end(status[t]);
    }
    return h;
  }

  /** @return the appends of {@code key} in plan order up to the one of {@code last}; [] for NIL */
  private long[] listUpTo(int key, long last) {
    LongArrayList list = new LongArrayList();
    if (last == History.NIL) {
      return new long[0];
    }
    for (int op = 0; op < opKey.size(); op++) {
      if (isWriteOf(op, key)) {
        list.add(opValue.getLong(op));
        if (opValue.getLong(op) == last) {
          return list.toLongArray();
        }
      }
    }
    return new long[] {last};
  }

  /**
   * @return whether a committed transaction of {@code h} reads a value (or a list element) that no
   *     transaction of {@code h} wrote: a thin-air read
   */
  public static boolean hasThinAirRead(History h) {
    for (int op = 0; op < h.opCount(); op++) {
      if (!h.committed(h.opTxn(op))) {
        continue;
      }
      if (h.opKind(op) == OpKind.READ && h.opValue(op) != History.NIL
          && h.writes().writerOf(h.opKey(op), h.opValue(op)) < 0) {
        return true;
      }
      if (h.opKind(op) == OpKind.READ_LIST && h.listKnown(op)) {
        for (int i = 0; i < h.listLength(op); i++) {
          if (h.writes().writerOf(h.opKey(op), h.listElement(op, i)) < 0) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * @return whether a transaction of unknown outcome of {@code h} counts as committed (a transaction
   *     that counts read one of its writes, to a fixpoint; {@link ReferenceReads#counted}): the batch
   *     checkers count it from the start, an incremental one only from its first counted reader's
   *     arrival on, so there the incremental checkers may find fewer violations (never more)
   */
  public static boolean hasReadUnknownOutcome(History h) {
    boolean[] counted = ReferenceReads.counted(h);
    for (int t = 0; t < h.txnCount(); t++) {
      if (counted[t] && h.status(t) == TxnStatus.UNKNOWN) {
        return true;
      }
    }
    return false;
  }
}
