package io.isowatch.stream.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class AssemblerStoresTest {
  /** The store keys' padding is {@code String.format}'s zero padding, for every width used. */
  @Property(tries = 2000)
  void paddedIsStringFormatsZeroPadding(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long n,
      @ForAll @IntRange(min = 1, max = 19) int width) {
    assertThat(AssemblerStores.padded(n, width)).isEqualTo(String.format("%0" + width + "d", n));
  }
}
