package io.isowatch.stream.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.isowatch.report.HtmlPage;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The monitor's HTTP endpoint: {@code GET /metrics} answers the registry's scrape in the Prometheus
 * text exposition format 0.0.4 ({@code text/plain; version=0.0.4}; Micrometer documentation,
 * "Prometheus": {@link PrometheusMeterRegistry#scrape()}), and each {@link Route} given at start
 * answers the paths under its prefix (the violations page, {@code /violations}). Served by the JDK's
 * {@link HttpServer} on one daemon thread.
 *
 * <p>Answers, in this order: 401 with {@code WWW-Authenticate: Bearer} on every path when a token is
 * configured and the request's {@code Authorization: Bearer TOKEN} header is missing or differs
 * (compared in constant time; RFC 6750 §3); 405 for a method other than GET or HEAD; 200 with the
 * metrics; a route's answer; 404 naming the paths served. Every answer carries {@code
 * X-Content-Type-Options: nosniff} and a Content-Security-Policy that forbids scripts and loads from
 * elsewhere ({@link HtmlPage#CSP}); a HEAD request gets the headers only.
 *
 * <p>Binds to {@value #DEFAULT_BIND} by default (issue 8: the endpoint is local unless asked), so
 * a remote Prometheus or browser needs {@code --metrics-host 0.0.0.0} and, preferably, a token.
 */
public final class MetricsEndpoint implements AutoCloseable {
  /** The default port: 9464, the port OpenTelemetry's Prometheus exporter also uses. */
  public static final int DEFAULT_PORT = 9464;
  /** The default address: loopback only. */
  public static final String DEFAULT_BIND = "127.0.0.1";
  /** The path of the metrics. */
  public static final String PATH = "/metrics";

  /** An answer of a {@link Route}. */
  public record Response(int status, String contentType, String body) {}

  /** Answers GET and HEAD requests under one path prefix. */
  @FunctionalInterface
  public interface Route {
    /**
     * @param path the request's decoded path, the prefix or below it (e.g. {@code /violations/3f9a})
     * @param rawQuery the raw (still percent-encoded) query string, {@code null} when none
     * @return the answer; never throws for a malformed path or query (answers 400 or 404 then)
     */
    Response handle(String path, String rawQuery);
  }

  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsEndpoint(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Starts serving {@code /metrics} only: {@link #start(PrometheusMeterRegistry, String, int, Optional, Map)} without routes. */
  public static MetricsEndpoint start(PrometheusMeterRegistry registry, String host, int port,
      Optional<String> bearerToken) throws IOException {
    return start(registry, host, port, bearerToken, Map.of());
  }

  /**
   * Starts serving.
   *
   * @param registry the registry scraped at each request
   * @param host the address to listen on, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}
   * @param port the TCP port, 0 for any free port ({@link #port} tells which)
   * @param bearerToken when present, the token every request must carry, on every path
   * @param routes more paths: a prefix such as {@code /violations} (matching itself and what is
   *     below it, {@code /violations/...}) to its route
   * @return the running endpoint; close it to stop
   * @throws IOException if the address cannot be bound (port taken, unknown address)
   */
  public static MetricsEndpoint start(PrometheusMeterRegistry registry, String host, int port,
      Optional<String> bearerToken, Map<String, Route> routes) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
    byte[] expected = bearerToken.map(t -> ("Bearer " + t).getBytes(StandardCharsets.UTF_8)).orElse(null);
    Map<String, Route> sorted = new TreeMap<>(routes);
    server.createContext("/", exchange -> {
      try (exchange) {
        handle(exchange, registry, expected, sorted);
      }
    });
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "isowatch-metrics-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.start();
    return new MetricsEndpoint(server, executor);
  }

  private static void handle(HttpExchange exchange, PrometheusMeterRegistry registry, byte[] expected,
      Map<String, Route> routes) throws IOException {
    exchange.getResponseHeaders().add("X-Content-Type-Options", "nosniff");
    exchange.getResponseHeaders().add("Content-Security-Policy", HtmlPage.CSP);
    if (expected != null) {
      String given = exchange.getRequestHeaders().getFirst("Authorization");
      byte[] givenBytes = given == null ? new byte[0] : given.getBytes(StandardCharsets.UTF_8);
      if (!MessageDigest.isEqual(expected, givenBytes)) {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer realm=\"isowatch\"");
        send(exchange, new Response(401, "text/plain; charset=utf-8",
            "unauthorized: send Authorization: Bearer TOKEN\n"));
        return;
      }
    }
    String method = exchange.getRequestMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      exchange.getResponseHeaders().add("Allow", "GET, HEAD");
      send(exchange, new Response(405, "text/plain; charset=utf-8", "method not allowed\n"));
      return;
    }
    String path = exchange.getRequestURI().getPath();
    if (PATH.equals(path)) {
      send(exchange, new Response(200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
      return;
    }
    for (Map.Entry<String, Route> r : routes.entrySet()) {
      if (path.equals(r.getKey()) || path.startsWith(r.getKey() + "/")) {
        send(exchange, r.getValue().handle(path, exchange.getRequestURI().getRawQuery()));
        return;
      }
    }
    send(exchange, new Response(404, "text/plain; charset=utf-8",
        "not found; served here: " + String.join(", ", served(routes)) + "\n"));
  }

  private static Iterable<String> served(Map<String, Route> routes) {
    TreeMap<String, Route> all = new TreeMap<>(routes);
    all.put(PATH, null);
    return all.keySet();
  }

  private static void send(HttpExchange exchange, Response r) throws IOException {
    byte[] bytes = r.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", r.contentType());
    if ("HEAD".equals(exchange.getRequestMethod())) {
      exchange.sendResponseHeaders(r.status(), -1);
      return;
    }
    exchange.sendResponseHeaders(r.status(), bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** @return the address listened on (the chosen port when started with port 0) */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** @return the port listened on (the chosen one when started with port 0) */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops serving at once (requests in flight are cut) and ends the server thread. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
