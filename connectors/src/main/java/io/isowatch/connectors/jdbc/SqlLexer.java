package io.isowatch.connectors.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits SQL text into the tokens {@link SqlShapes} needs, keeping each token's place in the text
 * so that the statement can be rewritten by inserting text between tokens. Whitespace and comments
 * ({@code -- ...} to the end of the line, {@code /* ... *}{@code /}) are skipped.
 *
 * <p>Token kinds: words (unquoted identifiers and keywords, upper-cased in {@link Token#upper}),
 * quoted identifiers ({@code "x"} and {@code `x`}, the text between the quotes), string literals
 * ({@code 'x'}, doubled quotes undone), numbers, the parameter marker {@code ?}, and single-character
 * symbols. Anything else (e.g. PostgreSQL's {@code $$} strings) becomes symbols, which no understood
 * statement shape contains, so such statements are never mis-read, only not recorded.
 */
final class SqlLexer {
  private SqlLexer() {}

  /** What a token is. */
  enum Kind { WORD, QUOTED, STRING, NUMBER, PARAM, SYMBOL }

  /**
   * @param kind the kind
   * @param text the identifier, literal's content, number or symbol
   * @param start index of its first character in the SQL text
   * @param end index after its last character
   */
  record Token(Kind kind, String text, int start, int end) {
    /** @return the text in upper case, for keyword comparison */
    String upper() {
      return text.toUpperCase(Locale.ROOT);
    }

    /** @return whether this is the word {@code keyword} (given in upper case) */
    boolean is(String keyword) {
      return kind == Kind.WORD && upper().equals(keyword);
    }

    /** @return whether this is the symbol {@code c} */
    boolean is(char c) {
      return kind == Kind.SYMBOL && text.length() == 1 && text.charAt(0) == c;
    }

    /** @return whether this is an identifier (a word or a quoted identifier) */
    boolean isIdentifier() {
      return kind == Kind.WORD || kind == Kind.QUOTED;
    }
  }

  /**
   * @param sql SQL text
   * @return its tokens in order; an unterminated quote or comment ends the list with one symbol token
   *     holding the rest, which no shape accepts
   */
  static List<Token> tokens(String sql) {
    List<Token> out = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int eol = sql.indexOf('\n', i);
        i = eol < 0 ? n : eol + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int close = sql.indexOf("*/", i + 2);
        if (close < 0) {
          out.add(new Token(Kind.SYMBOL, sql.substring(i), i, n));
          return out;
        }
        i = close + 2;
      } else if (Character.isLetter(c) || c == '_') {
        int j = i + 1;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_' || sql.charAt(j) == '$')) {
          j++;
        }
        out.add(new Token(Kind.WORD, sql.substring(i, j), i, j));
        i = j;
      } else if (Character.isDigit(c)) {
        int j = i + 1;
        while (j < n && (Character.isDigit(sql.charAt(j)) || sql.charAt(j) == '.')) {
          j++;
        }
        out.add(new Token(Kind.NUMBER, sql.substring(i, j), i, j));
        i = j;
      } else if (c == '\'' || c == '"' || c == '`') {
        int j = i + 1;
        StringBuilder text = new StringBuilder();
        while (true) {
          if (j >= n) {
            out.add(new Token(Kind.SYMBOL, sql.substring(i), i, n));
            return out;
          }
          char d = sql.charAt(j);
          if (d == c && j + 1 < n && sql.charAt(j + 1) == c) {
            text.append(c);
            j += 2;
          } else if (d == c) {
            break;
          } else {
            text.append(d);
            j++;
          }
        }
        out.add(new Token(c == '\'' ? Kind.STRING : Kind.QUOTED, text.toString(), i, j + 1));
        i = j + 1;
      } else if (c == '?') {
        out.add(new Token(Kind.PARAM, "?", i, i + 1));
        i++;
      } else {
        out.add(new Token(Kind.SYMBOL, String.valueOf(c), i, i + 1));
        i++;
      }
    }
    return out;
  }
}
