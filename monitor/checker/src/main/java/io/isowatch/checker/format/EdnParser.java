package io.isowatch.checker.format;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A small EDN reader for one line of a Jepsen history (the subset of the edn-format.org
 * specification that Jepsen writes), with no Clojure dependency.
 *
 * <p>Values map to Java as: {@code nil} to {@code null}, {@code true}/{@code false} to {@link
 * Boolean}, integers to {@link Long} ({@link BigInteger} when out of range, suffix {@code N}
 * allowed), decimals to {@link Double}, strings to {@link String}, keywords to {@link Keyword},
 * symbols to {@link Symbol}, characters to {@link Character}, vectors and lists to {@link List},
 * maps to {@link Map}, sets to {@link Set}. Tagged values ({@code #inst "..."}, {@code
 * #jepsen.history.Op{...}}) read as the value after the tag; {@code #_} discards the next value;
 * commas are whitespace; {@code ;} starts a comment. A key repeated in a map or an element
 * repeated in a set is an error, as the specification says. Values nest at most {@link #MAX_DEPTH}
 * deep, so a hostile line cannot exhaust the stack.
 */
final class EdnParser {
  /** An EDN keyword such as {@code :type}, by its name without the colon. */
  record Keyword(String name) {}

  /** An EDN symbol such as {@code foo/bar}. */
  record Symbol(String name) {}

  /** What {@link #parseLine} returns for a line without a value. */
  static final Object NOTHING = new Object();

  private final String s;
  private final Path file;
  private final long line;
  private int i;
  /** How many {@link #value} calls are open: the nesting depth of the value being read. */
  private int depth;

  /** The deepest nesting of values a line may have; deeper lines are rejected, not recursed. */
  static final int MAX_DEPTH = 256;

  private EdnParser(String s, Path file, long line) {
    this.s = s;
    this.file = file;
    this.line = line;
  }

  /**
   * Reads the single value a line holds.
   *
   * @param text the line
   * @param file the file, for error messages
   * @param line the line number, for error messages
   * @return the value, or {@link #NOTHING} for a line of blanks and comments
   * @throws HistoryFormatException naming line and column for malformed text, or text after the
   *     value
   */
  static Object parseLine(String text, Path file, long line) throws HistoryFormatException {
    EdnParser p = new EdnParser(text, file, line);
    p.skipBlank();
    if (p.i == p.s.length()) {
      return NOTHING;
    }
    Object v = p.value();
    p.skipBlank();
    if (p.i < p.s.length()) {
      throw p.error("text after the value", "one EDN value per line");
    }
    return v;
  }

  /**
   * @param v a value returned by {@link #parseLine}
   * @return it written back as EDN (maps and sets in no particular order) and cut to an {@link
   *     HistoryFormatException#excerpt}, for error messages
   */
  static String show(Object v) {
    return HistoryFormatException.excerpt(render(v));
  }

  static String render(Object v) {
    if (v == null) {
      return "nil";
    } else if (v instanceof Keyword) {
      return ":" + ((Keyword) v).name();
    } else if (v instanceof Symbol) {
      return ((Symbol) v).name();
    } else if (v instanceof String) {
      return '"' + (String) v + '"';
    } else if (v instanceof List) {
      StringBuilder sb = new StringBuilder("[");
      for (Object e : (List<?>) v) {
        sb.append(sb.length() > 1 ? " " : "").append(render(e));
      }
      return sb.append(']').toString();
    } else if (v instanceof Map) {
      StringBuilder sb = new StringBuilder("{");
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        sb.append(sb.length() > 1 ? ", " : "").append(render(e.getKey())).append(' ')
            .append(render(e.getValue()));
      }
      return sb.append('}').toString();
    }
    return String.valueOf(v);
  }

  private Object value() throws HistoryFormatException {
    if (depth == MAX_DEPTH) {
      throw error("values nested deeper than " + MAX_DEPTH,
          "at most " + MAX_DEPTH + " nested values");
    }
    depth++;
    try {
      return nestedValue();
    } finally {
      depth--;
    }
  }

  private Object nestedValue() throws HistoryFormatException {
    skipBlank();
    if (i >= s.length()) {
      throw error("line ends inside a value", "a value or a closing bracket");
    }
    char c = s.charAt(i);
    switch (c) {
      case '{':
        i++;
        return map();
      case '[':
        i++;
        return seq(']');
      case '(':
        i++;
        return seq(')');
      case '"':
        i++;
        return string();
      case '#':
        return dispatch();
      case '\\':
        return character();
      case ':':
        i++;
        return new Keyword(token());
      case '}':
      case ']':
      case ')':
        throw error("unexpected '" + HistoryFormatException.excerpt(String.valueOf(c)) + "'", "a value");
      default:
        return atom();
    }
  }

  private Map<Object, Object> map() throws HistoryFormatException {
    Map<Object, Object> m = new HashMap<>();
    while (!closes('}')) {
      int at = i;
      Object k = value();
      if (m.containsKey(k)) {
        i = at;
        throw error("map key " + show(k) + " repeated", "distinct keys in a map");
      }
      skipBlank();
      if (i < s.length() && s.charAt(i) == '}') {
        throw error("map has a key without a value", "a value after the key");
      }
      m.put(k, value());
    }
    return m;
  }

  private List<Object> seq(char close) throws HistoryFormatException {
    List<Object> l = new ArrayList<>();
    while (!closes(close)) {
      l.add(value());
    }
    return l;
  }

  private boolean closes(char close) throws HistoryFormatException {
    skipBlank();
    if (i >= s.length()) {
      throw error("line ends before '" + close + "'", "'" + close + "'");
    }
    if (s.charAt(i) == close) {
      i++;
      return true;
    }
    return false;
  }

  private Object dispatch() throws HistoryFormatException {
    i++;
    if (i < s.length() && s.charAt(i) == '{') {
      i++;
      Set<Object> set = new HashSet<>();
      while (!closes('}')) {
        int at = i;
        Object e = value();
        if (!set.add(e)) {
          i = at;
          throw error("set element " + show(e) + " repeated", "distinct elements in a set");
        }
      }
      return set;
    }
    String tag = token();
    if (tag.isEmpty()) {
      throw error("'#' without a tag", "#{...}, #_ or a tag such as #inst");
    }
    return value();
  }

  private String string() throws HistoryFormatException {
    StringBuilder sb = new StringBuilder();
    while (i < s.length()) {
      char c = s.charAt(i++);
      if (c == '"') {
        return sb.toString();
      }
      if (c == '\\' && i < s.length()) {
        char e = s.charAt(i++);
        switch (e) {
          case 'n':
            sb.append('\n');
            break;
          case 't':
            sb.append('\t');
            break;
          case 'r':
            sb.append('\r');
            break;
          case 'u':
            if (i + 4 > s.length()) {
              throw error("short \\u escape", "four hex digits");
            }
            int code = 0;
            for (int k = i; k < i + 4; k++) {
              int digit = Character.digit(s.charAt(k), 16);
              if (digit < 0) {
                throw error("\\u escape '" + HistoryFormatException.excerpt(s.substring(i, i + 4))
                    + "' is not four hex digits", "four hex digits");
              }
              code = code * 16 + digit;
            }
            sb.append((char) code);
            i += 4;
            break;
          default:
            sb.append(e);
        }
      } else {
        sb.append(c);
      }
    }
    throw error("line ends inside a string", "a closing '\"'");
  }

  private Character character() throws HistoryFormatException {
    i++;
    String t = token();
    if (t.isEmpty() && i < s.length()) {
      return s.charAt(i++);
    }
    switch (t) {
      case "newline":
        return '\n';
      case "space":
        return ' ';
      case "tab":
        return '\t';
      default:
        if (t.length() == 1) {
          return t.charAt(0);
        }
        throw error("unknown character literal \\" + HistoryFormatException.excerpt(t), "a character such as \\a or \\newline");
    }
  }

  private Object atom() throws HistoryFormatException {
    String t = token();
    if (t.isEmpty()) {
      throw error("unexpected '" + HistoryFormatException.excerpt(s.substring(i, i + 1)) + "'", "a value");
    }
    switch (t) {
      case "nil":
        return null;
      case "true":
        return Boolean.TRUE;
      case "false":
        return Boolean.FALSE;
      default:
        break;
    }
    char c = t.charAt(0);
    boolean signed = (c == '-' || c == '+') && t.length() > 1;
    if (Character.isDigit(c) || (signed && Character.isDigit(t.charAt(1)))) {
      return number(t);
    }
    return new Symbol(t);
  }

  private Object number(String t) throws HistoryFormatException {
    String digits = t.endsWith("N") ? t.substring(0, t.length() - 1) : t;
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException notLong) {
      try {
        if (digits.matches("[-+]?\\d+")) {
          return new BigInteger(digits);
        }
        return Double.parseDouble(t.endsWith("M") ? t.substring(0, t.length() - 1) : t);
      } catch (NumberFormatException e) {
        throw error("malformed number '" + HistoryFormatException.excerpt(t) + "'", "an integer or a decimal");
      }
    }
  }

  private String token() {
    int start = i;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c < DELIMITER.length ? DELIMITER[c] : Character.isWhitespace(c)) {
        break;
      }
      i++;
    }
    return s.substring(start, i);
  }

  /** ASCII characters that end a token: whitespace, comma, brackets, quote, semicolon. */
  private static final boolean[] DELIMITER = new boolean[128];

  static {
    for (char c = 0; c < DELIMITER.length; c++) {
      DELIMITER[c] = Character.isWhitespace(c) || ",{}[]()\";".indexOf(c) >= 0;
    }
  }

  /** Skips whitespace, commas, comments and values discarded by {@code #_}. */
  private void skipBlank() throws HistoryFormatException {
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == ';') {
        i = s.length();
      } else if (c == '#' && s.startsWith("#_", i)) {
        i += 2;
        value();
      } else if (Character.isWhitespace(c) || c == ',') {
        i++;
      } else {
        return;
      }
    }
  }

  private HistoryFormatException error(String problem, String expected) {
    return HistoryFormatException.atLine(
        file, line, problem + " at column " + (i + 1), expected);
  }
}
