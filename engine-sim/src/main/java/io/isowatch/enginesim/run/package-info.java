/**
 * Running sessions against an {@link io.isowatch.enginesim.engine.IsolationEngine} and recording
 * what the clients saw as an {@link io.isowatch.checker.history.History}: a {@link
 * io.isowatch.enginesim.run.Client} per session, and {@link io.isowatch.enginesim.run.Simulation},
 * which interleaves the sessions' operations in an order a seed decides and hands each completed
 * transaction to a listener as a {@link io.isowatch.enginesim.run.SimTransaction} (the stream of
 * transactions publishers build on); and the bank-transfer scenario {@link
 * io.isowatch.enginesim.run.BankTransfer}.
 */
package io.isowatch.enginesim.run;
