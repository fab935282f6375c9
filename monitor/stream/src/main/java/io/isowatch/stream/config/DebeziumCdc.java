package io.isowatch.stream.config;

import java.util.Objects;

/**
 * Where {@code monitor --input debezium-cdc} finds a list-append table's database transactions:
 * the events topic is Debezium's topic of the table's row changes ({@code <topic.prefix>.<schema>.<table>}),
 * read beside the connector's transaction-metadata topic ({@code <topic.prefix>.transaction}, written
 * with {@code provide.transaction.metadata=true}; Debezium connector documentation, "Transaction
 * metadata"), and every transaction becomes a record of one history.
 *
 * @param transactionTopic the transaction-metadata topic, whose {@code END} records say how many row
 *     changes of the table each transaction has
 * @param table the table's name without schema, e.g. {@code isowatch_list_append}; row changes of
 *     other tables are skipped and counted
 * @param historyId the {@code historyId} of the transactions, e.g. the capture's name
 */
public record DebeziumCdc(String transactionTopic, String table, String historyId) {
  /**
   * The window {@code monitor --input debezium-cdc} takes when none is given: {@value} transactions.
   * Each CDC transaction is alone in its session, and the window's causal check costs O(W) per
   * transaction and O(W^2) memory on that shape (AWDIT, PLDI 2025, section 6; measured in
   * docs/PERFORMANCE.md, "CDC histories in the window").
   */
  public static final int DEFAULT_WINDOW = 2_000;

  /** @throws NullPointerException for a null field; @throws IllegalArgumentException for an empty one */
  public DebeziumCdc {
    for (String s : new String[] {
        Objects.requireNonNull(transactionTopic, "transactionTopic"), Objects.requireNonNull(table, "table"),
        Objects.requireNonNull(historyId, "historyId")}) {
      if (s.isEmpty()) {
        throw new IllegalArgumentException("the CDC input's transaction topic, table and history id must not be empty");
      }
    }
  }

  /**
   * @param dataTopic Debezium's topic of the table, {@code <prefix>.<schema>.<table>}, e.g. {@code
   *     isowatch_cdc.public.isowatch_list_append}
   * @return transaction topic {@code <prefix>.transaction}, table the name's last part, historyId the
   *     prefix (what {@code capture --cdc --name} takes as its default historyId), the prefix being the
   *     name up to its first dot (the whole name if it has none)
   */
  public static DebeziumCdc forDataTopic(String dataTopic) {
    int first = dataTopic.indexOf('.');
    String prefix = first > 0 ? dataTopic.substring(0, first) : dataTopic;
    String table = dataTopic.substring(dataTopic.lastIndexOf('.') + 1);
    return new DebeziumCdc(prefix + ".transaction", table.isEmpty() ? dataTopic : table, prefix);
  }
}
