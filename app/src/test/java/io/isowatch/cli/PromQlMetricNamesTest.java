package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link PromQlMetricNames} on the shapes of expression the rules and the dashboard use. */
class PromQlMetricNamesTest {
  @Test
  void findsTheSelectorsAndSkipsFunctionsAggregationsLabelsAndDurations() {
    assertThat(PromQlMetricNames.of(
        "histogram_quantile(0.99, sum by (le) (rate(isowatch_check_latency_seconds_bucket{job=\"m\"}[5m])))"))
        .containsExactly("isowatch_check_latency_seconds_bucket");
    assertThat(PromQlMetricNames.of("sum without (instance) (increase(isowatch_violations_total[$__rate_interval]))"
        + " > 0 or (isowatch_violations_total unless isowatch_violations_total offset 10m)"))
        .containsExactly("isowatch_violations_total");
    assertThat(PromQlMetricNames.of("up{job=\"isowatch-monitor\"} == 0"))
        .containsExactly("up");
    assertThat(PromQlMetricNames.of("absent(up{job=~\"isowatch.*\"})"))
        .containsExactly("up");
    assertThat(PromQlMetricNames.of("max by(instance)(kafka_consumer_fetch_manager_records_lag_max)>1e4"))
        .containsExactly("kafka_consumer_fetch_manager_records_lag_max");
    assertThat(PromQlMetricNames.of("a_total / on (instance) group_left (x) b_total * 100 + sum(c)"))
        .containsExactly("a_total", "b_total", "c");
    assertThat(PromQlMetricNames.of("rate(x[5m:30s] @ 1700000000) and y offset -1h")).containsExactly("x", "y");
  }

  @Test
  void labelValuesThatLookLikeNamesAreNotNames() {
    assertThat(PromQlMetricNames.of("sum by (anomaly, level) (isowatch_violations_total{anomaly=\"G2-item\","
        + " level=~'serializable|snapshot-isolation'})"))
        .containsExactly("isowatch_violations_total");
  }
}
