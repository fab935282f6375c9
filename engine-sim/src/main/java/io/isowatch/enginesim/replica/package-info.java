/**
 * Replicated stores for the rungs between read committed and snapshot isolation: {@link
 * io.isowatch.enginesim.replica.ReplicatedStore} at read atomic (delivery in any order) and causal
 * consistency (causal delivery with vector clocks), each replica a {@link
 * io.isowatch.enginesim.replica.Replica}. Delivery is asynchronous and driven by the scheduler
 * through {@link io.isowatch.enginesim.engine.IsolationEngine#deliver}.
 */
package io.isowatch.enginesim.replica;
