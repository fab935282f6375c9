package io.isowatch.checker.window;

import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.Arrays;
import java.util.Map;

/**
 * The evicted-write memory of a {@link WindowChecker}: fingerprints ({@link Fingerprints}) of the
 * writes of transactions that left the window, so that a read of a value written before the window
 * began is recognised as having a writer, not held and reported as a thin-air read.
 *
 * <p><b>Invariant.</b> The ring holds the fingerprints of the last min(capacity, evicted so far)
 * evicted writes, the next one going to slot {@link #next()}; the recent set holds exactly the
 * ring's fingerprints; per key hash ever evicted, the latest evicted write's fingerprint is kept
 * apart. Memory: 8 bytes per ring slot (at most {@link WindowConfig#evictedWrites()}, grown on
 * demand), and 16 bytes per key ever written (this part grows with the key space, not with time),
 * so that reads of the current or recent values of cold keys are recognised. A read of an older
 * value evicted longer ago than the ring reaches is not recognised; whether that can have happened
 * for a key is {@link #mayHaveForgotten}, and where it can, the window counts the read as
 * unresolved instead of reporting a thin-air read, which it could not prove. A fingerprint
 * collision (probability about 2^-64 per pair of writes) can only hide an unresolved read. Every change goes to the {@link
 * WindowChecker.Journal} ({@code evictedWrite}, {@code evictedLastWrite}).
 */
final class EvictedWrites {
  /** Slots the ring starts with (a monitor may check many small histories). */
  private static final int INITIAL_RING = 1024;

  private final WindowChecker.Journal journal;
  private final LongOpenHashSet recent = new LongOpenHashSet();
  /** Per key hash, the fingerprint of its latest evicted write. */
  private final Long2LongOpenHashMap lastPerKey = new Long2LongOpenHashMap();
  /** Grown on demand up to {@link #capacity} slots. */
  private long[] ring;
  private int capacity;
  private int next;
  private int size;

  /**
   * @param capacity how many fingerprints the ring keeps ({@link WindowConfig#evictedWrites()}); 0
   *     for none (the latest write per key is still kept)
   * @param journal receives every change
   */
  EvictedWrites(int capacity, WindowChecker.Journal journal) {
    this.journal = journal;
    this.capacity = capacity;
    this.ring = new long[Math.min(capacity, INITIAL_RING)];
  }

  /**
   * Puts the stored memory back, without journaling it.
   *
   * @param slots the ring, slot by slot, as journaled; a longer ring than the capacity raises it
   * @param storedNext the slot the stored run would have filled next
   * @param lastWrites per key hash, the fingerprint of its latest evicted write
   */
  void restore(long[] slots, int storedNext, Map<Long, Long> lastWrites) {
    capacity = Math.max(capacity, slots.length);
    ring = Arrays.copyOf(slots, Math.max(slots.length, ring.length));
    size = slots.length;
    next = capacity == 0 ? 0 : storedNext % capacity;
    for (long fp : slots) {
      recent.add(fp);
    }
    lastWrites.forEach((keyHash, fp) -> lastPerKey.put((long) keyHash, (long) fp));
  }

  /**
   * @param keyHash the key's hash ({@link Fingerprints#ofKey})
   * @param fp the write's fingerprint ({@link Fingerprints#of})
   * @return whether that write is remembered: in the ring, or the key's latest evicted write
   */
  boolean contains(long keyHash, long fp) {
    return recent.contains(fp) || (lastPerKey.containsKey(keyHash) && lastPerKey.get(keyHash) == fp);
  }

  /**
   * Whether an evicted write of a key can be missing from this memory: the key had a write evicted
   * and the ring is full (it may have dropped one; with capacity 0 it keeps none). A ring not yet
   * full holds every evicted write, and a key with no evicted write has all its writes in the window,
   * so otherwise a value of the key that is neither here nor in the window was never written.
   *
   * @param keyHash the key's hash ({@link Fingerprints#ofKey})
   * @return whether a read of an unknown value of that key may be of a forgotten write
   */
  boolean mayHaveForgotten(long keyHash) {
    return lastPerKey.containsKey(keyHash) && size >= capacity;
  }

  /**
   * Remembers an evicted write: in the ring, overwriting the oldest once it is full, and as its
   * key's latest evicted write.
   *
   * @param keyHash the key's hash
   * @param fp the write's fingerprint
   */
  void remember(long keyHash, long fp) {
    if (capacity > 0) {
      if (size == capacity) {
        recent.remove(ring[next]);
      } else {
        size++;
        if (next >= ring.length) {
          ring = Arrays.copyOf(ring, Math.min(capacity, Math.max(1, ring.length * 2)));
        }
      }
      ring[next] = fp;
      recent.add(fp);
      journal.evictedWrite(next, fp);
      next = (next + 1) % capacity;
    }
    lastPerKey.put(keyHash, fp);
    journal.evictedLastWrite(keyHash, fp);
  }

  /** @return the ring slot the next evicted write goes to ({@link WindowChecker.Meta#ringNext()}) */
  int next() {
    return next;
  }
}
