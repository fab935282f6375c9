/**
 * The JDBC interceptor: {@link io.isowatch.connectors.jdbc.RecordingDataSource}, a {@link
 * javax.sql.DataSource} wrapper that records the rows an application's SQL reads and writes in the
 * tables declared in its configuration ({@link io.isowatch.connectors.jdbc.RecordedTable}), through
 * the application recorder ({@link io.isowatch.connectors.recorder}). A version column that the
 * wrapper sets to a token unique per transaction makes {@code wr} recoverable without the
 * application writing unique values. {@link io.isowatch.connectors.jdbc.SqlShapes} says which
 * statements are understood; the others run unchanged and are counted. {@code docs/connectors.md}
 * describes it for users.
 */
package io.isowatch.connectors.jdbc;
