package io.isowatch.checker.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The array range and the hash table of {@link NumberIds} answer alike. */
class NumberIdsTest {
  @Test
  void numbersInsideAndOutsideTheArrayKeepTheirFirstValue() {
    NumberIds ids = new NumberIds();
    ids.denseBelow(100);

    assertThat(ids.putIfAbsent(0, 7)).isEqualTo(-1);
    assertThat(ids.putIfAbsent(99, 8)).isEqualTo(-1);
    assertThat(ids.putIfAbsent(100, 9)).isEqualTo(-1);
    assertThat(ids.putIfAbsent(-1, 10)).isEqualTo(-1);
    assertThat(ids.putIfAbsent(0, 1)).isEqualTo(7);
    assertThat(ids.putIfAbsent(99, 1)).isEqualTo(8);
    assertThat(ids.putIfAbsent(100, 1)).isEqualTo(9);
    assertThat(ids.putIfAbsent(-1, 1)).isEqualTo(10);
  }

  @Test
  void aRangeSetAfterTheFirstNumberChangesNoPath() {
    NumberIds ids = new NumberIds();
    assertThat(ids.putIfAbsent(5, 0)).isEqualTo(-1);
    ids.denseBelow(100);

    assertThat(ids.putIfAbsent(5, 3)).isEqualTo(0);
    assertThat(ids.putIfAbsent(6, 4)).isEqualTo(-1);
    assertThat(ids.putIfAbsent(6, 5)).isEqualTo(4);
  }
}
