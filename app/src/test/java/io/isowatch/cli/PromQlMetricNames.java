package io.isowatch.cli;

import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test helper: the metric names a PromQL expression selects (Prometheus documentation, "Querying
 * basics" and "Operators"), so that a test can hold the names queried by the alert rules and the
 * dashboard against what the monitor exports.
 *
 * <p>Not a parser of the whole grammar, but honest about what it skips: it blanks string literals,
 * label matchers {@code {...}}, range and subquery selectors {@code [...]}, the label lists of
 * {@code by}/{@code without}/{@code on}/{@code ignoring}/{@code group_left}/{@code group_right},
 * {@code offset} and {@code @} modifiers, Grafana variables ({@code $__rate_interval}, {@code
 * ${job}}) and number literals. Every identifier left is a metric name unless it is followed by
 * {@code (} (a function or an aggregation) or is an operator keyword or aggregation name.
 */
final class PromQlMetricNames {
  private static final Pattern STRINGS = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'|`[^`]*`");
  private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
  private static final Pattern RANGES = Pattern.compile("\\[[^]]*]");
  private static final Pattern GROUPING = Pattern.compile(
      "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
  private static final Pattern MODIFIERS = Pattern.compile("\\boffset\\s+-?[0-9a-zA-Z]+|@\\s*(?:start\\(\\)|end\\(\\)|[0-9.]+)");
  private static final Pattern VARIABLES = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
  private static final Pattern NUMBERS = Pattern.compile(
      "(?<![\\w:.])(?:0[xX][0-9a-fA-F]+|\\d+(?:\\.\\d*)?(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)");
  private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  /** Binary operator keywords, grouping keywords and literals (Prometheus docs, "Operators"). */
  private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "by", "without", "on", "ignoring",
      "group_left", "group_right", "bool", "offset", "inf", "nan", "Inf", "NaN",
      // aggregation operators, which may be followed by "by (...)" before their "("
      "sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk", "topk",
      "quantile", "limitk", "limit_ratio");

  private PromQlMetricNames() {}

  /**
   * @param expr a PromQL expression, possibly with Grafana variables
   * @return the metric names it selects, sorted
   */
  static SortedSet<String> of(String expr) {
    String s = STRINGS.matcher(expr).replaceAll("\"\"");
    s = MATCHERS.matcher(s).replaceAll("{}");
    s = RANGES.matcher(s).replaceAll("[]");
    s = GROUPING.matcher(s).replaceAll("$1 ()");
    s = MODIFIERS.matcher(s).replaceAll(" ");
    s = VARIABLES.matcher(s).replaceAll(" ");
    s = NUMBERS.matcher(s).replaceAll(" ");
    SortedSet<String> names = new TreeSet<>();
    Matcher m = IDENTIFIER.matcher(s);
    while (m.find()) {
      String id = m.group();
      int next = m.end();
      while (next < s.length() && Character.isWhitespace(s.charAt(next))) {
        next++;
      }
      boolean call = next < s.length() && s.charAt(next) == '(';
      if (!call && !KEYWORDS.contains(id)) {
        names.add(id);
      }
    }
    return names;
  }
}
