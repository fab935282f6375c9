package io.isowatch.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.level.Level;
import io.isowatch.stream.topology.MonitorConfig.Limits;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The defaults and validation of the duplicate retention and the limits. */
class MonitorConfigTest {
  @Test
  void defaults() {
    MonitorConfig c = MonitorConfig.defaults();

    assertThat(c.duplicateRetention()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.limits()).isEqualTo(new Limits(100_000, 10_000, 4_096, 1_000_000));
  }

  @Test
  void theTenFieldConstructorTakesTheDefaultRetentionAndLimits() {
    MonitorConfig c = new MonitorConfig("e", "v", "d", Level.CAUSAL, Map.of(), 10, Duration.ZERO,
        Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3));

    assertThat(c).isEqualTo(new MonitorConfig("e", "v", "d", Level.CAUSAL, Map.of(), 10, Duration.ZERO,
        Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(60), Limits.defaults()));
  }

  @Test
  void withMethodsChangeOneField() {
    Limits small = new Limits(1, 2, 3, 4);
    MonitorConfig c = MonitorConfig.defaults().withLimits(small).withDuplicateRetention(Duration.ofSeconds(5));

    assertThat(c.limits()).isEqualTo(small);
    assertThat(c.duplicateRetention()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.withExpectedLevel(Level.CAUSAL).limits()).isEqualTo(small);
  }

  @Test
  void badLimitsAndRetentionAreRefused() {
    assertThatThrownBy(() -> new Limits(0, 1, 1, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limits must be at least 1 and keys at most 16384 bytes, got 0 operations per transaction,"
            + " 1 open transactions per session, 1-byte keys, 1-element lists");
    assertThatThrownBy(() -> new Limits(1, 1, 16_385, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MonitorConfig.defaults().withDuplicateRetention(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("durations must not be negative, got PT-1S");
  }
}
