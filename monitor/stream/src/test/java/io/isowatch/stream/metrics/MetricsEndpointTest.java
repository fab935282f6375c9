package io.isowatch.stream.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The /metrics endpoint over real HTTP: content, token check, wrong paths and methods. */
class MetricsEndpointTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void servesTheMonitorsMetersInPrometheusTextFormat() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MonitorMetrics metrics = new MonitorMetrics(registry);
    metrics.transactionChecked(8);
    metrics.transactionChecked(2);
    metrics.violation("serializable", "G2-item");
    metrics.deadLetter("truncated");
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(registry, "127.0.0.1", 0, Optional.empty())) {
      HttpResponse<String> r = get(endpoint, "/metrics", null);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
      List<String> samples = r.body().lines().filter(l -> !l.startsWith("#")).toList();
      assertThat(samples).contains(
          "isowatch_transactions_checked_total 2.0",
          "isowatch_operations_checked_total 10.0",
          "isowatch_violations_total{anomaly=\"G2-item\",level=\"serializable\"} 1.0",
          "isowatch_dlq_records_total{reason=\"truncated\"} 1.0",
          "isowatch_reads_unresolved_total 0.0");
    }
  }

  @Test
  void withATokenRefusesScrapesWithoutIt() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new MonitorMetrics(registry);
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(registry, "127.0.0.1", 0, Optional.of("s3cret"))) {
      HttpResponse<String> none = get(endpoint, "/metrics", null);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"isowatch\"");
      assertThat(none.body()).isEqualTo("unauthorized: send Authorization: Bearer TOKEN\n");
      assertThat(get(endpoint, "/metrics", "Bearer wrong").statusCode()).isEqualTo(401);
      HttpResponse<String> ok = get(endpoint, "/metrics", "Bearer s3cret");
      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(ok.body()).contains("\nisowatch_transactions_checked_total 0.0\n");
    }
  }

  @Test
  void otherPathsAndMethodsAreRefused() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(registry, "127.0.0.1", 0, Optional.empty())) {
      HttpResponse<String> notFound = get(endpoint, "/", null);
      assertThat(notFound.statusCode()).isEqualTo(404);
      assertThat(notFound.body()).isEqualTo("not found; metrics are at /metrics\n");
      HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri(endpoint, "/metrics"))
          .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
      assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }
  }

  private HttpResponse<String> get(MetricsEndpoint endpoint, String path, String authorization) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(endpoint, path)).GET();
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(MetricsEndpoint endpoint, String path) {
    return URI.create("http://127.0.0.1:" + endpoint.port() + path);
  }
}
