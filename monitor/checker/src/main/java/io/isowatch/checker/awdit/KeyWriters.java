package io.isowatch.checker.awdit;

import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.util.Arrays;

/**
 * Causal consistency's writers of one key, by session: the sessions that write the key, in the
 * order they first did, each with its {@link SessionWriters} list and the session position of its
 * last writer, on parallel arrays. The saturation's scan over a key's sessions ({@code
 * precedeCausally}) filters on the primitive arrays and opens a session's list only when the
 * session wrote the key inside the reader's causal past and after the writer's own; recording a
 * write finds its session's slot by a linear search of a few sessions (a hash table past {@value
 * SmallIntMap#LINEAR}), without the (session, key) hash table that costs a cache miss per write.
 */
final class KeyWriters {
  private int size;
  private int[] sessions = new int[2];
  private int[] lastIndex = new int[2];
  private SessionWriters[] lists = new SessionWriters[2];
  /**
   * Session to its slot once more than {@value SmallIntMap#LINEAR} sessions write the key (null
   * before: the sessions array is searched), so that a write costs O(1) however many sessions
   * write the key, and the many keys written by few sessions carry no table.
   */
  private Int2IntOpenHashMap slotOf;

  /** @return the number of sessions that write the key */
  int size() {
    return size;
  }

  /** @return the session at slot {@code j}, {@code 0..size()-1} */
  int session(int j) {
    return sessions[j];
  }

  /** @return the session position of the last writer of slot {@code j}'s session */
  int lastIndex(int j) {
    return lastIndex[j];
  }

  /** @return slot {@code j}'s writers, in session order */
  SessionWriters writers(int j) {
    return lists[j];
  }

  /**
   * Records that transaction {@code t}, at position {@code sessionIndex} of session {@code session},
   * writes the key; positions must increase per session.
   */
  void add(int session, int sessionIndex, int t) {
    int j = slot(session);
    if (j < 0) {
      j = size;
      if (size == SmallIntMap.LINEAR) {
        slotOf = new Int2IntOpenHashMap(4 * SmallIntMap.LINEAR);
        slotOf.defaultReturnValue(-1);
        for (int i = 0; i < size; i++) {
          slotOf.put(sessions[i], i);
        }
      }
      if (slotOf != null) {
        slotOf.put(session, j);
      }
      if (size == sessions.length) {
        sessions = Arrays.copyOf(sessions, 2 * size);
        lastIndex = Arrays.copyOf(lastIndex, 2 * size);
        lists = Arrays.copyOf(lists, 2 * size);
      }
      sessions[j] = session;
      lists[j] = new SessionWriters();
      size++;
    }
    lists[j].add(sessionIndex, t);
    lastIndex[j] = sessionIndex;
  }

  private int slot(int session) {
    if (slotOf != null) {
      return slotOf.get(session);
    }
    for (int j = 0; j < size; j++) {
      if (sessions[j] == session) {
        return j;
      }
    }
    return -1;
  }
}
