package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.stream.app.MonitorApp;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Test helper: {@code isowatch monitor}'s runner ({@link MonitorRunner}) in this JVM on a background
 * thread, started from a {@link MonitorRequest} and awaited until Kafka Streams is {@code RUNNING}
 * (at most 60 s); {@link #close} stops it as SIGTERM would and asserts it exits 0 within 60 s.
 */
final class RunningMonitor implements AutoCloseable {
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private final StringWriter out = new StringWriter();
  private final CountDownLatch stop = new CountDownLatch(1);
  private final AtomicReference<MonitorApp> app = new AtomicReference<>();
  private final CompletableFuture<Integer> code;

  private RunningMonitor(MonitorRequest request) {
    code = CompletableFuture.supplyAsync(() -> {
      try {
        return new MonitorRunner(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true))
            .run(request, stop, app::set);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  /**
   * @param request what to run
   * @return the monitor, running
   * @throws org.awaitility.core.ConditionTimeoutException if it is not running within 60 s
   */
  static RunningMonitor start(MonitorRequest request) {
    RunningMonitor m = new RunningMonitor(request);
    await().atMost(PATIENCE).until(() -> m.app.get() != null && m.app.get().state() == KafkaStreams.State.RUNNING);
    return m;
  }

  /** @return the Prometheus endpoint the runner's start line names, {@code http://HOST:PORT/metrics} */
  URI metrics() {
    return URI.create(startLine().replaceFirst(".*metrics at (http://\\S+/metrics).*", "$1"));
  }

  /** @return the violations page the runner's start line names, {@code http://HOST:PORT/violations} */
  URI violationsPage() {
    return URI.create(startLine().replaceFirst(".*violations at (http://\\S+/violations).*", "$1"));
  }

  /** @return the first line the runner printed: what it runs, and where its endpoint is */
  String startLine() {
    return out.toString().lines().findFirst().orElseThrow();
  }

  /** @return every line the runner printed on standard output so far */
  java.util.List<String> lines() {
    return out.toString().lines().toList();
  }

  /** Stops the monitor cleanly and checks that the runner exited 0. */
  @Override
  public void close() throws Exception {
    stop.countDown();
    assertThat(code.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(ExitCode.CONSISTENT);
  }
}
