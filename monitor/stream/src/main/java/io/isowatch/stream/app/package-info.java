/**
 * The running monitor: {@link io.isowatch.stream.app.MonitorApp} builds and starts the Kafka
 * Streams client of the topology with its handlers and metrics binding, {@link
 * io.isowatch.stream.app.ViolationFeed} follows the violations topic (read committed).
 */
package io.isowatch.stream.app;
