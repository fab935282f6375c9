package io.isowatch.checker.history;

/**
 * Kinds of operations in a history, stored as a {@code byte} per operation in {@link History}.
 *
 * <p>Register histories use {@link #READ} and {@link #WRITE}; list-append histories (Elle,
 * Kingsbury &amp; Alvaro, VLDB 2020) use {@link #APPEND} and {@link #READ_LIST}.
 */
public final class OpKind {
  /** {@code read(k) -> v}: a register read; the value is {@link History#NIL} for the initial value. */
  public static final byte READ = 0;

  /** {@code write(k, v)}: a register write; values are unique per key. */
  public static final byte WRITE = 1;

  /** {@code append(k, e)}: appends element {@code e} to the list at key {@code k}. */
  public static final byte APPEND = 2;

  /** {@code read(k) -> [e1 .. en]}: reads the whole list at key {@code k}. */
  public static final byte READ_LIST = 3;

  private OpKind() {}

  /**
   * @param kind one of the constants of this class
   * @return {@code true} for {@link #WRITE} and {@link #APPEND}
   */
  public static boolean isWrite(byte kind) {
    return kind == WRITE || kind == APPEND;
  }

  /**
   * @param kind one of the constants of this class
   * @return {@code true} for {@link #READ} and {@link #READ_LIST}
   */
  public static boolean isRead(byte kind) {
    return kind == READ || kind == READ_LIST;
  }

  /**
   * @param kind one of the constants of this class
   * @return the short name used in text output: {@code r}, {@code w}, {@code append}, {@code r}
   * @throws IllegalArgumentException for an unknown kind
   */
  public static String shortName(byte kind) {
    switch (kind) {
      case READ:
      case READ_LIST:
        return "r";
      case WRITE:
        return "w";
      case APPEND:
        return "append";
      default:
        throw new IllegalArgumentException("unknown operation kind " + kind);
    }
  }
}
