package io.isowatch.checker.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** {@link WriteIndex}'s two tiers answer as one map from {@code (key, value)} to the first writer. */
class WriteIndexTest {
  @Test
  void smallValuesGoToTheKeysArrayAndTheOthersToTheTable() {
    WriteIndex w = new WriteIndex();

    assertThat(w.putIfAbsent(3, 1, 10)).isEqualTo(-1);
    assertThat(w.putIfAbsent(3, 2, 11)).isEqualTo(-1);
    assertThat(w.putIfAbsent(3, -5, 12)).isEqualTo(-1);
    assertThat(w.putIfAbsent(3, 1L << 40, 13)).isEqualTo(-1);
    assertThat(w.putIfAbsent(70, 0, 14)).isEqualTo(-1);

    assertThat(w.writerOf(3, 1)).isEqualTo(10);
    assertThat(w.writerOf(3, 2)).isEqualTo(11);
    assertThat(w.writerOf(3, -5)).isEqualTo(12);
    assertThat(w.writerOf(3, 1L << 40)).isEqualTo(13);
    assertThat(w.writerOf(70, 0)).isEqualTo(14);
    assertThat(w.writerOf(3, 0)).isEqualTo(-1);
    assertThat(w.writerOf(4, 1)).isEqualTo(-1);
    assertThat(w.writerOf(-1, 1)).isEqualTo(-1);
    assertThat(w.writerOf(1_000, 1)).isEqualTo(-1);
    assertThat(w.putIfAbsent(3, 2, 15)).isEqualTo(11);
    assertThat(w.putIfAbsent(3, -5, 16)).isEqualTo(12);
    assertThat(w.size()).isEqualTo(5);
  }

  @Test
  void aValueTheTableTookBeforeTheArrayGrewPastItIsFoundThereAndKeptFirst() {
    WriteIndex w = new WriteIndex();
    assertThat(w.putIfAbsent(0, 40, 1)).isEqualTo(-1); // 40 >= SLACK + 4 * 0: the table
    for (int v = 0; v < 16; v++) {
      assertThat(w.putIfAbsent(0, v, 100 + v)).isEqualTo(-1); // the array, up to 16 + 4 * 15
    }
    assertThat(w.putIfAbsent(0, 60, 2)).isEqualTo(-1); // grows the array past 40

    assertThat(w.writerOf(0, 40)).isEqualTo(1);
    assertThat(w.putIfAbsent(0, 40, 3)).isEqualTo(1);
    assertThat(w.writerOf(0, 60)).isEqualTo(2);
    assertThat(w.writerOf(0, 41)).isEqualTo(-1);
    assertThat(w.size()).isEqualTo(18);
  }

  @Test
  void aReservedTableIsMadeAtItsFirstWriteAndStillGrows() {
    WriteIndex w = new WriteIndex();
    w.reserve(8);
    for (int i = 0; i < 1_000; i++) {
      assertThat(w.putIfAbsent(i % 7, 1_000_000L * (i + 1), i)).isEqualTo(-1);
    }
    for (int i = 0; i < 1_000; i++) {
      assertThat(w.writerOf(i % 7, 1_000_000L * (i + 1))).isEqualTo(i);
    }
    assertThat(w.size()).isEqualTo(1_000);
  }

  /** Random writes, values small, sparse, large or negative, against a map of the first writers. */
  @Property(tries = 300)
  void agreesWithAMapOfFirstWriters(@ForAll long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    WriteIndex w = new WriteIndex();
    Map<Map.Entry<Integer, Long>, Integer> first = new HashMap<>();
    int keys = 1 + random.nextInt(40);
    if (random.nextBoolean()) {
      w.reserve(random.nextInt(500));
    }
    for (int op = 0; op < 500; op++) {
      int key = random.nextInt(keys);
      long value = switch (random.nextInt(4)) {
        case 0 -> random.nextInt(8);
        case 1 -> random.nextInt(200);
        case 2 -> random.nextLong();
        default -> -random.nextInt(5);
      };
      Integer prior = first.putIfAbsent(Map.entry(key, value), op);

      assertThat(w.putIfAbsent(key, value, op)).isEqualTo(prior == null ? -1 : prior);
      int probeKey = random.nextInt(keys + 2) - 1;
      long probeValue = random.nextInt(210) - 5;
      Integer expected = first.get(Map.entry(probeKey, probeValue));
      assertThat(w.writerOf(probeKey, probeValue)).isEqualTo(expected == null ? -1 : expected);
    }
    for (Map.Entry<Map.Entry<Integer, Long>, Integer> e : first.entrySet()) {
      assertThat(w.writerOf(e.getKey().getKey(), e.getKey().getValue())).isEqualTo(e.getValue());
    }
    assertThat(w.size()).isEqualTo(first.size());
  }
}
