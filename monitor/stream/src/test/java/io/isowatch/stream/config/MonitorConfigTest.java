package io.isowatch.stream.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.level.Level;
import io.isowatch.stream.config.MonitorConfig.Limits;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The defaults and validation of the duplicate retention and the limits. */
class MonitorConfigTest {
  @Test
  void defaults() {
    MonitorConfig c = MonitorConfig.defaults();

    assertThat(c.duplicateRetention()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.limits()).isEqualTo(new Limits(100_000, 10_000, 100_000, 4_096, 1_000_000, 16_777_216));
  }

  @Test
  void theTenFieldConstructorTakesTheDefaultRetentionLimitsSourcesAndInput() {
    MonitorConfig c = new MonitorConfig("e", "v", "d", Level.CAUSAL, Map.of(), 10, Duration.ZERO,
        Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3));

    assertThat(c).isEqualTo(new MonitorConfig("e", "v", "d", Level.CAUSAL, Map.of(), 10, Duration.ZERO,
        Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(60), Limits.defaults(),
        MonitorConfig.Sources.defaults(), EventsInput.AVRO, false));
  }

  @Test
  void withMethodsChangeOneField() {
    Limits small = new Limits(1, 2, 3, 4, 5, 6);
    MonitorConfig c = MonitorConfig.defaults().withLimits(small).withDuplicateRetention(Duration.ofSeconds(5));

    assertThat(c.limits()).isEqualTo(small);
    assertThat(c.duplicateRetention()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.withExpectedLevel(Level.CAUSAL).limits()).isEqualTo(small);
    assertThat(c.input()).isEqualTo(EventsInput.AVRO);
    assertThat(c.withInput(EventsInput.DEBEZIUM_OUTBOX).withExpectedLevel(Level.CAUSAL).input())
        .isEqualTo(EventsInput.DEBEZIUM_OUTBOX);
  }

  @Test
  void eachLimitIsSetByItsCommandLineName() {
    Limits l = Limits.defaults();
    for (int i = 0; i < Limits.NAMES.size(); i++) {
      l = l.with(Limits.NAMES.get(i), 10 + i);
    }

    assertThat(l).isEqualTo(new Limits(10, 11, 12, 13, 14, 15));
    assertThatThrownBy(() -> Limits.defaults().with("max-ops", 3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown limit 'max-ops'; expected one of max-ops-per-transaction, max-open-transactions-per-session,"
            + " max-sessions-per-history, max-key-bytes, max-list-length, max-record-bytes");
    assertThatThrownBy(() -> Limits.defaults().with("max-list-length", 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("max-list-length must be at least 1, got 0");
  }

  @Test
  void badLimitsAndRetentionAreRefused() {
    assertThatThrownBy(() -> new Limits(0, 1, 1, 1, 1, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("max-ops-per-transaction must be at least 1, got 0");
    assertThatThrownBy(() -> new Limits(1, 1, 1, 1, 1, -5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("max-record-bytes must be at least 1, got -5");
    assertThatThrownBy(() -> new Limits(1, 1, 1, 16_385, 1, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("max-key-bytes must be at most 16384, got 16385");
    assertThatThrownBy(() -> MonitorConfig.defaults().withDuplicateRetention(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("durations must not be negative, got PT-1S");
  }
}
