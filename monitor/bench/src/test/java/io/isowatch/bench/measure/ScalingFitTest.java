package io.isowatch.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ScalingFitTest {
  private static final double[] SIZES = {1e3, 1e4, 1e5, 1e6};

  private static double[] power(double c, double k) {
    double[] t = new double[SIZES.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = c * Math.pow(SIZES[i], k);
    }
    return t;
  }

  @Test
  void exactPowerLawsGiveTheirExponent() {
    assertThat(ScalingFit.exponent(SIZES, power(3, 1.5))).isCloseTo(1.5, within(1e-12));
    assertThat(ScalingFit.exponent(SIZES, power(0.02, 1.0))).isCloseTo(1.0, within(1e-12));
    assertThat(ScalingFit.exponent(new double[] {10, 40}, new double[] {7, 112})).isCloseTo(2.0, within(1e-12));
  }

  @Test
  void leastSquaresAveragesNoise() {
    // times n·(1, 2, 1, 2): least squares on the logs gives 1 + ln 2 · cov(ln n, d) / var(ln n) with
    // d = (0, 1, 0, 1), that is 1 + ln 2 / (5 ln 10)
    double[] t = power(1, 1.0);
    t[1] *= 2;
    t[3] *= 2;
    assertThat(ScalingFit.exponent(SIZES, t)).isCloseTo(1 + Math.log(2) / (5 * Math.log(10)), within(1e-12));
  }

  @Test
  void degenerateInputIsRejected() {
    assertThatThrownBy(() -> ScalingFit.exponent(new double[] {1}, new double[] {1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("need at least two (size, time) points, got 1 sizes and 1 times");
    assertThatThrownBy(() -> ScalingFit.exponent(new double[] {5, 5}, new double[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("all sizes are equal; no exponent to fit");
    assertThatThrownBy(() -> ScalingFit.exponent(new double[] {5, 6}, new double[] {0, 2}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sizes and times must be positive: (5.0, 0.0)");
  }
}
