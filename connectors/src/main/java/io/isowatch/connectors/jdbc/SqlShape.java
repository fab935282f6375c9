package io.isowatch.connectors.jdbc;

/**
 * What {@link SqlShapes} understood of one SQL statement.
 *
 * <p>Understood statements read or write one row of a {@link RecordedTable} chosen by its key: a
 * {@link Read}, a {@link Write} (register tables) or an {@link Append} (list tables). A statement that mentions a recorded table in any other form is
 * {@link Unrecorded}: it runs unchanged and is counted. Any other statement is {@link #OUTSIDE}.
 */
sealed interface SqlShape {
  /** Neither reads nor writes a recorded table (mentions none). */
  SqlShape OUTSIDE = new Outside();

  /**
   * How the statement names its row's key.
   *
   * @param parameter the application's 1-based parameter index, or 0 for a literal
   * @param literal the literal's text when {@code parameter == 0}, e.g. {@code 42}
   */
  record Key(int parameter, String literal) {}

  /** See {@link #OUTSIDE}. */
  record Outside() implements SqlShape {}

  /**
   * {@code SELECT columns FROM table WHERE key = ?}: records a read of the row.
   *
   * @param table the table
   * @param key the row's key
   * @param sql the statement with the version column appended to the select list (the result's
   *     last column)
   */
  record Read(RecordedTable table, Key key, String sql) implements SqlShape {}

  /**
   * {@code UPDATE table SET ... WHERE key = ?} or {@code INSERT INTO table (columns) VALUES (...)}:
   * records a write of the row when the database reports it changed.
   *
   * @param table the table
   * @param key the row's key
   * @param prepared the statement for a {@code PreparedStatement}: the version column is set from a
   *     new first parameter (the token), so the application's parameter {@code i} is {@code i + 1};
   *     an UPDATE keeps the row's version when that parameter is NULL
   * @param prefix with {@link #suffix}, the statement for a plain {@code Statement}: {@code prefix +
   *     token + suffix}
   * @param suffix see {@link #prefix}
   */
  record Write(RecordedTable table, Key key, String prepared, String prefix, String suffix) implements SqlShape {
    /**
     * @param token the transaction's version token
     * @return the statement setting the version column to {@code token}, for a plain {@code Statement}
     */
    String withToken(long token) {
      return prefix + token + suffix;
    }
  }

  /**
   * {@code UPDATE table SET l = l || ',' || e WHERE key = ?} (or {@code CONCAT(l, ',', e)}) or
   * {@code INSERT INTO table (key, l) VALUES (?, e)} on a list table ({@link ListShapes}): records
   * appends of the elements of {@code e} when the database reports the row changed. Runs unchanged.
   *
   * @param table the list table
   * @param key the row's key
   * @param element how the statement names the appended text {@code e}: the elements as
   *     comma-separated decimal longs ({@link io.isowatch.schemas.debezium.ListValues}), usually one
   */
  record Append(RecordedTable table, Key key, Key element) implements SqlShape {}

  /**
   * Mentions a recorded table in a form not understood: runs unchanged, counted in the metric.
   *
   * @param table the recorded table it mentions
   * @param reason the metric's {@code reason} tag, e.g. {@code delete}
   */
  record Unrecorded(RecordedTable table, String reason) implements SqlShape {}
}
