package io.isowatch.schemas.debezium;

import java.util.Map;

/**
 * A record of Debezium's transaction-metadata topic (Debezium connector documentation, "Transaction
 * metadata"): the {@code BEGIN} or {@code END} of a database transaction.
 *
 * @param txn the transaction, in the same form as {@link RowChange#txn}: Debezium's {@code id}
 *     {@code <xid>:<lsn>} for PostgreSQL is cut to its xid; a GTID stays as it is
 * @param end true for {@code END}, false for {@code BEGIN}
 * @param eventCount for {@code END}, how many row changes the transaction has across all its
 *     tables ({@code event_count}); 0 for {@code BEGIN}
 * @param eventCountByCollection for {@code END}, how many of them each table has ({@code
 *     data_collections}: {@code data_collection}, e.g. {@code public.isowatch_list_append}, to its
 *     {@code event_count}); empty for {@code BEGIN} and when the record lists none
 */
public record TxBoundary(String txn, boolean end, long eventCount, Map<String, Long> eventCountByCollection)
    implements Envelope {
  /** Copies the map. */
  public TxBoundary {
    eventCountByCollection = Map.copyOf(eventCountByCollection);
  }

  /**
   * @param table a table's name without schema, e.g. {@code isowatch_list_append}
   * @return how many row changes of that table an {@code END} counts: the matching entry of {@link
   *     #eventCountByCollection} ({@code <schema>.<table>} or the bare name); 0 if it lists others only;
   *     {@link #eventCount} if it lists none
   */
  public long eventCountOf(String table) {
    if (eventCountByCollection.isEmpty()) {
      return eventCount;
    }
    long n = 0;
    for (Map.Entry<String, Long> e : eventCountByCollection.entrySet()) {
      if (e.getKey().equals(table) || e.getKey().endsWith("." + table)) {
        n += e.getValue();
      }
    }
    return n;
  }
}
