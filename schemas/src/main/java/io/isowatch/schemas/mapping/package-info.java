/**
 * The one mapping between the Avro records of this module and the checker's model ({@code
 * monitor/checker}): a {@link io.isowatch.schemas.Transaction} to and from a {@link
 * io.isowatch.checker.window.WindowTxn} or a transaction of a {@link
 * io.isowatch.checker.history.History} ({@link io.isowatch.schemas.mapping.TransactionMapping}),
 * and a transaction's status both ways ({@link io.isowatch.schemas.mapping.StatusMapping}). Every
 * module that turns one into the other (the checker stage, replay, the probe's history) calls
 * these, so the values a record may carry and the reasons it is refused are written once.
 */
package io.isowatch.schemas.mapping;
