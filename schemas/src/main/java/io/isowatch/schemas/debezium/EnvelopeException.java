package io.isowatch.schemas.debezium;

/** A change event that is not a well-formed Debezium envelope; the message names what is wrong. */
public final class EnvelopeException extends Exception {
  private static final long serialVersionUID = 1L;

  /** @param message what is wrong, naming the field */
  public EnvelopeException(String message) {
    super(message);
  }

  /** @param message what is wrong; @param cause the parser's error */
  public EnvelopeException(String message, Throwable cause) {
    super(message, cause);
  }
}
