package io.isowatch.schemas.debezium;

/**
 * A change event that is not a well-formed Debezium envelope; the message names what is wrong, and
 * {@link #reasonClass()} is the dead-letter reason class: {@code bad-envelope}, or for an Avro event
 * through the schema registry {@code truncated}, {@code unknown-schema} or {@code bad-body}.
 */
public final class EnvelopeException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String reasonClass;

  /** @param message what is wrong, naming the field; reason class {@code bad-envelope} */
  public EnvelopeException(String message) {
    this("bad-envelope", message);
  }

  /** @param message what is wrong; @param cause the parser's error; reason class {@code bad-envelope} */
  public EnvelopeException(String message, Throwable cause) {
    super(message, cause);
    this.reasonClass = "bad-envelope";
  }

  /**
   * @param reasonClass the dead-letter reason class, e.g. {@code unknown-schema}
   * @param message what is wrong
   */
  public EnvelopeException(String reasonClass, String message) {
    super(message);
    this.reasonClass = reasonClass;
  }

  /** @return the dead-letter reason class */
  public String reasonClass() {
    return reasonClass;
  }
}
