package io.isowatch.bench.measure;

/**
 * Scaling exponent of a running time: the slope of the least-squares line through the points
 * {@code (ln n_i, ln t_i)}, so that {@code t ≈ c * n^slope}. A linear algorithm gives about 1, an
 * O(n^1.5) one at most about 1.5.
 */
public final class ScalingFit {
  private ScalingFit() {}

  /**
   * Fits the exponent.
   *
   * @param sizes problem sizes {@code n_i} (operations), all positive, at least two distinct
   * @param times running times {@code t_i} in any unit, all positive, as many as {@code sizes}
   * @return the least-squares slope of {@code ln t} against {@code ln n}
   * @throws IllegalArgumentException if the arrays differ in length, hold fewer than two points, a
   *     value is not positive, or all sizes are equal
   */
  public static double exponent(double[] sizes, double[] times) {
    if (sizes.length != times.length || sizes.length < 2) {
      throw new IllegalArgumentException(
          "need at least two (size, time) points, got " + sizes.length + " sizes and " + times.length + " times");
    }
    int m = sizes.length;
    double sx = 0;
    double sy = 0;
    for (int i = 0; i < m; i++) {
      if (!(sizes[i] > 0) || !(times[i] > 0)) {
        throw new IllegalArgumentException("sizes and times must be positive: (" + sizes[i] + ", " + times[i] + ")");
      }
      sx += Math.log(sizes[i]);
      sy += Math.log(times[i]);
    }
    double mx = sx / m;
    double my = sy / m;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < m; i++) {
      double dx = Math.log(sizes[i]) - mx;
      sxx += dx * dx;
      sxy += dx * (Math.log(times[i]) - my);
    }
    if (sxx == 0) {
      throw new IllegalArgumentException("all sizes are equal; no exponent to fit");
    }
    return sxy / sxx;
  }
}
