package io.isowatch.stream.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The HTTP endpoint Prometheus scrapes: {@code GET /metrics} answers the registry's scrape in the
 * Prometheus text exposition format 0.0.4 ({@code text/plain; version=0.0.4}; Micrometer
 * documentation, "Prometheus": {@link PrometheusMeterRegistry#scrape()}). Served by the JDK's
 * {@link HttpServer} on one daemon thread.
 *
 * <p>Answers: 200 with the metrics; 401 with {@code WWW-Authenticate: Bearer} when a token is
 * configured and the request's {@code Authorization: Bearer TOKEN} header is missing or differs
 * (compared in constant time); 405 for a method other than GET or HEAD; 404 for any other path.
 *
 * <p>Binds to {@value #DEFAULT_BIND} by default (issue 8: the endpoint is local unless asked), so
 * a remote Prometheus needs {@code --metrics-bind 0.0.0.0} and, preferably, a token.
 */
public final class MetricsEndpoint implements AutoCloseable {
  /** The default port: 9464, the port OpenTelemetry's Prometheus exporter also uses. */
  public static final int DEFAULT_PORT = 9464;
  /** The default address: loopback only. */
  public static final String DEFAULT_BIND = "127.0.0.1";
  /** The path of the metrics. */
  public static final String PATH = "/metrics";

  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsEndpoint(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts serving.
   *
   * @param registry the registry scraped at each request
   * @param bind the address to listen on, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}
   * @param port the TCP port, 0 for any free port ({@link #port} tells which)
   * @param bearerToken when present, the token every request must carry
   * @return the running endpoint; close it to stop
   * @throws IOException if the address cannot be bound (port taken, unknown address)
   */
  public static MetricsEndpoint start(PrometheusMeterRegistry registry, String bind, int port,
      Optional<String> bearerToken) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(bind, port), 0);
    byte[] expected = bearerToken.map(t -> ("Bearer " + t).getBytes(StandardCharsets.UTF_8)).orElse(null);
    server.createContext("/", exchange -> {
      try (exchange) {
        handle(exchange, registry, expected);
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

  private static void handle(HttpExchange exchange, PrometheusMeterRegistry registry, byte[] expected)
      throws IOException {
    if (!PATH.equals(exchange.getRequestURI().getPath())) {
      send(exchange, 404, "text/plain; charset=utf-8", "not found; metrics are at " + PATH + "\n");
      return;
    }
    String method = exchange.getRequestMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      exchange.getResponseHeaders().add("Allow", "GET, HEAD");
      send(exchange, 405, "text/plain; charset=utf-8", "method not allowed\n");
      return;
    }
    if (expected != null) {
      String given = exchange.getRequestHeaders().getFirst("Authorization");
      byte[] givenBytes = given == null ? new byte[0] : given.getBytes(StandardCharsets.UTF_8);
      if (!MessageDigest.isEqual(expected, givenBytes)) {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer realm=\"isowatch\"");
        send(exchange, 401, "text/plain; charset=utf-8", "unauthorized: send Authorization: Bearer TOKEN\n");
        return;
      }
    }
    String body = registry.scrape();
    if ("HEAD".equals(method)) {
      exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      exchange.sendResponseHeaders(200, -1);
      return;
    }
    send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", body);
  }

  private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
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
