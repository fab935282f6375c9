package io.isowatch.connectors.jdbc;

import io.isowatch.connectors.jdbc.SqlLexer.Kind;
import io.isowatch.connectors.jdbc.SqlLexer.Token;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A position in one statement's token list, with the matching steps that the statement shapes of
 * {@link SqlShapes} and {@link ListShapes} are made of. Each step either consumes what it matches
 * or reports a mismatch (false or null); a shape that meets a mismatch is not understood.
 */
final class SqlCursor {
  private final Map<String, RecordedTable> tables;
  final String sql;
  private final List<Token> tokens;
  private int pos;
  private int params;

  /**
   * @param tables the recorded tables by lower-case name
   * @param sql the statement
   * @param tokens its tokens ({@link SqlLexer#tokens})
   */
  SqlCursor(Map<String, RecordedTable> tables, String sql, List<Token> tokens) {
    this.tables = tables;
    this.sql = sql;
    // a trailing ';' is not part of the shape
    int n = tokens.size();
    this.tokens = n > 0 && tokens.get(n - 1).is(';') ? tokens.subList(0, n - 1) : tokens;
  }

  Token peek() {
    return pos < tokens.size() ? tokens.get(pos) : null;
  }

  int peekStart() {
    return pos < tokens.size() ? tokens.get(pos).start() : sql.length();
  }

  Token next() {
    Token t = tokens.get(pos++);
    if (t.kind() == Kind.PARAM) {
      params++;
    }
    return t;
  }

  boolean atEnd() {
    return pos >= tokens.size();
  }

  boolean accept(char symbol) {
    if (!atEnd() && peek().is(symbol)) {
      next();
      return true;
    }
    return false;
  }

  /** Accepts the string literal {@code text}; false, consuming nothing, if the next token is not it. */
  boolean acceptString(String text) {
    if (!atEnd() && peek().kind() == Kind.STRING && peek().text().equals(text)) {
      next();
      return true;
    }
    return false;
  }

  boolean acceptWord(String keyword) {
    if (!atEnd() && peek().is(keyword)) {
      next();
      return true;
    }
    return false;
  }

  /** {@code *}, {@code name[.name][.*]} with an optional {@code [AS] alias}. */
  boolean selectItem() {
    if (accept('*')) {
      return true;
    }
    if (atEnd() || !peek().isIdentifier() || peek().is("FROM") || peek().is("DISTINCT")) {
      return false;
    }
    next();
    while (accept('.')) {
      if (accept('*')) {
        return true;
      }
      if (atEnd() || !peek().isIdentifier()) {
        return false;
      }
      next();
    }
    if (acceptWord("AS")) {
      if (atEnd() || !peek().isIdentifier()) {
        return false;
      }
      next();
    } else if (!atEnd() && peek().isIdentifier() && !peek().is("FROM")) {
      next();
    }
    return true;
  }

  /** {@code [schema.]table} naming a recorded table; null otherwise. */
  RecordedTable table() {
    if (atEnd() || !peek().isIdentifier()) {
      return null;
    }
    Token name = next();
    if (accept('.')) {
      if (atEnd() || !peek().isIdentifier()) {
        return null;
      }
      name = next();
    }
    return tables.get(name.text().toLowerCase(Locale.ROOT));
  }

  /** An optional {@code [AS] alias} before {@code keyword}; null if none. */
  String alias(String keyword) {
    boolean as = acceptWord("AS");
    if (!atEnd() && peek().isIdentifier() && (as || !peek().is(keyword))) {
      return next().text();
    }
    return null;
  }

  /** {@code [qualifier.]column}, the qualifier being the table or its alias; null otherwise. */
  Token qualifiedColumn(String alias, RecordedTable table) {
    if (atEnd() || !peek().isIdentifier()) {
      return null;
    }
    Token first = next();
    if (!accept('.')) {
      return first;
    }
    boolean ours = first.text().equalsIgnoreCase(table.table()) || first.text().equalsIgnoreCase(alias);
    if (!ours || atEnd() || !peek().isIdentifier()) {
      return null;
    }
    return next();
  }

  /** {@code WHERE [qualifier.]key = value}; null otherwise. */
  SqlShape.Key whereKey(RecordedTable table, String alias) {
    if (!acceptWord("WHERE")) {
      return null;
    }
    Token column = qualifiedColumn(alias, table);
    if (column == null || !SqlShapes.isKey(table, column) || !accept('=')) {
      return null;
    }
    return keyValue();
  }

  /** {@code ?}, a number (optionally negative) or a string literal without backslashes; null otherwise. */
  SqlShape.Key keyValue() {
    if (atEnd()) {
      return null;
    }
    boolean negative = accept('-');
    Token v = atEnd() ? null : next();
    if (v == null) {
      return null;
    }
    if (v.kind() == Kind.PARAM && !negative) {
      return new SqlShape.Key(params, null);
    }
    if (v.kind() == Kind.NUMBER) {
      try {
        return new SqlShape.Key(0, RecordedTable.keyText(new BigDecimal((negative ? "-" : "") + v.text())));
      } catch (NumberFormatException e) {
        return null;
      }
    }
    if (v.kind() == Kind.STRING && !negative && v.text().indexOf('\\') < 0) {
      return new SqlShape.Key(0, v.text());
    }
    return null;
  }

  /**
   * Skips one expression: tokens up to the next ',' or ')' or WHERE at parenthesis depth 0.
   *
   * @return whether it was not empty and parentheses balanced
   */
  boolean skipExpression() {
    int depth = 0;
    int start = pos;
    while (!atEnd()) {
      Token t = peek();
      if (depth == 0 && (t.is(',') || t.is(')') || t.is("WHERE"))) {
        break;
      }
      if (t.is('(')) {
        depth++;
      } else if (t.is(')')) {
        depth--;
      }
      next();
    }
    return depth == 0 && pos > start;
  }
}
