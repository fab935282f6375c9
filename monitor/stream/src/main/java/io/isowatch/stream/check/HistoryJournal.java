package io.isowatch.stream.check;

import io.isowatch.checker.window.WindowChecker;
import io.isowatch.checker.window.WindowConfig;
import io.isowatch.checker.window.WindowTxn;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.mapping.TransactionMapping;
import io.isowatch.schemas.serde.RecordCodec;
import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One history's durable checker state in the stage's stores: the window checker's {@link
 * WindowChecker.Journal} written through to them, and the restore that reads them back.
 *
 * <p>Values: a block of fed transactions, keyed by feed position / {@value FedBlock#TXNS}, is a
 * {@link FedBlock} (a block partly before the window's start stays until all of it is evicted, and
 * a restore skips its evicted part); a held transaction is the Transaction in single-object Avro; a reported id its last feed position (8
 * bytes); a block of {@value #SLOTS_PER_ENTRY} evicted-write slots, keyed by slot / {@value
 * #SLOTS_PER_ENTRY}, the fingerprints of its slots filled so far (8 bytes each, slot order; slots
 * fill in order, so the blocks in key order are the memory slot by slot); a key hash its latest evicted write's
 * fingerprint (8 bytes); a list key its longest fully known list read (8 bytes per element); the
 * meta entry {@code [nextSeq][nextArrival]
 * [streamTime][int ringNext][byte listAppend][int n][n longs: generation starts]}.
 */
final class HistoryJournal implements WindowChecker.Journal {
  /** Evicted-write slots per entry of the evicted store. */
  static final int SLOTS_PER_ENTRY = 64;
  private static final BytesSerializer PREFIX = new BytesSerializer();

  private final String historyId;
  private final byte[] prefix;
  private final CheckerStores stores;
  /** The window-store block being filled; opened from the store on the first feed after a restart. */
  private final FedBlock openBlock = new FedBlock();
  /**
   * The evicted-store block that {@link #evictedWrite} is filling, and its index (-1 if none): a
   * retirement fills thousands of consecutive slots, so a block is read and written once per
   * retirement instead of once per slot. Written out by {@link #evicted}.
   */
  private long slotBlock = -1;
  private byte[] slotBytes;
  /**
   * Latest evicted writes by key hash since the last {@link #evicted}: a retirement evicts every
   * write of half the window, several per key, and each key is written once.
   */
  private final Long2LongOpenHashMap lastWrites = new Long2LongOpenHashMap();

  HistoryJournal(String historyId, CheckerStores stores) {
    this.historyId = historyId;
    this.prefix = StoreKeys.prefix(historyId);
    this.stores = stores;
  }

  @Override
  public void held(long arrival, WindowTxn txn) {
    stores.held().put(StoreKeys.withLong(prefix, arrival),
        RecordCodec.encode(TransactionMapping.toAvro(historyId, txn)));
  }

  @Override
  public void fed(long seq, long arrival, WindowTxn txn, int[] unresolved) {
    long b = FedBlock.of(seq);
    if (openBlock.index() != b) {
      openBlock.open(b, stores.window().get(StoreKeys.withLong(prefix, b)));
    }
    openBlock.append(seq, txn, unresolved);
    stores.window().put(StoreKeys.withLong(prefix, b), openBlock.bytes());
    if (arrival >= 0) {
      stores.held().delete(StoreKeys.withLong(prefix, arrival));
    }
  }

  /**
   * Writes the evicted-write slots and latest evicted writes of the retirement that ends with this
   * call ({@code WindowChecker} journals them just before), then deletes the window blocks whose
   * positions are all before {@code to}; a block reaching past it stays.
   */
  @Override
  public void evicted(long from, long to) {
    writeSlotBlock();
    for (Long2LongMap.Entry e : lastWrites.long2LongEntrySet()) {
      stores.lastWrites().put(StoreKeys.withLong(prefix, e.getLongKey()), StoreKeys.longBytes(e.getLongValue()));
    }
    lastWrites.clear();
    for (long b = FedBlock.of(from); b < FedBlock.of(to); b++) {
      stores.window().delete(StoreKeys.withLong(prefix, b));
    }
  }

  /**
   * Writes the slot into its block of {@value #SLOTS_PER_ENTRY}, in memory until the block changes
   * or the retirement ends ({@link #evicted}): a window's retirement fills thousands of consecutive
   * slots at once, so each block is read and written once.
   */
  @Override
  public void evictedWrite(int slot, long fingerprint) {
    int b = slot / SLOTS_PER_ENTRY;
    int at = (slot % SLOTS_PER_ENTRY) * Long.BYTES;
    if (b != slotBlock) {
      writeSlotBlock();
      slotBlock = b;
      // a copy: the cache hands out the array it holds
      byte[] stored = stores.evicted().get(StoreKeys.withInt(prefix, b));
      slotBytes = stored == null ? new byte[0] : stored.clone();
    }
    if (slotBytes.length < at + Long.BYTES) {
      slotBytes = Arrays.copyOf(slotBytes, at + Long.BYTES);
    }
    ByteBuffer.wrap(slotBytes).putLong(at, fingerprint);
  }

  private void writeSlotBlock() {
    if (slotBlock >= 0) {
      stores.evicted().put(StoreKeys.withInt(prefix, (int) slotBlock), slotBytes);
      slotBlock = -1;
      slotBytes = null;
    }
  }

  /** Keeps the write in memory until the retirement ends ({@link #evicted}). */
  @Override
  public void evictedLastWrite(long keyHash, long fingerprint) {
    lastWrites.put(keyHash, fingerprint);
  }

  @Override
  public void verifiedList(String key, long[] elements) {
    ByteBuffer b = ByteBuffer.allocate(8 * elements.length);
    for (long e : elements) {
      b.putLong(e);
    }
    stores.lists().put(StoreKeys.withString(prefix, key), b.array());
  }

  @Override
  public void reported(String id, long lastSeq) {
    stores.reported().put(StoreKeys.withString(prefix, id), StoreKeys.longBytes(lastSeq));
  }

  @Override
  public void forgotten(String id) {
    stores.reported().delete(StoreKeys.withString(prefix, id));
  }

  /** Stores the checker's small state; called after every change. */
  void meta(WindowChecker.Meta m) {
    long[] starts = m.generationStarts();
    ByteBuffer b = ByteBuffer.allocate(8 * 3 + 4 + 1 + 4 + 8 * starts.length)
        .putLong(m.nextSeq()).putLong(m.nextArrival()).putLong(m.streamTime()).putInt(m.ringNext())
        .put((byte) (m.listAppend() ? 1 : 0)).putInt(starts.length);
    for (long s : starts) {
      b.putLong(s);
    }
    stores.meta().put(Bytes.wrap(prefix), b.array());
  }

  /**
   * @param meta the stored meta entry
   * @return the history's checker rebuilt from the stores ({@link WindowChecker#restore})
   * @throws IllegalStateException if a stored transaction cannot be decoded (the stores are corrupt)
   */
  WindowChecker restore(WindowConfig config, byte[] meta) {
    ByteBuffer b = ByteBuffer.wrap(meta);
    long nextSeq = b.getLong();
    long nextArrival = b.getLong();
    long streamTime = b.getLong();
    int ringNext = b.getInt();
    boolean listAppend = b.get() != 0;
    long[] starts = new long[b.getInt()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = b.getLong();
    }
    WindowChecker.Meta m = new WindowChecker.Meta(nextSeq, nextArrival, streamTime, ringNext, listAppend, starts);
    List<WindowChecker.Fed> fed = new ArrayList<>();
    long liveBase = starts.length == 0 ? nextSeq : starts[0];
    try (KeyValueIterator<Bytes, byte[]> it = scan(stores.window())) {
      while (it.hasNext()) {
        FedBlock.read(it.next().value, liveBase, fed);
      }
    }
    List<WindowChecker.Held> held = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> it = scan(stores.held())) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        held.add(new WindowChecker.Held(StoreKeys.longAfter(kv.key.get(), prefix.length), txn(kv.value)));
      }
    }
    Map<String, Long> reported = new LinkedHashMap<>();
    try (KeyValueIterator<Bytes, byte[]> it = scan(stores.reported())) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        reported.put(StoreKeys.stringAfter(kv.key.get(), prefix.length), StoreKeys.longOf(kv.value));
      }
    }
    LongArrayList ring = new LongArrayList();
    try (KeyValueIterator<Bytes, byte[]> it = scan(stores.evicted())) {
      while (it.hasNext()) {
        ByteBuffer block = ByteBuffer.wrap(it.next().value);
        while (block.hasRemaining()) {
          ring.add(block.getLong());
        }
      }
    }
    long[] evicted = ring.toLongArray();
    Map<Long, Long> lastWrites = new HashMap<>();
    try (KeyValueIterator<Bytes, byte[]> it = scan(stores.lastWrites())) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        lastWrites.put(StoreKeys.longAfter(kv.key.get(), prefix.length), StoreKeys.longOf(kv.value));
      }
    }
    Map<String, long[]> lists = new HashMap<>();
    try (KeyValueIterator<Bytes, byte[]> it = scan(stores.lists())) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        long[] elements = new long[kv.value.length / 8];
        ByteBuffer.wrap(kv.value).asLongBuffer().get(elements);
        lists.put(StoreKeys.stringAfter(kv.key.get(), prefix.length), elements);
      }
    }
    return WindowChecker.restore(config, this,
        new WindowChecker.Snapshot(m, fed, held, reported, evicted, lastWrites, lists));
  }

  private KeyValueIterator<Bytes, byte[]> scan(KeyValueStore<Bytes, byte[]> store) {
    return store.prefixScan(Bytes.wrap(prefix), PREFIX);
  }

  private static WindowTxn txn(byte[] bytes) {
    RecordCodec.Decoded d = RecordCodec.decode(bytes);
    if (!(d.record() instanceof Transaction)) {
      throw new IllegalStateException("checker store holds a record that is not a transaction: " + d.error());
    }
    return TransactionMapping.toWindow((Transaction) d.record());
  }
}
