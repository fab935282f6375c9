package io.isowatch.checker.history;

/**
 * Outcome of a transaction as the client saw it.
 *
 * <p>Elle's vocabulary maps onto it: {@code :ok} is {@link #COMMITTED}, {@code :fail} is {@link
 * #ABORTED}, {@code :info} is {@link #UNKNOWN} (the client does not know whether it committed).
 */
public enum TxnStatus {
  /** The database acknowledged the commit. */
  COMMITTED,
  /** The transaction aborted; none of its writes may be observed (G1a otherwise). */
  ABORTED,
  /**
   * Outcome unknown (timeout, lost connection). Its writes may be observed by others; its own reads
   * are not checked, because the client never saw their results reliably.
   */
  UNKNOWN;

  private static final TxnStatus[] VALUES = values();

  /**
   * @param ordinal a value returned by {@link #ordinal()}
   * @return the status with that ordinal
   * @throws ArrayIndexOutOfBoundsException if the ordinal is not 0, 1 or 2
   */
  public static TxnStatus ofOrdinal(int ordinal) {
    return VALUES[ordinal];
  }

  /** @return how a witness names it: {@code committed}, {@code aborted}, {@code outcome unknown} */
  public String text() {
    return switch (this) {
      case COMMITTED -> "committed";
      case ABORTED -> "aborted";
      case UNKNOWN -> "outcome unknown";
    };
  }
}
