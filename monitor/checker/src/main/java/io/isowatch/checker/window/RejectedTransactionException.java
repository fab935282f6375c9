package io.isowatch.checker.window;

/**
 * A transaction the window checker refuses before it changes any state: an operation with no key, a
 * reserved value, a value written twice, a txnId seen before. The stream sends it to the dead-letter
 * topic with {@link #reasonClass()} as the metric tag and the message as the reason.
 */
public final class RejectedTransactionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Reason class: an operation has no key. */
  public static final String NULL_KEY = "null-key";
  /** Reason class: a value that cannot be used (reserved, or of the wrong shape for the kind). */
  public static final String BAD_VALUE = "bad-value";
  /** Reason class: the txnId is in the window already (arrived or held). */
  public static final String DUPLICATE_TXN = "duplicate-txn";
  /** Reason class: a write of a (key, value) already written (values must be unique per key). */
  public static final String DUPLICATE_WRITE = "duplicate-write";

  private final String reasonClass;

  /**
   * @param reasonClass one of the constants, a short bounded tag
   * @param message what is wrong, naming the operation
   */
  public RejectedTransactionException(String reasonClass, String message) {
    super(message);
    this.reasonClass = reasonClass;
  }

  /** @return the short reason class, e.g. {@value #DUPLICATE_TXN} */
  public String reasonClass() {
    return reasonClass;
  }
}
