package io.isowatch.enginesim.engine;

import io.isowatch.checker.history.History;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;

/**
 * Committed versions of every object, in install order: the version order ({@code ww}) of a history
 * is the order in which this store installed the versions, and install timestamps increase along it.
 *
 * <p>Objects are dense ints: key {@code k}'s register is object {@link #register(int) 2k}, its list
 * object {@link #list(int) 2k+1}. A version carries its writer (an engine transaction id), its
 * install timestamp ({@code >= 1}; timestamp 0 is the initial state), and its payload: the register
 * value, or the whole list. The store grows as objects appear. Memory: one version per installed
 * write; a list version holds its whole list.
 */
public final class MvccStore {
  /**
   * One installed version.
   *
   * @param writer the engine transaction that wrote it
   * @param ts its install timestamp, {@code >= 1}
   * @param value the register value (list objects: unused, {@link History#NIL})
   * @param list the list, oldest element first (register objects: empty); never modified
   */
  public record Version(int writer, long ts, long value, long[] list) {}

  private static final long[] EMPTY = new long[0];

  private final ObjectArrayList<ObjectArrayList<Version>> versions = new ObjectArrayList<>();

  /** @return the object id of key {@code key}'s register */
  public static int register(int key) {
    return 2 * key;
  }

  /** @return the object id of key {@code key}'s list */
  public static int list(int key) {
    return 2 * key + 1;
  }

  /** @return whether object {@code obj} is a list */
  public static boolean isList(int obj) {
    return (obj & 1) == 1;
  }

  /**
   * @param ts a timestamp; versions installed after it are invisible
   * @return the newest version of {@code obj} with timestamp {@code <= ts}, {@code null} for the
   *     initial state
   */
  public Version visibleAt(int obj, long ts) {
    ObjectArrayList<Version> vs = obj < versions.size() ? versions.get(obj) : null;
    if (vs == null) {
      return null;
    }
    for (int i = vs.size() - 1; i >= 0; i--) {
      if (vs.get(i).ts() <= ts) {
        return vs.get(i);
      }
    }
    return null;
  }

  /** @return the newest version of {@code obj}, {@code null} for the initial state */
  public Version latest(int obj) {
    return visibleAt(obj, Long.MAX_VALUE);
  }

  /** @return the newest list of list object {@code obj}; empty for the initial state; do not modify */
  public long[] latestList(int obj) {
    Version v = latest(obj);
    return v == null ? EMPTY : v.list();
  }

  /**
   * Installs a version as the newest of {@code obj}.
   *
   * @throws IllegalArgumentException if its timestamp is not above the newest one's
   */
  public void install(int obj, Version v) {
    while (versions.size() <= obj) {
      versions.add(null);
    }
    if (versions.get(obj) == null) {
      versions.set(obj, new ObjectArrayList<>());
    }
    ObjectArrayList<Version> vs = versions.get(obj);
    if (!vs.isEmpty() && vs.get(vs.size() - 1).ts() >= v.ts()) {
      throw new IllegalArgumentException("version at " + v.ts() + " is not newer than " + vs.get(vs.size() - 1).ts());
    }
    vs.add(v);
  }

  /**
   * @return the versions of {@code obj} with timestamp above {@code ts}, oldest first (the writers a
   *     snapshot at {@code ts} does not see); a new list
   */
  public ObjectArrayList<Version> newerThan(int obj, long ts) {
    ObjectArrayList<Version> out = new ObjectArrayList<>();
    if (obj < versions.size() && versions.get(obj) != null) {
      for (Version v : versions.get(obj)) {
        if (v.ts() > ts) {
          out.add(v);
        }
      }
    }
    return out;
  }

  /** @return the register values of key {@code key} in version order, oldest first; a new array */
  public long[] registerValues(int key) {
    LongArrayList out = new LongArrayList();
    int obj = register(key);
    if (obj < versions.size() && versions.get(obj) != null) {
      versions.get(obj).forEach(v -> out.add(v.value()));
    }
    return out.toLongArray();
  }
}
