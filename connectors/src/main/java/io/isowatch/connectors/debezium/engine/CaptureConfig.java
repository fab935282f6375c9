package io.isowatch.connectors.debezium.engine;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * What one embedded Debezium PostgreSQL capture reads and where it keeps its position.
 *
 * <p>Each capture has its own logical replication slot and publication (Debezium PostgreSQL
 * connector documentation, "Setting up PostgreSQL": {@code slot.name}, {@code publication.name},
 * {@code publication.autocreate.mode=filtered}), so several captures of one database do not steal
 * each other's changes. The server needs {@code wal_level=logical} and a user with the REPLICATION
 * attribute (or a superuser) that may create the publication, or an existing publication of that name.
 *
 * @param jdbcUrl the database, e.g. {@code jdbc:postgresql://db:5432/app?user=cdc}: host, port,
 *     database, {@code user} and {@code password} are taken from it by the PostgreSQL driver's own
 *     parser
 * @param name the capture's name, also Debezium's {@code topic.prefix}, e.g. {@code isowatch-outbox}
 * @param slot the replication slot, e.g. {@code isowatch_outbox} (lower case letters, digits, _)
 * @param publication the publication, e.g. {@code isowatch_outbox}
 * @param tables the captured tables, schema-qualified, e.g. {@code public.isowatch_outbox}
 * @param offsets where the capture keeps its position, read on start to resume: a file ({@link
 *     Offsets.File}) or a Kafka topic ({@link Offsets.Kafka})
 * @param schemas whether each JSON change event carries its Connect schema ({@code
 *     {"schema":..,"payload":..}}) or is the bare payload
 */
public record CaptureConfig(
    String jdbcUrl, String name, String slot, String publication, List<String> tables, Offsets offsets,
    boolean schemas) {

  /** Where a capture's position (source offsets: the last LSN handled) is kept. */
  public sealed interface Offsets {
    /**
     * Adds the engine's offset-storage properties.
     *
     * @param p the engine properties, changed in place
     */
    void addTo(Properties p);

    /**
     * Kafka Connect's {@code FileOffsetBackingStore}.
     *
     * @param path the file; created if absent
     */
    record File(Path path) implements Offsets {
      /** @throws NullPointerException if {@code path} is null */
      public File {
        Objects.requireNonNull(path, "path");
      }

      @Override
      public void addTo(Properties p) {
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore");
        p.setProperty("offset.storage.file.filename", path.toString());
      }
    }

    /**
     * Kafka Connect's {@code KafkaOffsetBackingStore}: a compacted topic, keyed by the capture's
     * {@link CaptureConfig#name}, so that captures of different names may share it. The topic is
     * created on first use (1 partition, the brokers' default replication factor) if absent.
     *
     * @param topic the offsets topic, e.g. {@code isowatch.capture-offsets}
     * @param clients Kafka client settings: {@code bootstrap.servers} and any security settings;
     *     the offset store's admin, producer and consumer use them all
     */
    record Kafka(String topic, Map<String, String> clients) implements Offsets {
      /** Copies the settings. @throws NullPointerException if an argument is null */
      public Kafka {
        Objects.requireNonNull(topic, "topic");
        clients = Map.copyOf(clients);
      }

      @Override
      public void addTo(Properties p) {
        p.putAll(clients);
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.KafkaOffsetBackingStore");
        p.setProperty("offset.storage.topic", topic);
        p.setProperty("offset.storage.partitions", "1");
        p.setProperty("offset.storage.replication.factor", "-1");
      }
    }
  }

  /**
   * A capture with its offsets in a file.
   *
   * @param offsetsFile the file holding the capture's position (Kafka Connect {@code
   *     FileOffsetBackingStore}); created if absent
   */
  public CaptureConfig(String jdbcUrl, String name, String slot, String publication, List<String> tables,
      Path offsetsFile, boolean schemas) {
    this(jdbcUrl, name, slot, publication, tables, new Offsets.File(offsetsFile), schemas);
  }

  /** @throws NullPointerException if any argument is null; IllegalArgumentException if no table is named */
  public CaptureConfig {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(slot, "slot");
    Objects.requireNonNull(publication, "publication");
    Objects.requireNonNull(offsets, "offsets");
    tables = List.copyOf(tables);
    if (tables.isEmpty()) {
      throw new IllegalArgumentException("capture " + name + " names no table");
    }
  }

  /**
   * @return the Debezium engine properties: PostgreSQL connector with {@code pgoutput}, no initial
   *     snapshot ({@code snapshot.mode=no_data}: only changes committed after the slot exists),
   *     transaction metadata on, offsets in {@link #offsets} flushed after every batch, bytea as
   *     base64 in JSON
   * @throws IllegalArgumentException if {@link #jdbcUrl} is not a PostgreSQL JDBC URL
   */
  public Properties engineProperties() {
    Properties url = org.postgresql.Driver.parseURL(jdbcUrl, new Properties());
    if (url == null) {
      throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + jdbcUrl);
    }
    Properties p = new Properties();
    p.setProperty("name", name);
    p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    offsets.addTo(p);
    p.setProperty("offset.flush.interval.ms", "0");
    p.setProperty("database.hostname", url.getProperty("PGHOST", "localhost").split(",")[0]);
    p.setProperty("database.port", url.getProperty("PGPORT", "5432").split(",")[0]);
    p.setProperty("database.dbname", url.getProperty("PGDBNAME"));
    p.setProperty("database.user", url.getProperty("user", ""));
    p.setProperty("database.password", url.getProperty("password", ""));
    p.setProperty("topic.prefix", name);
    p.setProperty("plugin.name", "pgoutput");
    p.setProperty("slot.name", slot);
    p.setProperty("publication.name", publication);
    p.setProperty("publication.autocreate.mode", "filtered");
    p.setProperty("table.include.list", String.join(",", tables));
    p.setProperty("snapshot.mode", "no_data");
    p.setProperty("provide.transaction.metadata", "true");
    p.setProperty("binary.handling.mode", "base64");
    p.setProperty("converter.schemas.enable", Boolean.toString(schemas));
    return p;
  }

  /**
   * @return whether the capture's slot exists and a walsender streams from it ({@code
   *     pg_replication_slots.active}); a transaction committed after this is true is captured
   * @throws SQLException if the database cannot be queried
   */
  public boolean slotActive() throws SQLException {
    try (var c = DriverManager.getConnection(jdbcUrl);
        var s = c.prepareStatement("SELECT active FROM pg_replication_slots WHERE slot_name = ?")) {
      s.setString(1, slot);
      try (var rs = s.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    }
  }
}
