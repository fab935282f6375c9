package io.isowatch.stream.assembly;

import it.unimi.dsi.fastutil.HashCommon;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The whole {@code Transaction} records the assembler emitted as soon as they arrived, remembered
 * for the duplicate retention in chunks of up to {@value #PER_CHUNK} instead of one transaction
 * state and one timer per transaction: their keys are unique, so the stores' record cache cannot
 * absorb them, and each was a changelog record (two more when forgotten); a chunk is rewritten as it
 * fills, and with the cache reaches the changelog about once.
 *
 * <p>Layout, in the deadlines store ({@link AssemblerStores#DEADLINES}): a chunk is the timer key
 * {@code AssemblerStores.deadline(}{@value #KIND}{@code , firstDue, firstTxnId)} (firstDue the
 * earliest forget time in the chunk, firstTxnId the txnId of the entry with that time, which makes
 * the key unique), and its value the entries one after the other, each {@code [UTF txnId][UTF
 * session key][long txnSeq][long dueMs][byte n][n bytes: SHA-256 of the record]} ({@code
 * DataOutputStream} encoding). Entries are appended to the chunk opened last while it has room and
 * their due time is not before its key's; otherwise a new chunk opens. An entry is forgotten at the
 * first punctuation at or after its due time, like a per-transaction timer: the due chunks are read
 * in key order, their due entries dropped and the rest written back under the key of their new
 * earliest due time.
 *
 * <p>In memory, an index from a 64-bit hash of the txnId to its chunk's firstDue, so that a new
 * transaction's look-up costs no store read; a txnId whose hash another remembered txnId already
 * holds is kept by its own string instead. Rebuilt from the store by {@link #load}, so a restarted
 * instance remembers exactly what the stores hold. 21 to 43 bytes of heap per remembered
 * transaction (two longs per slot of an open-addressing table at most three quarters full).
 */
final class WholeRetention {
  /** Timer kind of the chunks in the deadlines store. */
  static final char KIND = 'w';
  /** Entries per chunk at most. */
  static final int PER_CHUNK = 32;

  /** A remembered transaction. */
  record Entry(String txnId, String session, long txnSeq, long dueMs, byte[] digest) {}

  private final KeyValueStore<String, byte[]> store;
  private final ToLongFunction<String> hash;
  /** txnId hash to the firstDue of its chunk, for txnIds not in {@link #collided}. */
  private final Long2LongOpenHashMap byHash = new Long2LongOpenHashMap();
  /** txnId to the firstDue of its chunk, for a txnId whose hash another one held when it came. */
  private final Map<String, Long> collided = new HashMap<>();
  /**
   * The key of the chunk entries are appended to, its firstDue, entries and bytes; null when none is
   * open (after a start, or once a punctuation rewrote or deleted it).
   */
  private String openKey;
  private long openDue;
  private int openCount;
  private final ByteArrayOutputStream openBytes = new ByteArrayOutputStream(64 * PER_CHUNK);

  /** @param store the assembler's deadlines store */
  WholeRetention(KeyValueStore<String, byte[]> store) {
    this(store, WholeRetention::hash64);
  }

  /** @param hash the txnId hash (tests pass a weak one to make collisions) */
  WholeRetention(KeyValueStore<String, byte[]> store, ToLongFunction<String> hash) {
    this.store = store;
    this.hash = hash;
  }

  /** Rebuilds the index from every chunk in the store; no chunk is open afterwards. */
  void load() {
    byHash.clear();
    collided.clear();
    openKey = null;
    try (KeyValueIterator<String, byte[]> it =
        store.range(AssemblerStores.firstDeadline(KIND), AssemblerStores.lastDeadline(KIND, Long.MAX_VALUE))) {
      while (it.hasNext()) {
        KeyValue<String, byte[]> kv = it.next();
        long due = dueOf(kv.key);
        for (Entry e : entries(kv.value)) {
          index(e.txnId(), due);
        }
      }
    }
  }

  /**
   * @return the remembered transaction {@code txnId}, or null if none (never remembered, or
   *     forgotten)
   */
  Entry find(String txnId) {
    Long due = collided.get(txnId);
    if (due == null) {
      long h = hash.applyAsLong(txnId);
      if (!byHash.containsKey(h)) {
        return null;
      }
      due = byHash.get(h);
    }
    try (KeyValueIterator<String, byte[]> it =
        store.range(AssemblerStores.deadline(KIND, due, ""), AssemblerStores.lastDeadline(KIND, due))) {
      while (it.hasNext()) {
        for (Entry e : entries(it.next().value)) {
          if (e.txnId().equals(txnId)) {
            return e;
          }
        }
      }
    }
    return null; // another txnId with the same hash
  }

  /** Remembers {@code e}, whose txnId is not remembered, until its due time. */
  void add(Entry e) {
    if (openKey == null || openCount == PER_CHUNK || e.dueMs() < openDue) {
      openKey = AssemblerStores.deadline(KIND, e.dueMs(), e.txnId());
      openDue = e.dueMs();
      openCount = 0;
      openBytes.reset();
    }
    write(e, openBytes);
    openCount++;
    store.put(openKey, openBytes.toByteArray());
    index(e.txnId(), openDue);
  }

  /** Forgets the entries due at or before {@code nowMs}. */
  void forgetDue(long nowMs) {
    List<KeyValue<String, byte[]>> due = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it =
        store.range(AssemblerStores.firstDeadline(KIND), AssemblerStores.lastDeadline(KIND, nowMs))) {
      it.forEachRemaining(due::add);
    }
    for (KeyValue<String, byte[]> kv : due) {
      if (kv.key.equals(openKey)) {
        openKey = null;
      }
      store.delete(kv.key);
      List<Entry> kept = new ArrayList<>();
      for (Entry e : entries(kv.value)) {
        if (e.dueMs() <= nowMs) {
          unindex(e.txnId());
        } else {
          kept.add(e);
        }
      }
      if (kept.isEmpty()) {
        continue;
      }
      Entry first = kept.get(0);
      for (Entry e : kept) {
        if (e.dueMs() < first.dueMs()) {
          first = e;
        }
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 * kept.size());
      for (Entry e : kept) {
        write(e, bytes);
        reindex(e.txnId(), first.dueMs());
      }
      store.put(AssemblerStores.deadline(KIND, first.dueMs(), first.txnId()), bytes.toByteArray());
    }
  }

  private void index(String txnId, long due) {
    long h = hash.applyAsLong(txnId);
    if (byHash.containsKey(h)) {
      collided.put(txnId, due);
    } else {
      byHash.put(h, due);
    }
  }

  private void reindex(String txnId, long due) {
    if (collided.containsKey(txnId)) {
      collided.put(txnId, due);
    } else {
      byHash.put(hash.applyAsLong(txnId), due);
    }
  }

  private void unindex(String txnId) {
    if (collided.remove(txnId) == null) {
      byHash.remove(hash.applyAsLong(txnId));
    }
  }

  private static long dueOf(String key) {
    return Long.parseLong(key.substring(1, 20));
  }

  private static void write(Entry e, ByteArrayOutputStream to) {
    try {
      DataOutputStream out = new DataOutputStream(to);
      out.writeUTF(e.txnId());
      out.writeUTF(e.session());
      out.writeLong(e.txnSeq());
      out.writeLong(e.dueMs());
      out.writeByte(e.digest().length);
      out.write(e.digest());
      out.flush();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** @return the entries of a chunk's value, in the order they were written */
  static List<Entry> entries(byte[] chunk) {
    List<Entry> out = new ArrayList<>();
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(chunk))) {
      while (in.available() > 0) {
        String txnId = in.readUTF();
        String session = in.readUTF();
        long txnSeq = in.readLong();
        long dueMs = in.readLong();
        byte[] digest = in.readNBytes(in.readUnsignedByte());
        out.add(new Entry(txnId, session, txnSeq, dueMs, digest));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("corrupt chunk of emitted whole transactions", e);
    }
    return out;
  }

  /** @return a 64-bit hash of the string's chars (polynomial, then murmur3's finaliser) */
  static long hash64(String s) {
    long h = s.length();
    for (int i = 0; i < s.length(); i++) {
      h = 31 * h + s.charAt(i);
    }
    return HashCommon.murmurHash3(h);
  }
}
