package io.isowatch.checker.window;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.objects.Object2LongOpenHashMap;
import it.unimi.dsi.fastutil.objects.Object2ObjectOpenHashMap;
import java.util.Map;

/**
 * The writers a {@link WindowChecker} knows, which decide whether a read waits ({@link HoldQueue})
 * and which writer a generation's read gets ({@link Generation#feed}).
 *
 * <p><b>Invariant.</b> Every transaction offered and not evicted has its txnId here, and each of
 * its writes a fingerprint ({@link Fingerprints}), mapped to its feed position, or to {@link
 * #ARRIVED} while it is held; an evicted transaction's writes go to the {@link EvictedWrites}
 * memory, which keeps them known as far as it reaches. A register read's writer is known when its
 * value is {@link History#NIL} or its fingerprint is here or in the memory. A list read's writers
 * are known when every element's are, except for the prefix it shares with the longest list read
 * of the key fed before with all elements known (kept per list key, journaled as {@code
 * verifiedList}).
 */
final class Writers {
  /** Writer position of a transaction that arrived and is held (not fed yet). */
  static final long ARRIVED = Long.MAX_VALUE;

  private static final int[] NONE = new int[0];

  private final WindowChecker.Journal journal;
  /** Fingerprint of each write to its writer's feed position or {@link #ARRIVED}; -1 default. */
  private final Long2LongOpenHashMap positions = new Long2LongOpenHashMap();
  private final Object2LongOpenHashMap<String> txnIds = new Object2LongOpenHashMap<>();
  private final EvictedWrites evicted;
  /** Per list key, the longest list read fed whose elements all had known writers. */
  private final Object2ObjectOpenHashMap<String, long[]> verified = new Object2ObjectOpenHashMap<>();

  /**
   * @param evictedWrites capacity of the evicted-write memory ({@link WindowConfig#evictedWrites()})
   * @param journal receives the changes of the verified lists and of the evicted-write memory
   */
  Writers(int evictedWrites, WindowChecker.Journal journal) {
    this.journal = journal;
    this.evicted = new EvictedWrites(evictedWrites, journal);
    positions.defaultReturnValue(-1);
    txnIds.defaultReturnValue(-1);
  }

