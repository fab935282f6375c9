package io.isowatch.connectors.jdbc;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A table whose rows the {@link RecordingDataSource} records: each row is one key of the history,
 * named {@code table/keyValue}, and its version is the value of {@code versionColumn}.
 *
 * <p>Two kinds. A <em>register</em> table ({@code list == false}, {@link #RecordedTable(String,
 * String, String)}): the wrapper keeps the version column, as below. A <em>list</em> table ({@code
 * list == true}, {@link #list}): the version column is the application's own list column, the list's
 * elements as comma-separated decimal longs in append order ({@link
 * io.isowatch.schemas.debezium.ListValues}, the probe's list-append format); the application appends
 * with {@code SET v = v || ',' || e} or {@code SET v = CONCAT(v, ',', e)} and reads the whole list,
 * and the list itself reveals the version order, so the wrapper writes nothing into it.
 *
 * <p>For a register table, the key column must be unique (a primary key); the version column must be a nullable {@code
 * BIGINT} that only the wrapper writes: on every recorded {@code UPDATE} and {@code INSERT} it is set
 * to the writing transaction's token, unique per transaction, so that a later read of the row names
 * its writer ({@code wr}) without the application writing unique values. Names are plain SQL
 * identifiers, compared case-insensitively (unquoted identifiers; PostgreSQL folds them to lower
 * case, MariaDB compares table names as the file system does).
 *
 * @param table the table's name, without schema, e.g. {@code accounts}
 * @param keyColumn the unique key column, e.g. {@code id}
 * @param versionColumn the version column the wrapper keeps, e.g. {@code isowatch_version}; for a
 *     list table, the list column, e.g. {@code v}
 * @param list whether this is a list table
 */
public record RecordedTable(String table, String keyColumn, String versionColumn, boolean list) {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");

  /**
   * @throws IllegalArgumentException if a name is not a plain identifier, or the key and version
   *     columns are the same
   */
  public RecordedTable {
    for (String name : new String[] {table, keyColumn, versionColumn}) {
      if (name == null || !IDENTIFIER.matcher(name).matches()) {
        throw new IllegalArgumentException("not a plain SQL identifier: '" + name + "' (table " + table + ")");
      }
    }
    if (keyColumn.equalsIgnoreCase(versionColumn)) {
      throw new IllegalArgumentException("table " + table + ": key and version columns are both " + keyColumn);
    }
  }

  /**
   * A register table.
   *
   * @throws IllegalArgumentException as the canonical constructor
   */
  public RecordedTable(String table, String keyColumn, String versionColumn) {
    this(table, keyColumn, versionColumn, false);
  }

  /**
   * A list table.
   *
   * @param table the table's name, without schema, e.g. {@code isowatch_list_append}
   * @param keyColumn the unique key column, e.g. {@code k}
   * @param listColumn the text column holding the list, e.g. {@code v}
   * @return the table
   * @throws IllegalArgumentException as the canonical constructor
   */
  public static RecordedTable list(String table, String keyColumn, String listColumn) {
    return new RecordedTable(table, keyColumn, listColumn, true);
  }

  /**
   * The text of a key value, the same for every Java type a driver or the application may use for
   * one number: numbers in plain decimal notation without trailing zeros ({@code 42}, never {@code
   * 42.0} or {@code 4.2E1}); anything else by {@code toString()}.
   *
   * @param value a key value bound to a parameter or written as a literal, not null
   * @return its text
   */
  static String keyText(Object value) {
    if (value instanceof Number n) {
      try {
        BigDecimal d = n instanceof BigDecimal b ? b : new BigDecimal(n.toString());
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
      } catch (NumberFormatException e) {
        return n.toString();
      }
    }
    return value.toString();
  }

  /**
   * @param keyText the key's value as text, e.g. {@code 42}
   * @return the history's key for that row, {@code table/keyText} with the table in lower case
   */
  public String historyKey(String keyText) {
    return table.toLowerCase(Locale.ROOT) + "/" + keyText;
  }
}
