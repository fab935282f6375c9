package io.isowatch.stream.topology;

/**
 * Change events of the probe's list-append table and transaction-metadata records written by hand
 * as Debezium's PostgreSQL connector and Kafka Connect's {@code JsonConverter} (schemas off) write
 * them, for the tests of {@code monitor --input debezium-cdc}.
 */
final class CdcEvents {
  /** The table's topic. */
  static final String DATA = "isowatch_cdc.public.isowatch_list_append";
  /** The connector's transaction-metadata topic. */
  static final String METADATA = "isowatch_cdc.transaction";

  private CdcEvents() {}

  /**
   * @param op {@code c}, {@code u} or {@code d}
   * @param before the row's {@code v} before, or null for no before image
   * @param after the row's {@code v} after, or null (a delete)
   * @param micros the commit time, {@code source.ts_us}
   * @return the change of row {@code key} of {@code table} in database transaction {@code xid}
   */
  static String change(String table, String op, long xid, long lsn, String key, String before, String after,
      long micros) {
    return change(table, op, xid, -1, lsn, key, before, after, micros);
  }

  /**
   * @param lastCommit the LSN of the commit before, the first of {@code source.sequence}; -1 for a
   *     change without {@code sequence}
   * @return as {@link #change(String, String, long, long, String, String, String, long)}, with its
   *     place in the connector's order
   */
  static String change(String table, String op, long xid, long lastCommit, long lsn, String key, String before,
      String after, long micros) {
    String sequence = lastCommit < 0 ? "" : ",\"sequence\":\"[\\\"" + lastCommit + "\\\",\\\"" + lsn + "\\\"]\"";
    return "{\"before\":" + row(key, before) + ",\"after\":" + row(key, after) + ","
        + "\"source\":{\"version\":\"3.6.1.Final\",\"connector\":\"postgresql\",\"name\":\"isowatch_cdc\","
        + "\"ts_ms\":" + micros / 1000 + ",\"ts_us\":" + micros + ",\"db\":\"app\",\"schema\":\"public\","
        + "\"table\":\"" + table + "\",\"txId\":" + xid + ",\"lsn\":" + lsn + sequence + "},\"op\":\"" + op + "\","
        + "\"transaction\":{\"id\":\"" + xid + ":" + lsn + "\",\"total_order\":1,\"data_collection_order\":1}}";
  }

  /** @return an update of the list table's row {@code key} from {@code before} to {@code after} */
  static String update(long xid, long lsn, String key, String before, String after, long micros) {
    return change("isowatch_list_append", "u", xid, lsn, key, before, after, micros);
  }

  /**
   * @param counts pairs of {@code data_collection} and its count, e.g. {@code "public.accounts", 3}
   * @return the {@code END} of database transaction {@code xid}
   */
  static String end(long xid, long lsn, Object... counts) {
    StringBuilder collections = new StringBuilder();
    long total = 0;
    for (int i = 0; i < counts.length; i += 2) {
      collections.append(i == 0 ? "" : ",").append("{\"data_collection\":\"").append(counts[i])
          .append("\",\"event_count\":").append(counts[i + 1]).append('}');
      total += ((Number) counts[i + 1]).longValue();
    }
    return "{\"status\":\"END\",\"id\":\"" + xid + ":" + lsn + "\",\"event_count\":" + total
        + ",\"data_collections\":[" + collections + "],\"ts_ms\":1700000000000}";
  }

  /** @return the {@code BEGIN} of database transaction {@code xid} */
  static String begin(long xid, long lsn) {
    return "{\"status\":\"BEGIN\",\"id\":\"" + xid + ":" + lsn + "\",\"event_count\":null,\"data_collections\":null,"
        + "\"ts_ms\":1700000000000}";
  }

  private static String row(String key, String v) {
    return v == null ? "null" : "{\"k\":\"" + key + "\",\"v\":\"" + v + "\"}";
  }
}
