package io.isowatch.cli;

/** The exit codes of every {@code isowatch} command (issue 2, "CLI"). */
public final class ExitCode {
  /** Consistent at every requested level (or help printed). */
  public static final int CONSISTENT = 0;
  /** Some requested level is violated ({@link io.isowatch.checker.LevelVerdicts}). */
  public static final int VIOLATION = 1;
  /** Bad input (malformed or missing history file) or bad usage (unknown option, level, format). */
  public static final int BAD_INPUT = 2;
  /**
   * isowatch itself failed: a bug, reported with its stack trace; or the JVM's heap was exhausted,
   * reported in one line that says how large it was and how to give it more.
   */
  public static final int INTERNAL_ERROR = 3;
  /**
   * No requested level is violated, but some level's verdict is unknown: the history does not
   * reveal enough (for example the version order of register keys at snapshot isolation) and no
   * weaker level checked is violated.
   */
  public static final int UNKNOWN = 4;

  private ExitCode() {}
}
