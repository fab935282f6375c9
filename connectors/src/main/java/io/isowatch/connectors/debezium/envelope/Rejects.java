package io.isowatch.connectors.debezium.envelope;

/**
 * Receives a change event that cannot be used, with the reason, so that bad input is never dropped
 * silently (route it to a dead-letter topic, count it, log it).
 */
@FunctionalInterface
public interface Rejects {
  /**
   * @param reason what is wrong, e.g. {@code bad-envelope: change event has no source.txId}
   * @param value the change event as received
   */
  void reject(String reason, String value);
}
