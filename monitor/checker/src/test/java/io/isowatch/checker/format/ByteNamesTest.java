package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteNames} gives every name the id its function gave it the first time, however it is
 * sliced out of a longer array, for names of 0 to 40 bytes (within and past the eight packed in a
 * slot, and names that differ only past the eighth byte), over several growths of its table.
 */
class ByteNamesTest {
  @Test
  void everyNameKeepsTheIdItWasFirstGiven() {
    SplittableRandom rnd = new SplittableRandom(5);
    List<String> created = new ArrayList<>();
    ByteNames names = new ByteNames(name -> {
      created.add(name);
      return 3 * created.size();
    });
    Map<String, Integer> expected = new HashMap<>();
    List<String> pool = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      StringBuilder s = new StringBuilder(i % 3 == 0 ? "prefix-of-9" : "");
      for (int n = rnd.nextInt(i % 5 == 0 ? 30 : 9); n > 0; n--) {
        s.append((char) (' ' + rnd.nextInt(95)));
      }
      pool.add(s.toString());
    }
    for (int i = 0; i < 40_000; i++) {
      String name = pool.get(rnd.nextInt(pool.size()));
      byte[] line = ("<<" + name + ">>").getBytes(StandardCharsets.ISO_8859_1);
      int id = names.id(line, 2, line.length - 2);
      Integer first = expected.putIfAbsent(name, id);
      assertThat(id).as(name).isEqualTo(first == null ? 3 * created.size() : first);
    }
    assertThat(created).hasSize(expected.size()).doesNotHaveDuplicates();
    assertThat(expected.size()).isGreaterThan(4_000);
  }
}
