package io.isowatch.checker.window;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A journal kept in maps, as the stream's stores keep it, and the restore from it. */
final class MemoryJournal implements WindowChecker.Journal {
  final TreeMap<Long, WindowChecker.Fed> fed = new TreeMap<>();
  final TreeMap<Long, WindowChecker.Held> held = new TreeMap<>();
  final Map<String, Long> reported = new LinkedHashMap<>();
  final TreeMap<Integer, Long> evicted = new TreeMap<>();
  final Map<Long, Long> lastEvicted = new LinkedHashMap<>();
  final Map<String, long[]> lists = new LinkedHashMap<>();

  @Override
  public void held(long arrival, WindowTxn txn) {
    held.put(arrival, new WindowChecker.Held(arrival, txn));
  }

  @Override
  public void fed(long seq, long arrival, WindowTxn txn, int[] unresolved) {
    fed.put(seq, new WindowChecker.Fed(seq, txn, unresolved));
    if (arrival >= 0) {
      held.remove(arrival);
    }
  }

  @Override
  public void evicted(long from, long to) {
    fed.subMap(from, to).clear();
  }

  @Override
  public void evictedWrite(int slot, long fingerprint) {
    evicted.put(slot, fingerprint);
  }

  @Override
  public void evictedLastWrite(long keyHash, long fingerprint) {
    lastEvicted.put(keyHash, fingerprint);
  }

  @Override
  public void verifiedList(String key, long[] elements) {
    lists.put(key, elements);
  }

  @Override
  public void reported(String id, long lastSeq) {
    reported.put(id, lastSeq);
  }

  @Override
  public void forgotten(String id) {
    reported.remove(id);
  }

  /** @return a checker rebuilt from this journal and {@code meta}, journaling here again */
  WindowChecker restore(WindowConfig config, WindowChecker.Meta meta) {
    long[] ring = new long[evicted.size()];
    int i = 0;
    for (long fp : evicted.values()) {
      ring[i++] = fp;
    }
    List<WindowChecker.Fed> f = new ArrayList<>(fed.values());
    List<WindowChecker.Held> h = new ArrayList<>(held.values());
    return WindowChecker.restore(config, this, new WindowChecker.Snapshot(meta, f, h,
        new LinkedHashMap<>(reported), ring, new LinkedHashMap<>(lastEvicted), new LinkedHashMap<>(lists)));
  }
}
