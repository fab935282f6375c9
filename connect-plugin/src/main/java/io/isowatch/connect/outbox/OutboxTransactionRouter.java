package io.isowatch.connect.outbox;

import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.schemas.serde.WireFormat;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * A Kafka Connect Single Message Transform for a Debezium PostgreSQL source connector that captures
 * the recorder's outbox table ({@code isowatch_outbox}, written by the connectors module's {@code
 * OutboxSink}: {@code id BIGSERIAL}, {@code txn_id TEXT}, {@code record BYTEA} holding one {@link
 * Transaction} in Avro single-object encoding). It does in a Connect worker what the connectors
 * module's {@code OutboxRelay} does in the embedded engine, and writes what {@code
 * KafkaTransactionSink} writes:
 *
 * <ul>
 *   <li>an insert into the outbox table ({@code op = c}) becomes a record for the topic named by
 *       {@value #EVENTS_TOPIC}:
 *       key {@code historyId/sessionId} (string schema: use {@code StringConverter}), value the
 *       {@link Transaction} with {@code source} = the change's {@code source.txId} and {@code
 *       source.lsn}, encoded by {@link WireFormat#of} from this transform's settings (bytes schema:
 *       use {@code ByteArrayConverter}): Avro single-object encoding, or a schema registry's wire
 *       format when {@code apicurio.registry.url} is set;
 *   <li>updates, deletes, truncates and snapshot reads of the outbox table (pruning, re-snapshots)
 *       and tombstones are dropped, as {@code OutboxRelay} ignores them;
 *   <li>every other record (another table, heartbeats, transaction metadata, anything that is not a
 *       Debezium change event struct) passes unchanged;
 *   <li>an outbox insert whose record cannot be read (no {@code record} column, not bytes or
 *       base64, not a {@code Transaction} in a schema isowatch reads) is not dropped: a {@link
 *       DataException} names the reason, and Connect's error handling ({@code errors.tolerance},
 *       {@code errors.log.enable}) decides: with the default {@code none} the task fails with that
 *       reason; with {@code all} the record is skipped, logged and counted in the task's {@code
 *       total-records-skipped} metric (Kafka Connect has no dead-letter topic for source connectors).
 * </ul>
 *
 * <p>Thread-safety: one instance per task, called from the task's thread, as Connect does.
 *
 * @param <R> the record type (a {@code SourceRecord} in a source connector)
 */
public final class OutboxTransactionRouter<R extends ConnectRecord<R>> implements Transformation<R> {
  /** Setting: the topic the Transaction records go to; default {@value #DEFAULT_EVENTS_TOPIC}. */
  public static final String EVENTS_TOPIC = "events.topic";
  /** The monitor's default events topic (as {@code KafkaTransactionSink.DEFAULT_TOPIC}). */
  public static final String DEFAULT_EVENTS_TOPIC = "isowatch.events";
  /** Setting: the outbox table's name, without schema; default {@value #DEFAULT_TABLE}. */
  public static final String TABLE = "outbox.table";
  /** The table {@code OutboxSink} writes. */
  public static final String DEFAULT_TABLE = "isowatch_outbox";

  private static final ConfigDef CONFIG = new ConfigDef()
      .define(EVENTS_TOPIC, ConfigDef.Type.STRING, DEFAULT_EVENTS_TOPIC, new ConfigDef.NonEmptyString(),
          ConfigDef.Importance.HIGH, "The topic the monitor reads Transaction records from.")
      .define(TABLE, ConfigDef.Type.STRING, DEFAULT_TABLE, new ConfigDef.NonEmptyString(),
          ConfigDef.Importance.MEDIUM, "The outbox table's name (source.table of its change events).")
      .define("apicurio.registry.url", ConfigDef.Type.STRING, "", ConfigDef.Importance.MEDIUM,
          "A schema registry's URL: records are then written in its wire format (further apicurio.*"
              + " settings pass to its serde); empty for Avro single-object encoding.");

