package io.isowatch.schemas.debezium;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Decodes Debezium change events written by Kafka Connect's {@code JsonConverter}, with schemas
 * ({@code {"schema": .., "payload": ..}}, {@code schemas.enable=true}) or without (the bare
 * payload).
 *
 * <p>The database transaction a row change belongs to ({@link RowChange#txn}) depends on the
 * connector named in {@code source.connector}: {@code postgresql} uses {@code source.txId};
 * {@code mysql} and {@code mariadb} use {@code source.gtid} (GTID mode must be on; Debezium MySQL and
 * MariaDB connector documentation, "source" fields). Other connectors are rejected, since their
 * transaction identity is not known here.
 */
public final class JsonEnvelopes {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonEnvelopes() {}

  /**
   * @param value the record value as JSON text, or null
   * @return the decoded event; empty for a tombstone (null value or JSON {@code null}), which
   *     follows a delete and carries nothing more
   * @throws EnvelopeException if the text is not JSON, or lacks a field the envelope must have (the
   *     message names it)
   */
  public static Optional<Envelope> parse(String value) throws EnvelopeException {
    if (value == null) {
      return Optional.empty();
    }
    JsonNode root;
    try {
      root = JSON.readTree(value);
    } catch (JsonProcessingException e) {
      throw new EnvelopeException("not JSON: " + e.getOriginalMessage(), e);
    }
    return parseTree(root);
  }

  /**
   * @param root a change event as a JSON tree (as {@link #parse(String)} reads it, or as {@link
   *     AvroEnvelopes} converts an Avro one), or null
   * @return the decoded event; empty for a tombstone
   * @throws EnvelopeException if it lacks a field the envelope must have (the message names it)
   */
  public static Optional<Envelope> parseTree(JsonNode root) throws EnvelopeException {
    if (root == null || root.isNull() || root.isMissingNode()) {
      return Optional.empty();
    }
    JsonNode payload = root.has("schema") && root.has("payload") ? root.get("payload") : root;
    if (payload.isNull()) {
      return Optional.empty();
    }
    if (!payload.isObject()) {
      throw new EnvelopeException("payload is not a JSON object");
    }
    if (payload.has("status") && payload.has("id")) {
      return Optional.of(boundary(payload));
    }
    return Optional.of(rowChange(payload));
  }

  private static TxBoundary boundary(JsonNode p) throws EnvelopeException {
    String status = p.get("status").asText();
    String id = p.get("id").asText();
    boolean end;
    if ("BEGIN".equals(status)) {
      end = false;
    } else if ("END".equals(status)) {
      end = true;
    } else {
      throw new EnvelopeException("transaction metadata status is '" + status + "', not BEGIN or END");
    }
    long count = 0;
    Map<String, Long> byCollection = new LinkedHashMap<>();
    if (end) {
      JsonNode n = p.get("event_count");
      if (n == null || !n.canConvertToLong()) {
        throw new EnvelopeException("transaction metadata END of " + id + " has no numeric event_count");
      }
      count = n.asLong();
      JsonNode collections = p.get("data_collections");
      if (collections != null && collections.isArray()) {
        for (JsonNode c : collections) {
          JsonNode name = c.get("data_collection");
          JsonNode k = c.get("event_count");
          if (name == null || !name.isTextual() || k == null || !k.canConvertToLong()) {
            throw new EnvelopeException("transaction metadata END of " + id
                + " has a data_collections entry without a data_collection name and a numeric event_count");
          }
          byCollection.merge(name.asText(), k.asLong(), Long::sum);
        }
      }
    }
    return new TxBoundary(transactionOfMetadataId(id), end, count, byCollection);
  }

  /**
   * PostgreSQL's metadata id is {@code <xid>:<lsn>} (Debezium PostgreSQL connector documentation,
   * "Transaction metadata"), and its lsn part may differ between BEGIN and END: keep the xid.
   */
  private static String transactionOfMetadataId(String id) {
    int colon = id.indexOf(':');
    if (colon > 0 && id.chars().allMatch(ch -> ch == ':' || Character.isDigit(ch))) {
      return id.substring(0, colon);
    }
    return id;
  }

  private static RowChange rowChange(JsonNode p) throws EnvelopeException {
    JsonNode source = required(p, "source", "");
    String op = required(p, "op", "").asText();
    String connector = required(source, "connector", "source.").asText();
    String txn;
    Long lsn = null;
    Long lastCommitLsn = null;
    String gtid = null;
    switch (connector) {
      case "postgresql" -> {
        JsonNode xid = required(source, "txId", "source.");
        if (xid.isNull()) {
          throw new EnvelopeException("postgresql change has source.txId null");
        }
        txn = xid.asText();
        JsonNode l = source.get("lsn");
        lsn = l == null || l.isNull() ? null : l.asLong();
        lastCommitLsn = lastCommitLsn(source.get("sequence"));
      }
      case "mysql", "mariadb" -> {
        JsonNode g = source.get("gtid");
        if (g == null || g.isNull() || g.asText().isEmpty()) {
          throw new EnvelopeException(connector + " change has no source.gtid: turn GTID mode on so that"
              + " each change names its transaction");
        }
        gtid = g.asText();
        txn = gtid;
      }
      default -> throw new EnvelopeException("source.connector '" + connector
          + "' is not supported (postgresql, mysql, mariadb)");
    }
    JsonNode schema = source.has("schema") && !source.get("schema").isNull() ? source.get("schema") : source.get("db");
    String table = (schema == null || schema.isNull() ? "" : schema.asText() + ".")
        + required(source, "table", "source.").asText();
    return new RowChange(connector, txn, table, op, object(p.get("before")), object(p.get("after")), lsn, gtid,
        timeMicros(source), lastCommitLsn);
  }

  /**
   * @param sequence PostgreSQL's {@code source.sequence}: the text of a JSON array of two decimal
   *     LSNs as text, {@code ["<last commit LSN>","<LSN>"]}, either possibly null
   * @return the first LSN, or null if the field is absent, null or not that shape
   */
  private static Long lastCommitLsn(JsonNode sequence) {
    if (sequence == null || !sequence.isTextual()) {
      return null;
    }
    try {
      JsonNode array = JSON.readTree(sequence.asText());
      JsonNode first = array.isArray() && array.size() == 2 ? array.get(0) : null;
      if (first == null || first.isNull()) {
        return null;
      }
      return Long.parseLong(first.asText());
    } catch (JsonProcessingException | NumberFormatException e) {
      return null;
    }
  }

  /** @return {@code source.ts_us}, else {@code source.ts_ms} in microseconds, else null */
  private static Long timeMicros(JsonNode source) {
    JsonNode us = source.get("ts_us");
    if (us != null && us.canConvertToLong()) {
      return us.asLong();
    }
    JsonNode ms = source.get("ts_ms");
    return ms != null && ms.canConvertToLong() ? ms.asLong() * 1000 : null;
  }

  private static JsonNode required(JsonNode parent, String field, String prefix) throws EnvelopeException {
    JsonNode n = parent.get(field);
    if (n == null) {
      throw new EnvelopeException("change event has no " + prefix + field);
    }
    return n;
  }

  private static JsonNode object(JsonNode n) {
    return n == null || n.isNull() ? null : n;
  }
}
