package io.isowatch.connectors.debezium.envelope;

/** A decoded Debezium change event: a {@link RowChange} or a {@link TxBoundary}. */
public sealed interface Envelope permits RowChange, TxBoundary {}
