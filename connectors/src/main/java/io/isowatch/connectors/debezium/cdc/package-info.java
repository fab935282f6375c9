/**
 * CDC mode: Debezium change events of the probe's list-append table grouped into database
 * transactions by the database's transaction id ({@link
 * io.isowatch.connectors.debezium.cdc.TransactionAssembler}), and cross-checked against what the
 * clients recorded ({@link io.isowatch.connectors.debezium.cdc.CommitCrossCheck}): version order per
 * key, lost commits, aborted transactions that committed, and records confirmed with their database
 * transaction id; and the keys a capture has shown ({@link
 * io.isowatch.connectors.debezium.cdc.KeysSeen}), kept beside its position for {@code isowatch
 * capture --cdc}.
 */
package io.isowatch.connectors.debezium.cdc;
