package io.isowatch.stream.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The HTTP endpoint over real HTTP: metrics content, the token on every path, routes, wrong paths
 * and methods, loopback by default.
 */
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
      assertThat(notFound.body()).isEqualTo("not found; served here: /metrics\n");
      HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri(endpoint, "/metrics"))
          .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
      assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }
  }

  @Test
  void withATokenEveryPathNeedsItAndPagesAreServed() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MetricsEndpoint.Route page = (path, query) ->
        new MetricsEndpoint.Response(200, "text/html; charset=utf-8", "<p>" + path + " " + query + "</p>");
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(registry, "127.0.0.1", 0, Optional.of("s3cret"),
        Map.of("/violations", page))) {
      for (String path : List.of("/metrics", "/violations", "/violations/abc", "/", "/nope")) {
        assertThat(get(endpoint, path, null).statusCode()).as(path).isEqualTo(401);
        assertThat(get(endpoint, path, "Bearer s3cre").statusCode()).as(path).isEqualTo(401);
        assertThat(get(endpoint, path, "bearer s3cret").statusCode()).as(path).isEqualTo(401);
      }
      HttpResponse<String> list = get(endpoint, "/violations?level=serializable", "Bearer s3cret");
      assertThat(list.statusCode()).isEqualTo(200);
      assertThat(list.body()).isEqualTo("<p>/violations level=serializable</p>");
      assertThat(list.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
      assertThat(list.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
      assertThat(list.headers().firstValue("Content-Security-Policy")).hasValue(io.isowatch.report.HtmlPage.CSP);
      assertThat(get(endpoint, "/violations/abc", "Bearer s3cret").body()).isEqualTo("<p>/violations/abc null</p>");
      HttpResponse<String> other = get(endpoint, "/violationsX", "Bearer s3cret");
      assertThat(other.statusCode()).isEqualTo(404);
      assertThat(other.body()).isEqualTo("not found; served here: /metrics, /violations\n");
      HttpResponse<String> head = http.send(HttpRequest.newBuilder(uri(endpoint, "/violations"))
          .method("HEAD", HttpRequest.BodyPublishers.noBody()).header("Authorization", "Bearer s3cret").build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(head.statusCode()).isEqualTo(200);
      assertThat(head.body()).isEmpty();
    }
  }

  @Test
  void theDefaultAddressIsLoopbackOnlyAndRefusesOtherInterfaces() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(registry, MetricsEndpoint.DEFAULT_BIND, 0, Optional.empty())) {
      assertThat(endpoint.address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
      assertThat(get(endpoint, "/metrics", null).statusCode()).isEqualTo(200);
      List<InetAddress> external = NetworkInterface.networkInterfaces()
          .flatMap(NetworkInterface::inetAddresses)
          .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress()).toList();
      for (InetAddress a : external) {
        HttpRequest r = HttpRequest.newBuilder(URI.create("http://" + a.getHostAddress() + ":" + endpoint.port() + "/metrics"))
            .timeout(Duration.ofSeconds(5)).build();
        assertThatThrownBy(() -> http.send(r, HttpResponse.BodyHandlers.ofString())).as(a.toString())
            .isInstanceOf(ConnectException.class);
      }
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
