package io.isowatch.cli;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on standard error (library {@code me.tongfei:progressbar}), or nothing. Bars are
 * drawn only for long phases: loading a file larger than {@link #LOAD_BAR_BYTES}, checking a
 * history of more than {@link #CHECK_BAR_OPERATIONS} operations, and never when progress is off
 * ({@code --quiet}, or standard error is not a terminal).
 *
 * <p>{@link #stepTo} may be called from any thread; {@link #close} ends the bar.
 */
final class Progress implements AutoCloseable {
  /** Files larger than this get a loading bar: about 100,000 operations in the text formats. */
  static final long LOAD_BAR_BYTES = 2L << 20;
  /** Histories with more operations than this get a checking bar (issue 2: 100,000 operations). */
  static final int CHECK_BAR_OPERATIONS = 100_000;

  private static final Progress NONE = new Progress(null);

  private final ProgressBar bar;

  private Progress(ProgressBar bar) {
    this.bar = bar;
  }

  /** @return a progress that draws nothing */
  static Progress none() {
    return NONE;
  }

  /**
   * @param task the phase, e.g. {@code loading}
   * @param max the amount of work when done, in {@code unit}s times {@code unitSize}
   * @param unit the unit shown, e.g. {@code MiB}; empty for a plain count
   * @param unitSize how many work items make one unit (1 for a plain count)
   * @return a bar on standard error, drawn until {@link #close}
   */
  static Progress bar(String task, long max, String unit, long unitSize) {
    return new Progress(new ProgressBarBuilder()
        .setTaskName(task)
        .setInitialMax(max)
        .setUnit(unit, unitSize)
        .setStyle(ProgressBarStyle.ASCII)
        .setUpdateIntervalMillis(200)
        .clearDisplayOnFinish()
        .build());
  }

  /** Sets the amount of work done so far. */
  void stepTo(long done) {
    if (bar != null) {
      bar.stepTo(done);
    }
  }

  /** Shows a short text after the bar, e.g. the level being checked. */
  void message(String text) {
    if (bar != null) {
      bar.setExtraMessage(text);
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
    }
  }
}
