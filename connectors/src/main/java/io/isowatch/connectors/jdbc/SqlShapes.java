package io.isowatch.connectors.jdbc;

import io.isowatch.connectors.jdbc.SqlLexer.Kind;
import io.isowatch.connectors.jdbc.SqlLexer.Token;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Recognises the statement shapes the {@link RecordingDataSource} records, and rewrites them to
 * read or set the version column. Understood (keywords in any case, identifiers unquoted or quoted,
 * an optional trailing {@code ;}):
 *
 * <ul>
 *   <li>{@code SELECT c1, t.c2, * FROM [schema.]table [[AS] alias] WHERE [alias.]key = v [FOR
 *       UPDATE | FOR SHARE | LOCK IN SHARE MODE]}: the select list holds column names and {@code *}
 *       only (with optional aliases); expressions, {@code DISTINCT}, aggregates, joins and further
 *       conditions are not understood;
 *   <li>{@code UPDATE [schema.]table [[AS] alias] SET c1 = e1, ... WHERE [alias.]key = v}, where
 *       no assignment is to the key or the version column;
 *   <li>{@code INSERT INTO [schema.]table (c1, ..., cn) VALUES (e1, ..., en)}: one row, the key
 *       among the columns, the version column not;
 * </ul>
 *
 * (the UPDATE and INSERT shapes of a list table, {@link RecordedTable#list}, are {@link ListShapes}'
 * instead), where {@code v} (and the key's {@code ei}) is a parameter marker {@code ?}, a number, or a string
 * literal without backslashes. Everything else that mentions a recorded table's name as a word
 * (DELETE, upserts, several rows, ranges, joins, CTEs, procedure calls, ...) is {@link
 * SqlShape.Unrecorded}, with the statement's first keyword, lower case, as the reason. The
 * recognition is a token-level match of these shapes, not a SQL parser: it errs towards not
 * recording, never towards recording a row the statement did not read or write.
 */
final class SqlShapes {
  private final Map<String, RecordedTable> tables;

  /** @param tables the recorded tables by lower-case name */
  SqlShapes(Map<String, RecordedTable> tables) {
    this.tables = tables;
  }

  /**
   * @param sql one SQL statement
   * @return what it is
   */
  SqlShape parse(String sql) {
    List<Token> t = SqlLexer.tokens(sql);
    Optional<RecordedTable> mentioned = mentioned(t);
    if (mentioned.isEmpty()) {
      return SqlShape.OUTSIDE;
    }
    SqlCursor c = new SqlCursor(tables, sql, t);
    SqlShape shape = null;
    if (!t.isEmpty() && t.get(0).is("SELECT")) {
      shape = select(c);
    } else if (!t.isEmpty() && t.get(0).is("UPDATE")) {
      shape = update(c);
    } else if (!t.isEmpty() && t.get(0).is("INSERT")) {
      shape = insert(c);
    }
    if (shape != null) {
      return shape;
    }
    String first = !t.isEmpty() && t.get(0).kind() == Kind.WORD ? t.get(0).text().toLowerCase(Locale.ROOT) : "other";
    return new SqlShape.Unrecorded(mentioned.get(), first);
  }

  /**
   * @param sql SQL text
   * @return the first recorded table whose name appears in it as an identifier, if any
   */
  Optional<RecordedTable> mentioned(String sql) {
    return mentioned(SqlLexer.tokens(sql));
  }

  private Optional<RecordedTable> mentioned(List<Token> t) {
    for (Token k : t) {
      if (k.isIdentifier()) {
        RecordedTable table = tables.get(k.text().toLowerCase(Locale.ROOT));
        if (table != null) {
          return Optional.of(table);
        }
      }
    }
    return Optional.empty();
  }

  private SqlShape select(SqlCursor c) {
    c.next();
    do {
      if (!c.selectItem()) {
        return null;
      }
    } while (c.accept(','));
    int listEnd = c.peekStart();
    if (!c.acceptWord("FROM")) {
      return null;
    }
    RecordedTable table = c.table();
    if (table == null) {
      return null;
    }
    String alias = c.alias("WHERE");
    SqlShape.Key key = c.whereKey(table, alias);
    if (key == null) {
      return null;
    }
    if (c.acceptWord("FOR")) {
      if (!c.acceptWord("UPDATE") && !c.acceptWord("SHARE")) {
        return null;
      }
    } else if (c.acceptWord("LOCK")) {
      if (!c.acceptWord("IN") || !c.acceptWord("SHARE") || !c.acceptWord("MODE")) {
        return null;
      }
    }
    if (!c.atEnd()) {
      return null;
    }
    String sql = c.sql.substring(0, listEnd) + ", " + table.versionColumn() + " " + c.sql.substring(listEnd);
    return new SqlShape.Read(table, key, sql);
  }

  private SqlShape update(SqlCursor c) {
    c.next();
    RecordedTable table = c.table();
    if (table == null) {
      return null;
    }
    if (table.list()) {
      return ListShapes.update(c, table);
    }
    String alias = c.alias("SET");
    if (!c.acceptWord("SET")) {
      return null;
    }
    int setStart = c.peekStart();
    while (!c.atEnd() && !c.peek().is("WHERE")) {
      Token column = c.qualifiedColumn(alias, table);
      if (column == null || !c.accept('=') || assigns(table, column)) {
        return null;
      }
      if (!c.skipExpression()) {
        return null;
      }
      if (!c.accept(',')) {
        break;
      }
    }
    SqlShape.Key key = c.whereKey(table, alias);
    if (key == null || !c.atEnd()) {
      return null;
    }
    String v = table.versionColumn();
    String head = c.sql.substring(0, setStart);
    String tail = ", " + c.sql.substring(setStart);
    return new SqlShape.Write(table, key, head + v + " = COALESCE(?, " + v + ")" + tail, head + v + " = ", tail);
  }

  private SqlShape insert(SqlCursor c) {
    c.next();
    if (!c.acceptWord("INTO")) {
      return null;
    }
    RecordedTable table = c.table();
    if (table != null && table.list()) {
      return ListShapes.insert(c, table);
    }
    if (table == null || !c.accept('(')) {
      return null;
    }
    int columnsStart = c.peekStart();
    int keyPosition = -1;
    int count = 0;
    do {
      Token column = c.peek();
      if (column == null || !column.isIdentifier() || assigns(table, column) && !isKey(table, column)) {
        return null;
      }
      c.next();
      if (isKey(table, column)) {
        keyPosition = count;
      }
      count++;
    } while (c.accept(','));
    if (keyPosition < 0 || !c.accept(')') || !c.acceptWord("VALUES") || !c.accept('(')) {
      return null;
    }
    int valuesStart = c.peekStart();
    SqlShape.Key key = null;
    for (int i = 0; i < count; i++) {
      if (i > 0 && !c.accept(',')) {
        return null;
      }
      if (i == keyPosition) {
        key = c.keyValue();
        if (key == null) {
          return null;
        }
      } else if (!c.skipExpression()) {
        return null;
      }
    }
    if (!c.accept(')') || !c.atEnd()) {
      return null;
    }
    String v = table.versionColumn();
    String a = c.sql.substring(0, columnsStart) + v + ", " + c.sql.substring(columnsStart, valuesStart);
    String b = ", " + c.sql.substring(valuesStart);
    return new SqlShape.Write(table, key, a + "?" + b, a, b);
  }

  /** @return whether assigning {@code column} is not allowed to the application (key or version column) */
  private static boolean assigns(RecordedTable table, Token column) {
    return isKey(table, column) || column.text().equalsIgnoreCase(table.versionColumn());
  }

  static boolean isKey(RecordedTable table, Token column) {
    return column.text().equalsIgnoreCase(table.keyColumn());
  }
}
