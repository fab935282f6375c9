/**
 * A violation as every output takes it, history-free: {@link io.isowatch.checker.finding.Finding}
 * (anomaly, weakest level broken, summary, transactions, typed and explained edges, support), made
 * by {@link io.isowatch.checker.finding.Findings} from a checker's witness.
 */
package io.isowatch.checker.finding;
