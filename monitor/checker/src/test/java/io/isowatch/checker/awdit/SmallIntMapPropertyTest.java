package io.isowatch.checker.awdit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link SmallIntMap} against a literal {@link HashMap}: after every step of a random sequence of
 * puts, put-if-absents, set adds and clears, over key ranges small enough to repeat keys and long
 * enough to pass {@link SmallIntMap#LINEAR} entries (so the hash table takes over, and is dropped by
 * a clear), every answer and the size agree, for every key of the range.
 */
class SmallIntMapPropertyTest {
  private static final int MISSING = -7;

  /** One step: 0 put, 1 putIfAbsent, 2 add, 3 clear; then a key and a value. */
  record Step(int op, int key, int value) {}

  @Property(tries = 500)
  void agreesWithHashMap(@ForAll("steps") List<Step> steps) {
    SmallIntMap fast = new SmallIntMap(MISSING);
    Map<Integer, Integer> slow = new HashMap<>();
    for (Step s : steps) {
      switch (s.op()) {
        case 0:
          fast.put(s.key(), s.value());
          slow.put(s.key(), s.value());
          break;
        case 1:
          assertThat(fast.putIfAbsent(s.key(), s.value())).isEqualTo(slow.getOrDefault(s.key(), MISSING));
          slow.putIfAbsent(s.key(), s.value());
          break;
        case 2:
          assertThat(fast.add(s.key())).isEqualTo(!slow.containsKey(s.key()));
          slow.putIfAbsent(s.key(), 0);
          break;
        default:
          fast.clear();
          slow.clear();
      }
      assertThat(fast.size()).isEqualTo(slow.size());
      for (int k = -2; k < 40; k++) {
        assertThat(fast.get(k)).isEqualTo(slow.getOrDefault(k, MISSING));
        assertThat(fast.contains(k)).isEqualTo(slow.containsKey(k));
      }
    }
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Step> step = Arbitraries.integers().between(0, 99).flatMap(r -> {
      int op = r < 40 ? 0 : r < 70 ? 1 : r < 97 ? 2 : 3; // clears rare, so that tables fill past LINEAR
      return Arbitraries.integers().between(-2, 37).flatMap(k ->
          Arbitraries.integers().between(-10, 1000).map(v -> new Step(op, k, v)));
    });
    return step.list().ofMinSize(0).ofMaxSize(120);
  }
}
