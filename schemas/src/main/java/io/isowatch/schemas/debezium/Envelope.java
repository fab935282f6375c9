package io.isowatch.schemas.debezium;

/** A decoded Debezium change event: a {@link RowChange} or a {@link TxBoundary}. */
public sealed interface Envelope permits RowChange, TxBoundary {}
