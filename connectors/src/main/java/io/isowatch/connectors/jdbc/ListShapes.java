package io.isowatch.connectors.jdbc;

import io.isowatch.connectors.jdbc.SqlLexer.Token;

/**
 * The write shapes of a list table ({@link RecordedTable#list}), as the probe's dialects issue them
 * ({@link io.isowatch.connectors.probe.PostgresDialect#appendSql}, {@link
 * io.isowatch.connectors.probe.MariaDbDialect#appendSql}, {@link
 * io.isowatch.connectors.probe.Dialect#insertSql}):
 *
 * <ul>
 *   <li>{@code UPDATE [schema.]table [[AS] alias] SET l = l || ',' || e [, c = x ...] WHERE
 *       [alias.]key = v}, or with {@code l = CONCAT(l, ',', e)}, where {@code l} is the list column;
 *   <li>{@code INSERT INTO [schema.]table (c1, ..., cn) VALUES (e1, ..., en)}: one row, the key and
 *       the list column among the columns;
 * </ul>
 *
 * where {@code e} and the key's {@code v} are a parameter marker, a number, or a string literal
 * without backslashes. Both are {@link SqlShape.Append}s and run unchanged: the list column reveals
 * the version order by itself. Reads of a list table are the SELECT shape of {@link SqlShapes}. An
 * UPDATE that assigns the list column any other way (or not at all) is not understood, and neither
 * is an assignment to the key.
 */
final class ListShapes {
  private ListShapes() {}

  /**
   * @param c positioned after the table's name of an UPDATE
   * @param table the list table updated
   * @return the append, or null if the statement is not of the shape
   */
  static SqlShape update(SqlCursor c, RecordedTable table) {
    String alias = c.alias("SET");
    if (!c.acceptWord("SET")) {
      return null;
    }
    SqlShape.Key element = null;
    while (!c.atEnd() && !c.peek().is("WHERE")) {
      Token column = c.qualifiedColumn(alias, table);
      if (column == null || !c.accept('=') || SqlShapes.isKey(table, column)) {
        return null;
      }
      if (isList(table, column)) {
        if (element != null) {
          return null;
        }
        element = appended(c, table, alias);
        if (element == null) {
          return null;
        }
      } else if (!c.skipExpression()) {
        return null;
      }
      if (!c.accept(',')) {
        break;
      }
    }
    SqlShape.Key key = c.whereKey(table, alias);
    if (element == null || key == null || !c.atEnd()) {
      return null;
    }
    return new SqlShape.Append(table, key, element);
  }

  /**
   * @param c positioned after {@code INSERT}
   * @param table the list table named (the cursor is after its name)
   * @return the append of the inserted list's elements, or null if the statement is not of the shape
   */
  static SqlShape insert(SqlCursor c, RecordedTable table) {
    if (!c.accept('(')) {
      return null;
    }
    int keyPosition = -1;
    int listPosition = -1;
    int count = 0;
    do {
      Token column = c.peek();
      if (column == null || !column.isIdentifier()) {
        return null;
      }
      c.next();
      if (SqlShapes.isKey(table, column)) {
        keyPosition = count;
      } else if (isList(table, column)) {
        listPosition = count;
      }
      count++;
    } while (c.accept(','));
    if (keyPosition < 0 || listPosition < 0 || !c.accept(')') || !c.acceptWord("VALUES") || !c.accept('(')) {
      return null;
    }
    SqlShape.Key key = null;
    SqlShape.Key element = null;
    for (int i = 0; i < count; i++) {
      if (i > 0 && !c.accept(',')) {
        return null;
      }
      if (i == keyPosition || i == listPosition) {
        SqlShape.Key v = c.keyValue();
        if (v == null) {
          return null;
        }
        if (i == keyPosition) {
          key = v;
        } else {
          element = v;
        }
      } else if (!c.skipExpression()) {
        return null;
      }
    }
    if (!c.accept(')') || !c.atEnd()) {
      return null;
    }
    return new SqlShape.Append(table, key, element);
  }

  /** {@code l || ',' || e} or {@code CONCAT(l, ',', e)} up to the assignment's end; the {@code e}, or null. */
  private static SqlShape.Key appended(SqlCursor c, RecordedTable table, String alias) {
    SqlShape.Key element;
    if (c.acceptWord("CONCAT")) {
      if (!c.accept('(') || !isList(table, c.qualifiedColumn(alias, table)) || !c.accept(',')
          || !c.acceptString(",") || !c.accept(',')) {
        return null;
      }
      element = c.keyValue();
      if (!c.accept(')')) {
        return null;
      }
    } else {
      if (!isList(table, c.qualifiedColumn(alias, table)) || !concat(c) || !c.acceptString(",") || !concat(c)) {
        return null;
      }
      element = c.keyValue();
    }
    boolean ends = c.atEnd() || c.peek().is(',') || c.peek().is("WHERE");
    return ends ? element : null;
  }

  /** The operator {@code ||}. */
  private static boolean concat(SqlCursor c) {
    return c.accept('|') && c.accept('|');
  }

  private static boolean isList(RecordedTable table, Token column) {
    return column != null && column.text().equalsIgnoreCase(table.versionColumn());
  }
}
