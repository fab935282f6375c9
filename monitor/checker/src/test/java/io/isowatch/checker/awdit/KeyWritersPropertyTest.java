package io.isowatch.checker.awdit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link KeyWriters} against a literal map from session to its (position, transaction) list, kept
 * in the order sessions first wrote: after each write of a random sequence (sessions drawn from a
 * range wide enough for the session index to pass {@link SmallIntMap#LINEAR} entries, positions
 * increasing per session), the sessions in slot order, each slot's last
 * position, and each slot's {@link SessionWriters#lastBefore} for every bound agree with a linear
 * search of the literal lists.
 */
class KeyWritersPropertyTest {
  @Property(tries = 300)
  void agreesWithLiteralLists(@ForAll @Size(max = 120) List<@IntRange(min = 0, max = 29) Integer> sessions,
      @ForAll @Size(max = 120) List<@IntRange(min = 1, max = 3) Integer> gaps) {
    KeyWriters fast = new KeyWriters();
    Map<Integer, List<int[]>> slow = new LinkedHashMap<>();
    int[] nextIndex = new int[30];
    for (int i = 0; i < sessions.size(); i++) {
      int s = sessions.get(i);
      int index = nextIndex[s];
      nextIndex[s] += i < gaps.size() ? gaps.get(i) : 1;
      int t = 1000 + i;
      fast.add(s, index, t);
      slow.computeIfAbsent(s, x -> new ArrayList<>()).add(new int[] {index, t});
      assertThat(fast.size()).isEqualTo(slow.size());
      int j = 0;
      for (Map.Entry<Integer, List<int[]>> e : slow.entrySet()) {
        List<int[]> ws = e.getValue();
        assertThat(fast.session(j)).isEqualTo(e.getKey());
        assertThat(fast.lastIndex(j)).isEqualTo(ws.get(ws.size() - 1)[0]);
        for (int bound = 0; bound <= nextIndex[e.getKey()] + 1; bound++) {
          int expected = -1;
          for (int[] w : ws) {
            if (w[0] < bound) {
              expected = w[1];
            }
          }
          assertThat(fast.writers(j).lastBefore(bound)).as("session %d bound %d", e.getKey(), bound)
              .isEqualTo(expected);
        }
        j++;
      }
    }
  }
}
