package io.isowatch.stream.check;

import io.isowatch.checker.window.WindowChecker;
import io.isowatch.checker.window.WindowConfig;
import io.isowatch.checker.window.WindowTxn;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.serde.RecordCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
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
 * <p>Values: a fed transaction is {@code [int n][n ints: unresolved op indexes][Transaction in
 * single-object Avro]}; a held one the Transaction alone; a reported id its last feed position (8
 * bytes); an evicted-write slot its fingerprint (8 bytes); the meta entry {@code [nextSeq][nextArrival]
 * [streamTime][int ringNext][byte listAppend][int n][n longs: generation starts]}.
 */
final class HistoryJournal implements WindowChecker.Journal {
  private static final BytesSerializer PREFIX = new BytesSerializer();

  private final String historyId;
  private final byte[] prefix;
  private final CheckerStores stores;

  HistoryJournal(String historyId, CheckerStores stores) {
    this.historyId = historyId;
    this.prefix = StoreKeys.prefix(historyId);
    this.stores = stores;
  }

  @Override
  public void held(long arrival, WindowTxn txn) {
    stores.held().put(StoreKeys.withLong(prefix, arrival), RecordCodec.encode(Records.toAvro(historyId, txn)));
  }

  @Override
  public void fed(long seq, long arrival, WindowTxn txn, int[] unresolved) {
    byte[] body = RecordCodec.encode(Records.toAvro(historyId, txn));
    ByteBuffer b = ByteBuffer.allocate(4 + 4 * unresolved.length + body.length).putInt(unresolved.length);
    for (int op : unresolved) {
      b.putInt(op);
    }
    stores.window().put(StoreKeys.withLong(prefix, seq), b.put(body).array());
    if (arrival >= 0) {
      stores.held().delete(StoreKeys.withLong(prefix, arrival));
    }
  }

  @Override
  public void evicted(long from, long to) {
    for (long s = from; s < to; s++) {
      stores.window().delete(StoreKeys.withLong(prefix, s));
    }
  }

  @Override
  public void evictedWrite(int slot, long fingerprint) {
    stores.evicted().put(StoreKeys.withInt(prefix, slot), StoreKeys.longBytes(fingerprint));
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
    try (KeyValueIterator<Bytes, byte[]> it = scan(stores.window())) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        ByteBuffer v = ByteBuffer.wrap(kv.value);
        int[] unresolved = new int[v.getInt()];
        for (int i = 0; i < unresolved.length; i++) {
          unresolved[i] = v.getInt();
        }
        byte[] body = new byte[v.remaining()];
        v.get(body);
        fed.add(new WindowChecker.Fed(StoreKeys.longAfter(kv.key.get(), prefix.length), txn(body), unresolved));
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
    List<Long> ring = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> it = scan(stores.evicted())) {
      while (it.hasNext()) {
        ring.add(StoreKeys.longOf(it.next().value));
      }
    }
    long[] evicted = ring.stream().mapToLong(Long::longValue).toArray();
    return WindowChecker.restore(config, this, m, fed, held, reported, evicted);
  }

  private KeyValueIterator<Bytes, byte[]> scan(KeyValueStore<Bytes, byte[]> store) {
    return store.prefixScan(Bytes.wrap(prefix), PREFIX);
  }

  private static WindowTxn txn(byte[] bytes) {
    RecordCodec.Decoded d = RecordCodec.decode(bytes);
    if (!(d.record() instanceof Transaction)) {
      throw new IllegalStateException("checker store holds a record that is not a transaction: " + d.error());
    }
    return Records.toWindow((Transaction) d.record());
  }
}