  /**
   * @throws RejectedTransactionException if {@code txn}'s txnId is here ({@code duplicate-txn}) or
   *     it writes a (key, value) written by a transaction here or in the evicted-write memory ({@code
   *     duplicate-write})
   */
  void requireNew(WindowTxn txn) {
    if (txnIds.containsKey(txn.id())) {
      throw new RejectedTransactionException(RejectedTransactionException.DUPLICATE_TXN,
          "transaction " + txn.id() + " arrived before");
    }
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      if (OpKind.isWrite(txn.kind(i))) {
        long fp = Fingerprints.of(txn.keyHash(i), txn.value(i));
        if (knownWrite(txn.keyHash(i), fp)) {
          throw new RejectedTransactionException(RejectedTransactionException.DUPLICATE_WRITE,
              "operation " + i + " of " + txn.id() + " writes " + txn.value(i) + " to " + txn.key(i)
                  + ", which an earlier transaction wrote");
        }
      }
    }
  }

  /**
   * Records {@code txn} and its writes at feed position {@code seq}, or {@link #ARRIVED} for a
   * transaction that arrived and is not fed yet.
   */
  void register(WindowTxn txn, long seq) {
    txnIds.put(txn.id(), seq);
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      if (OpKind.isWrite(txn.kind(i))) {
        positions.put(Fingerprints.of(txn.keyHash(i), txn.value(i)), seq);
      }
    }
  }

  /**
   * Records that {@code txn} was fed at {@code seq}, and remembers its list reads fed with every
   * element known (journaled).
   *
   * @param unresolvedOps sorted operation indexes fed as unknown reads
   */
  void fed(WindowTxn txn, long seq, int[] unresolvedOps) {
    register(txn, seq);
    int u = 0;
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      if (u < unresolvedOps.length && unresolvedOps[u] == i) {
        u++;
        continue;
      }
      if (txn.kind(i) == OpKind.READ_LIST && txn.status() == TxnStatus.COMMITTED) {
        long[] prev = verified.get(txn.key(i));
        if (prev == null || prev.length < txn.listLength(i)) {
          verified.put(txn.key(i), txn.listRef(i));
          journal.verifiedList(txn.key(i), txn.listRef(i));
        }
      }
    }
  }

  /** Forgets an evicted transaction; its writes go to the evicted-write memory (journaled). */
  void evict(WindowTxn txn) {
    txnIds.removeLong(txn.id());
    for (int j = 0, m = txn.opCount(); j < m; j++) {
      if (OpKind.isWrite(txn.kind(j))) {
        long fp = Fingerprints.of(txn.keyHash(j), txn.value(j));
        positions.remove(fp);
        evicted.remember(txn.keyHash(j), fp);
      }
    }
  }

  /**
   * Puts the stored verified lists and evicted-write memory back, without journaling them.
   *
   * @param lists per list key, the last list journaled as {@code verifiedList}
   * @see EvictedWrites#restore
   */
  void restore(Map<String, long[]> lists, long[] evictedSlots, int ringNext, Map<Long, Long> lastEvicted) {
    evicted.restore(evictedSlots, ringNext, lastEvicted);
    verified.putAll(lists);
  }

  /**
   * @return fingerprint of each write to its writer's feed position ({@link #ARRIVED} for a held
   *     one, -1 default for none); not to be modified
   */
  Long2LongOpenHashMap positions() {
    return positions;
  }

  /**
   * @param keyHash a key's hash
   * @return whether a write of that key may have been evicted and forgotten ({@link
   *     EvictedWrites#mayHaveForgotten})
   */
  boolean mayHaveForgotten(long keyHash) {
    return evicted.mayHaveForgotten(keyHash);
  }

  /** @return the ring slot the evicted-write memory fills next */
  int ringNext() {
    return evicted.next();
  }

  /**
   * @return whether every value {@code txn} reads has a writer that arrived (or was evicted); true
   *     for a transaction that did not commit, whose reads are not checked
   */
  boolean known(WindowTxn txn) {
    if (txn.status() != TxnStatus.COMMITTED) {
      return true;
    }
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      if (!known(txn, i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * @return for a transaction that did not commit (never held, its reads not checked), the reads
   *     whose writer has not arrived, fed as unknown without a report, so that a replay after a
   *     restart feeds them the same way; none for a committed one
   */
  int[] unchecked(WindowTxn txn) {
    return txn.status() == TxnStatus.COMMITTED ? NONE : missing(txn);
  }

  /** @return the sorted indexes of {@code txn}'s reads whose writer is not known */
  int[] missing(WindowTxn txn) {
    IntArrayList ops = new IntArrayList(0);
    for (int i = 0, n = txn.opCount(); i < n; i++) {
      if (!known(txn, i)) {
        ops.add(i);
      }
    }
    return ops.toIntArray();
  }

  private boolean known(WindowTxn txn, int i) {
    byte k = txn.kind(i);
    if (k == OpKind.READ) {
      long v = txn.value(i);
      return v == History.NIL || knownWrite(txn.keyHash(i), Fingerprints.of(txn.keyHash(i), v));
    }
    if (k == OpKind.READ_LIST) {
      long kh = txn.keyHash(i);
      long[] seen = verified.get(txn.key(i));
      int j = 0;
      int n = txn.listLength(i);
      if (seen != null) {
        for (int m = Math.min(n, seen.length); j < m && seen[j] == txn.listElement(i, j); j++) {
          // a prefix of a list read whose elements all had writers: known
        }
      }
      for (; j < n; j++) {
        if (!knownWrite(kh, Fingerprints.of(kh, txn.listElement(i, j)))) {
          return false;
        }
      }
    }
    return true;
  }

  private boolean knownWrite(long keyHash, long fp) {
    return positions.containsKey(fp) || evicted.contains(keyHash, fp);
  }
}
