package io.isowatch.checker.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Keys interned by number and by name: one key per canonical decimal name, names made on demand. */
class KeyNamesTest {
  @Test
  void aNumberAndItsCanonicalNameAreOneKey() {
    History h = new History();
    int seven = h.key(7L);
    int minusSeven = h.key("-7");
    int big = h.key(1_000_000_000_000_000_000L);

    assertThat(h.key("7")).isEqualTo(seven);
    assertThat(h.key(-7L)).isEqualTo(minusSeven);
    assertThat(h.key("1000000000000000000")).isEqualTo(big);
    assertThat(h.key(Long.MIN_VALUE)).isEqualTo(h.key("-9223372036854775808"));
    assertThat(h.key(999_999_999_999_999_999L)).isEqualTo(h.key("999999999999999999"));
    assertThat(h.keyCount()).isEqualTo(5);
  }

  @Test
  void otherSpellingsOfANumberAreOtherKeys() {
    History h = new History();
    int zero = h.key(0L);

    assertThat(h.key("0")).isEqualTo(zero);
    assertThat(h.key("-0")).isNotEqualTo(zero);
    assertThat(h.key("00")).isNotEqualTo(zero);
    assertThat(h.key("07")).isNotEqualTo(h.key(7L));
    assertThat(h.key("+7")).isNotEqualTo(h.key(7L));
    assertThat(h.key("-")).isNotEqualTo(zero);
    assertThat(h.keyCount()).isEqualTo(7);
  }

  @Test
  void numbersAfterManyNamedKeys() {
    History h = new History();
    for (int i = 0; i < 40; i++) {
      h.key("k" + i);
    }
    int n = h.key(5L);

    assertThat(n).isEqualTo(40);
    assertThat(h.keyName(n)).isEqualTo("5");
    assertThat(h.keyName(3)).isEqualTo("k3");
  }

  @Test
  void numbersInsideAndOutsideTheReservedRangeAreOneKeyWithTheirNames() {
    History h = new History();
    h.reserve(10, 100, 50);
    int inside = h.key(99L);
    int outside = h.key(100L);
    int first = h.key(0L);

    assertThat(h.key("99")).isEqualTo(inside);
    assertThat(h.key("100")).isEqualTo(outside);
    assertThat(h.key(0L)).isEqualTo(first);
    assertThat(h.keyName(inside)).isEqualTo("99");
    assertThat(h.keyName(outside)).isEqualTo("100");
    assertThat(h.keyName(first)).isEqualTo("0");
    assertThat(h.keyCount()).isEqualTo(3);
  }

  @Test
  void aReserveAfterTheFirstKeyDoesNotMoveNumbers() {
    History h = new History();
    int five = h.key(5L);
    h.reserve(10, 100, 50);

    assertThat(h.key(5L)).isEqualTo(five);
    assertThat(h.key("5")).isEqualTo(five);
    assertThat(h.keyCount()).isEqualTo(1);
  }

  @Test
  void aNameGivenAsAStringIsKept() {
    History h = new History();
    int byNumber = h.key(12L);
    String twelve = new String("12");
    int byName = h.key(twelve);

    assertThat(byName).isEqualTo(byNumber);
    assertThat(h.keyName(byName)).isSameAs(twelve);
  }

  @Test
  void namesAreTheDecimalNumbersAndTheGivenStrings() {
    History h = new History();
    int a = h.key(42L);
    int b = h.key("x");
    int c = h.key("-3");
    int d = h.key("007");

    assertThat(h.keyName(a)).isEqualTo("42");
    assertThat(h.keyName(b)).isEqualTo("x");
    assertThat(h.keyName(c)).isEqualTo("-3");
    assertThat(h.keyName(d)).isEqualTo("007");
  }
}
