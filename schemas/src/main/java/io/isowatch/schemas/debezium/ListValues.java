package io.isowatch.schemas.debezium;

import java.util.ArrayList;
import java.util.List;

/**
 * The text form of a list in the probe's list-append table's {@code v} column ({@code
 * isowatch_list_append}, {@code connectors}' {@code Dialect.LIST_TABLE}): the elements in append
 * order, each after a comma ({@code ""} empty, {@code ",3,17"} two elements), as built by the
 * probe's {@code Dialect.appendSql}. A leading comma is optional, so {@code "3,17"} (a first insert)
 * reads the same. Here, beside the Debezium envelopes, because both the probe and the readers of
 * the table's change events ({@link ListAppendRows}) need it.
 */
public final class ListValues {
  private ListValues() {}

  /**
   * @param text the column's value, not null
   * @return the elements, oldest first
   * @throws NumberFormatException if an element is not a decimal long
   */
  public static List<Long> parse(String text) {
    List<Long> out = new ArrayList<>();
    String elements = text.startsWith(",") ? text.substring(1) : text;
    if (elements.isEmpty()) {
      return out;
    }
    for (String part : elements.split(",", -1)) {
      out.add(Long.parseLong(part));
    }
    return out;
  }
}
