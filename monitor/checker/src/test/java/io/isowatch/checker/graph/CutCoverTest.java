package io.isowatch.checker.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** {@link CutCover} against exact expectations and against an array of counts. */
class CutCoverTest {
  @Test
  void runsAroundCoveredCuts() {
    CutCover c = new CutCover();
    c.add(2, 5, 1); // cuts 2, 3, 4
    c.add(5, 7, 1); // cuts 5, 6: touching, one run of positions 2..7
    c.add(10, 12, 1); // cuts 10, 11
    assertThat(c.covered(2, 7)).isTrue();
    assertThat(c.covered(1, 3)).isFalse();
    assertThat(c.covered(4, 4)).isTrue();
    assertThat(c.runStart(4)).isEqualTo(2);
    assertThat(c.runEnd(4)).isEqualTo(7);
    assertThat(c.runStart(2)).isEqualTo(2);
    assertThat(c.runEnd(7)).isEqualTo(7);
    assertThat(c.runStart(8)).isEqualTo(8);
    assertThat(c.runEnd(8)).isEqualTo(8);
    assertThat(c.runStart(12)).isEqualTo(10);
    assertThat(c.runEnd(10)).isEqualTo(12);
    c.add(5, 7, -1);
    assertThat(c.runEnd(3)).isEqualTo(5);
    assertThat(c.covered(2, 6)).isFalse();
  }

  @Test
  void growsBeyondItsFirstCapacityKeepingCounts() {
    CutCover c = new CutCover();
    c.add(1000, 1020, 1);
    c.add(5000, 70_000, 2);
    assertThat(c.runStart(1010)).isEqualTo(1000);
    assertThat(c.runEnd(1010)).isEqualTo(1020);
    assertThat(c.runStart(60_000)).isEqualTo(5000);
    assertThat(c.runEnd(6000)).isEqualTo(70_000);
    assertThat(c.runEnd(1_000_000)).isEqualTo(1_000_000);
    c.add(5000, 70_000, -2);
    assertThat(c.runEnd(6000)).isEqualTo(6000);
  }

  @Test
  void refusesNegativeCounts() {
    CutCover c = new CutCover();
    c.add(0, 3, 1);
    assertThatThrownBy(() -> c.add(2, 4, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cuts 2..3 would be covered a negative number of times");
    assertThat(c.runEnd(0)).isEqualTo(3); // unchanged
  }

  @Property(tries = 300)
  void agreesWithAnArrayOfCounts(@ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int n = 1 + rnd.nextInt(3000);
    int[] count = new int[n + 1];
    CutCover c = new CutCover();
    java.util.List<int[]> added = new java.util.ArrayList<>();
    for (int step = 0; step < 200; step++) {
      if (!added.isEmpty() && rnd.nextInt(3) == 0) {
        int[] iv = added.remove(rnd.nextInt(added.size()));
        c.add(iv[0], iv[1], -1);
        for (int x = iv[0]; x < iv[1]; x++) {
          count[x]--;
        }
      } else {
        int p = rnd.nextInt(n);
        int q = Math.min(n, p + rnd.nextInt(1 + rnd.nextInt(n)));
        c.add(p, q, 1);
        added.add(new int[] {p, q});
        for (int x = p; x < q; x++) {
          count[x]++;
        }
      }
      int p = rnd.nextInt(n);
      int q = Math.min(n, p + rnd.nextInt(40));
      boolean covered = true;
      for (int x = p; x < q; x++) {
        covered &= count[x] > 0;
      }
      int lo = p;
      while (lo > 0 && count[lo - 1] > 0) {
        lo--;
      }
      int hi = q;
      while (hi < n && count[hi] > 0) {
        hi++;
      }
      assertThat(c.covered(p, q)).as("seed %d", seed).isEqualTo(covered);
      assertThat(c.runStart(p)).as("seed %d", seed).isEqualTo(lo);
      assertThat(c.runEnd(q)).as("seed %d", seed).isEqualTo(hi);
    }
  }
}