  private String topic;
  private String table;
  private WireFormat format;

  /**
   * @param settings this transform's settings, without the {@code transforms.NAME.} prefix
   * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid
   */
  @Override
  public void configure(Map<String, ?> settings) {
    AbstractConfig config = new AbstractConfig(CONFIG, settings);
    topic = config.getString(EVENTS_TOPIC);
    table = config.getString(TABLE);
    Map<String, Object> registry = new HashMap<>();
    settings.forEach((k, v) -> {
      if (k.startsWith("apicurio.")) {
        registry.put(k, v);
      }
    });
    format = WireFormat.of(registry);
  }

  /**
   * @return the Transaction record of an outbox insert, null for a dropped change, or {@code record}
   *     itself when it is not an outbox change event
   * @throws DataException if an outbox insert's record cannot be read (the message names why)
   */
  @Override
  public R apply(R record) {
    if (!(record.value() instanceof Struct envelope) || !isChangeEvent(envelope.schema())) {
      return record.value() == null && isOutboxTopic(record.topic()) ? null : record;
    }
    Struct source = envelope.getStruct("source");
    if (source == null || !table.equals(stringField(source, "table"))) {
      return record;
    }
    if (!"c".equals(envelope.getString("op"))) {
      return null;
    }
    Transaction txn = transaction(envelope.getStruct("after"));
    txn.setSource(new Source(stringField(source, "txId"), longField(source, "lsn"), null));
    return record.newRecord(topic, null, Schema.STRING_SCHEMA, txn.getHistoryId() + "/" + txn.getSessionId(),
        Schema.BYTES_SCHEMA, format.encode(topic, txn), record.timestamp());
  }

  private static boolean isChangeEvent(Schema schema) {
    return schema.type() == Schema.Type.STRUCT && schema.field("op") != null && schema.field("source") != null
        && schema.field("after") != null;
  }

  /** Tombstones after an outbox delete come on the table's topic, named {@code prefix.schema.table}. */
  private boolean isOutboxTopic(String recordTopic) {
    return recordTopic != null && recordTopic.endsWith("." + table);
  }

  private static Transaction transaction(Struct after) {
    Field column = after == null ? null : after.schema().field("record");
    Object value = column == null ? null : after.get(column);
    if (value == null) {
      throw new DataException("bad-row: outbox insert without a record column");
    }
    byte[] bytes;
    if (value instanceof byte[] b) {
      bytes = b;
    } else if (value instanceof ByteBuffer buffer) {
      bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
    } else if (value instanceof String base64) {
      try {
        bytes = Base64.getDecoder().decode(base64);
      } catch (IllegalArgumentException e) {
        throw new DataException("bad-row: record is not base64 (binary.handling.mode=bytes or base64): "
            + e.getMessage());
      }
    } else {
      throw new DataException("bad-row: record column is a " + value.getClass().getSimpleName()
          + "; set the connector's binary.handling.mode to bytes or base64");
    }
    RecordCodec.Decoded d = RecordCodec.decode(bytes);
    if (d.error() != null) {
      throw new DataException(d.reasonClass() + ": " + d.error());
    }
    if (!(d.record() instanceof Transaction txn)) {
      throw new DataException("bad-row: record is a " + d.record().getSchema().getName() + ", not a Transaction");
    }
    return txn;
  }

  private static String stringField(Struct s, String name) {
    Object v = s.schema().field(name) == null ? null : s.get(name);
    return v == null ? null : v.toString();
  }

  private static Long longField(Struct s, String name) {
    Object v = s.schema().field(name) == null ? null : s.get(name);
    return v instanceof Number n ? n.longValue() : null;
  }

  /** @return the settings: {@value #EVENTS_TOPIC}, {@value #TABLE}, {@code apicurio.registry.url} */
  @Override
  public ConfigDef config() {
    return CONFIG;
  }

  /** Releases the schema registry client, if any. */
  @Override
  public void close() {
    if (format != null) {
      format.close();
    }
  }
}
