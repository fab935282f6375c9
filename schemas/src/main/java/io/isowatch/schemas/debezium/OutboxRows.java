package io.isowatch.schemas.debezium;

import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.serde.RecordCodec;
import java.util.Base64;
import java.util.Optional;

/**
 * The recorder's outbox table ({@value #TABLE}) as Debezium reports it: one change event in, the
 * {@link Transaction} it carries out, or why it carries none. The one reading of an outbox row, shared
 * by the relay that publishes the outbox ({@code connectors}' {@code OutboxRelay}) and the monitor
 * reading a Debezium topic directly ({@code monitor --input debezium-outbox}).
 *
 * <p>Table: {@code id BIGSERIAL}, {@code txn_id TEXT}, {@code record BYTEA}, the record being the
 * {@link Transaction} in {@link RecordCodec} single-object encoding; Kafka Connect's {@code
 * JsonConverter} writes a {@code BYTEA} column as base64 text (Debezium's default {@code
 * binary.handling.mode=bytes}). Only inserts ({@code op = c}) carry a record: deletes and updates
 * (the outbox pruned), snapshot reads ({@code op = r}: rows committed before the connector started,
 * published by the run that saw them inserted), tombstones, transaction metadata and other tables are
 * {@link Skipped}, each with its reason.
 */
public final class OutboxRows {
  /** The outbox table's name. */
  public static final String TABLE = "isowatch_outbox";

  private OutboxRows() {}

  /** What one change event of the outbox's topic is. */
  public sealed interface Row permits Published, Skipped, Bad {}

  /**
   * An outbox insert: the transaction recorded, with {@code source} set to the database's
   * transaction (xid or GTID) and the change's LSN.
   *
   * @param transaction the record
   */
  public record Published(Transaction transaction) implements Row {}

  /**
   * A well-formed event that carries no record.
   *
   * @param reason {@code tombstone}, {@code delete}, {@code update}, {@code snapshot}, {@code
   *     truncate}, {@code transaction-metadata} or {@code other-table}
   */
  public record Skipped(String reason) implements Row {}

  /**
   * An event that should carry a record and does not, or is not an envelope at all.
   *
   * @param reasonClass {@code bad-envelope}, {@code bad-row}, or {@link RecordCodec}'s class for a
   *     record that does not decode ({@code truncated}, {@code bad-marker}, ...)
   * @param detail what is wrong
   */
  public record Bad(String reasonClass, String detail) implements Row {}

  /**
   * @param json a change event's value as Kafka Connect's {@code JsonConverter} writes it, with or
   *     without schema; null for a tombstone
   * @return what it is
   */
  public static Row read(String json) {
    try {
      return of(JsonEnvelopes.parse(json));
    } catch (EnvelopeException e) {
      return new Bad("bad-envelope", e.getMessage());
    }
  }

  /**
   * @param parsed a decoded change event; empty for a tombstone
   * @return what it is
   */
  public static Row of(Optional<Envelope> parsed) {
    if (parsed.isEmpty()) {
      return new Skipped("tombstone");
    }
    if (!(parsed.get() instanceof RowChange row)) {
      return new Skipped("transaction-metadata");
    }
    return of(row);
  }

  /**
   * @param row a decoded row change
   * @return what it is
   */
  public static Row of(RowChange row) {
    if (!row.table().equals(TABLE) && !row.table().endsWith("." + TABLE)) {
      return new Skipped("other-table");
    }
    switch (row.op()) {
      case "c" -> { }
      case "u" -> {
        return new Skipped("update");
      }
      case "d" -> {
        return new Skipped("delete");
      }
      case "r" -> {
        return new Skipped("snapshot");
      }
      case "t" -> {
        return new Skipped("truncate");
      }
      default -> {
        return new Bad("bad-envelope", "op is '" + row.op() + "', not c, u, d, r or t");
      }
    }
    if (row.after() == null || !row.after().hasNonNull("record")) {
      return new Bad("bad-row", "outbox insert without a record column");
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(row.after().get("record").asText());
    } catch (IllegalArgumentException e) {
      return new Bad("bad-row", "record is not base64: " + e.getMessage());
    }
    RecordCodec.Decoded d = RecordCodec.decode(bytes);
    if (d.error() != null) {
      return new Bad(d.reasonClass(), d.error());
    }
    if (!(d.record() instanceof Transaction txn)) {
      return new Bad("bad-row", "record is a " + d.record().getSchema().getName() + ", not a Transaction");
    }
    txn.setSource(new Source(row.txn(), row.lsn(), null));
    return new Published(txn);
  }
}
