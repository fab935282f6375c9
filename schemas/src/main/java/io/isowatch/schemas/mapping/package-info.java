/**
 * The one mapping between the Avro records of this module and the checker's model ({@code
 * monitor/checker}): a {@link io.isowatch.schemas.Transaction} to and from a {@link
 * io.isowatch.checker.window.WindowTxn} or a transaction of a {@link
 * io.isowatch.checker.history.History} ({@link io.isowatch.schemas.mapping.TransactionMapping}),
 * a {@link io.isowatch.schemas.Violation} to and from the window checker's violation and the
 * history-free {@link io.isowatch.checker.finding.Finding} ({@link
 * io.isowatch.schemas.mapping.ViolationMapping}), and a transaction's status both ways ({@link
 * io.isowatch.schemas.mapping.StatusMapping}). Every module that turns one into the other (the
 * checker stage, replay, the probe's history, the violations page, {@code monitor}'s printed
 * lines) calls these, so the values a record may carry and the reasons it is refused are written
 * once.
 */
package io.isowatch.schemas.mapping;
