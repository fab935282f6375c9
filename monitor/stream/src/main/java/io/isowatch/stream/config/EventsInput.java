package io.isowatch.stream.config;

import java.util.Locale;

/**
 * What the events topic carries, chosen by {@code monitor --input}.
 *
 * <ul>
 *   <li>{@link #AVRO}: isowatch's own records, op-level {@code TxnEvent}s and whole {@code
 *       Transaction}s, single-object encoded or in the schema registry's wire format, key {@code
 *       historyId/sessionId} (docs/events.md).
 *   <li>{@link #DEBEZIUM_OUTBOX}: the topic Debezium (embedded, or Kafka Connect with the PostgreSQL
 *       connector and the {@code JsonConverter}, schemas enabled or not, or an Avro converter
 *       through the schema registry, {@link io.isowatch.schemas.debezium.AvroEnvelopes}) writes for
 *       the recorder's outbox table: each insert's {@code after.record} is a whole {@code Transaction}
 *       ({@link io.isowatch.schemas.debezium.OutboxRows}); the record key is Debezium's (the row's
 *       id) and is replaced by {@code historyId/sessionId} of the transaction carried.
 *   <li>{@link #DEBEZIUM_CDC}: Debezium's own change events of a list-append table (the probe's
 *       shape), read beside the connector's transaction-metadata topic ({@link DebeziumCdc}): each
 *       database transaction, once whole, becomes one {@code Transaction} as {@code capture --cdc}
 *       makes it ({@link io.isowatch.schemas.debezium.ListAppendRows}), in commit order.
 * </ul>
 */
public enum EventsInput {
  /** isowatch's records. */
  AVRO,
  /** Debezium change events of the recorder's outbox table. */
  DEBEZIUM_OUTBOX,
  /** Debezium change events of a list-append table, with the transaction-metadata topic. */
  DEBEZIUM_CDC;

  /** @return the command-line name, e.g. {@code debezium-outbox} */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @param cliName e.g. {@code avro}, {@code debezium-outbox}, {@code debezium-cdc}
   * @return the input
   * @throws IllegalArgumentException naming the choices if none has that name
   */
  public static EventsInput ofCliName(String cliName) {
    for (EventsInput i : values()) {
      if (i.cliName().equals(cliName)) {
        return i;
      }
    }
    throw new IllegalArgumentException("unknown input '" + cliName + "'; choose avro, debezium-outbox or debezium-cdc");
  }
}
