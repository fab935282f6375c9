package io.isowatch.cli;

import java.util.concurrent.CountDownLatch;

/**
 * Runs a long-lived command ({@code monitor}, {@code broker}) until SIGTERM or Ctrl-C: a JVM
 * shutdown hook counts a latch down, which the command awaits, and then waits until the command has
 * finished its clean stop, so that the JVM exits only after it.
 */
final class UntilSignal {
  /** What runs until the latch is counted down. */
  @FunctionalInterface
  interface Body {
    /**
     * @param stop counted down when the JVM is asked to stop
     * @return the command's exit code
     * @throws InterruptedException if interrupted while running
     */
    int run(CountDownLatch stop) throws InterruptedException;
  }

  private UntilSignal() {}

  /**
   * @param body the command
   * @return its exit code
   * @throws InterruptedException if interrupted while running
   */
  static int run(Body body) throws InterruptedException {
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch finished = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      stop.countDown();
      try {
        finished.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "isowatch-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return body.run(stop);
    } finally {
      finished.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: the JVM exits after it
      }
    }
  }
}
