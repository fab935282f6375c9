package io.isowatch.enginesim.engine;

import io.isowatch.checker.history.History;
import it.unimi.dsi.fastutil.ints.Int2LongMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;

/**
 * Committed versions of every key, oldest first: the version order ({@code ww}) of a history is the
 * order in which this store installed the versions.
 *
 * <p>Keys are dense ints; the store grows as keys appear. A commit installs all of a transaction's
 * writes at once, so no reader of the store ever sees part of a transaction. Memory: one {@code long}
 * per committed write.
 */
public final class MvccStore {
  private final ObjectArrayList<LongArrayList> versions = new ObjectArrayList<>();

  /**
   * @param key a key id {@code >= 0}
   * @return the value of the key's newest committed version, {@link History#NIL} if none
   */
  public long latest(int key) {
    if (key >= versions.size() || versions.get(key).isEmpty()) {
      return History.NIL;
    }
    LongArrayList vs = versions.get(key);
    return vs.getLong(vs.size() - 1);
  }

  /**
   * Installs one transaction's writes as new versions, all at once.
   *
   * @param writes key id to the value to install, in the order the versions are appended
   */
  public void install(Int2LongMap writes) {
    for (Int2LongMap.Entry w : writes.int2LongEntrySet()) {
      int key = w.getIntKey();
      while (versions.size() <= key) {
        versions.add(new LongArrayList());
      }
      versions.get(key).add(w.getLongValue());
    }
  }

  /**
   * @param key a key id {@code >= 0}
   * @return the values of the key's committed versions in version order, oldest first; a new array
   */
  public long[] versions(int key) {
    return key < versions.size() ? versions.get(key).toLongArray() : new long[0];
  }
}
