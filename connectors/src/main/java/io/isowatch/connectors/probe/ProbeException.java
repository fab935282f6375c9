package io.isowatch.connectors.probe;

/**
 * The probe could not run: the database refused the connection, the setup DDL failed, a statement
 * failed for a reason other than a concurrency abort, or a row held text the probe did not write.
 * The message says which URL or statement and what to do; the cause is the driver's exception.
 */
public final class ProbeException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what failed, naming the URL or statement
   * @param cause the underlying error, or null
   */
  public ProbeException(String message, Throwable cause) {
    super(message, cause);
  }
}
