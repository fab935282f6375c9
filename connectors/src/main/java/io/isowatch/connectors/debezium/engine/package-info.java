/**
 * The embedded Debezium engine for PostgreSQL ({@code pgoutput}): {@link
 * io.isowatch.connectors.debezium.engine.CaptureConfig} says what to read and where offsets live;
 * {@link io.isowatch.connectors.debezium.engine.ChangeStream} runs the engine and hands each change
 * event, as Debezium's JSON envelope, to a handler.
 */
package io.isowatch.connectors.debezium.engine;
