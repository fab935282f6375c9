package io.isowatch.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.bench.family.Family;
import io.isowatch.checker.level.Level;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTest {
  private static Measurement point(long ops, double ms) {
    return new Measurement(Family.WIDE_READER, ops, Level.READ_COMMITTED, 9, (int) ops, 9, 12.4, 2 * ms, ms, 30.2,
        101.6, "CONSISTENT", 0, null);
  }

  private static final List<Measurement> POINTS = List.of(
      point(1_000, 2.0), point(4_000, 16.0), point(16_000, 128.0), point(64_000, 512.0),
      Measurement.failed(Family.READER_GRID, 640_000, Level.READ_ATOMIC, "OutOfMemoryError: Java heap space"));

  @Test
  void tableHasOneRowPerPoint() {
    assertThat(Report.table(POINTS)).isEqualTo(String.join("\n",
        "| family | transactions | ops | sessions | level | generate ms | check ms | check CPU ms | history MiB | peak heap MiB | verdict |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---|",
        "| wide-reader | 9 | 1000 | 9 | read-committed | 12 | 4.0 | 2.0 | 30 | 102 | consistent |",
        "| wide-reader | 9 | 4000 | 9 | read-committed | 12 | 32.0 | 16.0 | 30 | 102 | consistent |",
        "| wide-reader | 9 | 16000 | 9 | read-committed | 12 | 256.0 | 128.0 | 30 | 102 | consistent |",
        "| wide-reader | 9 | 64000 | 9 | read-committed | 12 | 1024.0 | 512.0 | 30 | 102 | consistent |",
        "| reader-grid | size 640000 | - | - | read-atomic | - | - | - | - | - | failed: OutOfMemoryError: Java heap space |",
        ""));
  }

  @Test
  void exponentsAreFittedPerFamilyAndLevelOverSuccessfulPoints() {
    assertThat(Report.exponents(POINTS)).isEqualTo(String.join("\n",
        "| family | level | ops range | exponent, wall (all sizes) | exponent, CPU (all sizes) | exponent, CPU (two largest) |",
        "|---|---|---|---:|---:|---:|",
        "| wide-reader | read-committed | 1000 .. 64000 | 1.35 | 1.35 | 1.00 |",
        ""));
  }

  @Test
  void probeLinesRoundTrip() {
    for (Measurement m : POINTS) {
      assertThat(Measurement.parse(m.toLine())).isEqualTo(m);
    }
    assertThatThrownBy(() -> Measurement.parse("PROBE\tregister"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a probe line (expected 15 tab-separated fields): PROBE\tregister");
  }

  @Test
  void medianOfOddAndEvenCounts() {
    assertThat(Probe.median(new double[] {5, 1, 3})).isEqualTo(3.0);
    assertThat(Probe.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
  }
}
